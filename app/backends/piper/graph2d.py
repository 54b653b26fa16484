"""A Piper voice with its 1-D convolutions run as 2-D ones: the same audio in ~9% less CPU.

onnxruntime runs a Conv over (N, C, T) as im2col and a matrix product. The same convolution
over (N, C, 1, T), with a (1, k) kernel, gets the blocked NCHWc kernels its full optimization
level applies to 2-D convolutions on x86. A VITS voice is mostly such convolutions (its decoder
runs them at the audio rate), so the rewrite below speaks the same audio (within 1e-4 on the
bundled voice: tests/pipeline/test_piper_graph2d.py) in less time (benchmarks/README.md,
session 6).

The rewrite is mechanical: every Conv and ConvTranspose whose weight is a 3-D initializer is
wrapped in Unsqueeze/Squeeze on axis 2, its weight gets a height of 1, and its kernel, stride,
dilation and padding attributes a leading 1 or 0. Nodes it does not understand stay as they are.

Built once per voice, onnxruntime version and CPU (about a second, the first time a voice is used
on a machine): onnxruntime saves the optimized graph, which may hold CPU-specific kernels, so the
file's key includes the CPU's flags. Every run, the first included, loads that file with no
optimization pass (0.1-0.3 s instead of 0.6-0.9 s). Anything failing keeps the original
voice: the rewrite is a speed-up, never a reason a book cannot be read.
"""
from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import platform
from pathlib import Path

from app import paths
from app.files import temp_tag

log = logging.getLogger(__name__)

#: Bumped when the rewrite changes, so files of an older one are built again.
REWRITE_VERSION = 1
_AXIS = "graph2d_axis_2"


def cached_path(model_path: Path) -> Path:
    """Return where the rewritten, optimized graph of `model_path` is kept on this machine."""
    import onnxruntime

    stat = model_path.stat()
    key = "|".join(map(str, (model_path.resolve(), stat.st_size, stat.st_mtime_ns, onnxruntime.__version__,
                             REWRITE_VERSION, _cpu_flags())))
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    # Beside the managed venvs, not in a home's cache: it derives from the installed voice and this
    # machine, not from any book, and every home (and test) on the machine shares it.
    return paths.envs_dir() / "piper-graphs" / f"{model_path.stem}-{digest}.onnx"


def _cpu_flags() -> str:
    """Return what identifies this CPU's instruction sets (the optimized graph may use them)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return hashlib.sha256(line.encode()).hexdigest()[:16]
    except OSError:
        pass
    return platform.machine() + platform.processor()


def rewrite(model_path: Path) -> bytes:
    """Return the serialized model of `model_path` with its 1-D convolutions as 2-D ones."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(model_path))
    graph = model.graph
    weights = {init.name: init for init in graph.initializer}
    graph.initializer.append(numpy_helper.from_array(np.array([2], dtype=np.int64), _AXIS))
    nodes, converted = [], 0
    for node in graph.node:
        weight = weights.get(node.input[1]) if node.op_type in ("Conv", "ConvTranspose") and len(node.input) > 1 else None
        attributes = _attributes_2d(node) if weight is not None and len(weight.dims) == 3 else None
        if attributes is None:
            nodes.append(node)
            continue
        converted += 1
        tag = f"_2d_{converted}"
        weight_2d = numpy_helper.from_array(numpy_helper.to_array(weight)[:, :, None, :], weight.name + tag)
        graph.initializer.append(weight_2d)
        x_2d, y_2d = node.input[0] + tag, node.output[0] + tag
        nodes.append(helper.make_node("Unsqueeze", [node.input[0], _AXIS], [x_2d]))
        nodes.append(helper.make_node(node.op_type, [x_2d, weight_2d.name, *node.input[2:]], [y_2d],
                                      name=(node.name or node.op_type) + tag, **attributes))
        nodes.append(helper.make_node("Squeeze", [y_2d, _AXIS], [node.output[0]]))
    if not converted:
        raise ValueError("no 1-D convolution to rewrite")
    del graph.node[:]
    graph.node.extend(nodes)
    used = {name for node in graph.node for name in node.input}
    kept = [init for init in graph.initializer if init.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    return model.SerializeToString()


def _attributes_2d(node) -> dict | None:
    """Return the node's attributes for a (1, k) kernel, or None if one is not understood."""
    from onnx import helper

    out = {}
    for attribute in node.attribute:
        value = helper.get_attribute_value(attribute)
        if attribute.name in ("kernel_shape", "strides", "dilations", "output_padding", "output_shape"):
            if len(value) != 1:
                return None
            out[attribute.name] = [1, *value]
        elif attribute.name == "pads":
            if len(value) != 2:
                return None
            out["pads"] = [0, value[0], 0, value[1]]
        elif attribute.name in ("group", "auto_pad"):
            out[attribute.name] = value
        else:
            return None
    return out


def _build(model_path: Path, optimized: Path, threads: int) -> None:
    """Write the rewritten graph, optimized by onnxruntime for this CPU, to `optimized`.

    The rewrite's bytes and the building session (~3 copies of the voice) are freed on return.
    """
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3  # it warns that the saved graph may be CPU-specific: the key says so
    options.optimized_model_filepath = str(optimized)
    onnxruntime.InferenceSession(rewrite(model_path), sess_options=options, providers=["CPUExecutionProvider"])


def _return_freed_memory() -> None:
    """Give the heap the build freed back to the system (glibc keeps it, and the run's peak would sit on it)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: its allocator decides
        pass


def session(model_path: Path, options):
    """Return an onnxruntime session of the voice's 2-D graph (built and kept on first use), or None.

    `options` are fresh SessionOptions with the caller's threads (this changes them); None means:
    load the original voice, with options of its own.
    """
    import onnxruntime

    try:
        target = cached_path(model_path)
    except Exception as exc:  # noqa: BLE001 - onnxruntime missing its version, a voice that vanished
        log.debug("Piper voice %s stays 1-D (%s)", model_path.name, exc)
        return None
    partial = target.with_name(f".{target.name}.{temp_tag()}.part")
    cached = target.is_file()
    try:
        if not cached:
            paths.ensure(target.parent)  # first: an unwritable folder costs no rewrite
            _build(model_path, partial, options.intra_op_num_threads)
            os.replace(partial, target)  # whole or not at all: a half-written graph is never loaded
            _return_freed_memory()
        # Loaded from the file even right after building it: the session that built it keeps the
        # unoptimized weights too (~55 MB more for the whole run).
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
        return onnxruntime.InferenceSession(str(target), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - onnx, protobuf and onnxruntime errors share no base
        log.debug("Piper voice %s stays 1-D (%s: %s)", model_path.name, type(exc).__name__, exc)
        if cached:
            target.unlink(missing_ok=True)  # unreadable (a disk error, another onnxruntime): built again next run
        return None
    finally:
        try:
            partial.unlink(missing_ok=True)
        except OSError:  # its folder is not a folder (or not ours): nothing was written there
            pass
