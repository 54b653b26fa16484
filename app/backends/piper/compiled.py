"""A Piper voice compiled for this machine: 2-D convolutions, the decoder in windows, built once.

Compiling (about 1.5 s of one core, the first time a voice is used on a machine):
- the voice's graph is split at its decoder (windowed.py), and the decoder's window context is
  measured and kept in the decoder's metadata; a voice that does not split stays whole;
- each part's 1-D convolutions become 2-D ones (graph2d.py);
- onnxruntime optimizes each part and saves it. The saved graph may hold CPU-specific kernels, so
  the files' key includes the CPU's flags, with the voice file's stat and onnxruntime's version.

Every run, the first included, loads the saved files with no optimization pass (0.1-0.3 s instead
of 0.6-0.9 s). Anything failing keeps the voice as shipped: compiling is a saving of time and
memory, never a reason a book cannot be read.
"""
from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import platform
import re
from collections.abc import Callable
from pathlib import Path

from app.core import paths
from app.core.files import is_stale_temp, temp_tag

log = logging.getLogger(__name__)

#: Bumped when compiling changes, so files of an older compiler are built again.
COMPILER_VERSION = 2

#: What a compiled voice is kept as, beside its key: whole, or split in two (the encoder is written last).
WHOLE, ENCODER, DECODER = ".onnx", ".encoder.onnx", ".decoder.onnx"


def cached_stem(model_path: Path) -> Path:
    """Return the path, less its suffix, the compiled graphs of `model_path` are kept at on this machine."""
    import onnxruntime

    stat = model_path.stat()
    key = "|".join(map(str, (model_path.resolve(), stat.st_size, stat.st_mtime_ns, onnxruntime.__version__,
                             COMPILER_VERSION, _cpu_flags())))
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    # Beside the managed venvs, not in a home's cache: it derives from the installed voice and this
    # machine, not from any book, and every home (and test) on the machine shares it.
    return paths.envs_dir() / "piper-graphs" / f"{model_path.stem}-{digest}"


def kept_files(model_path: Path) -> list[Path]:
    """Return the compiled graphs of `model_path` kept on this machine (none before its first use)."""
    stem = cached_stem(model_path)
    return [path for path in (Path(f"{stem}{suffix}") for suffix in (WHOLE, ENCODER, DECODER)) if path.is_file()]


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


def _optimize(model_bytes: bytes, target: Path, threads: int) -> None:
    """Save `model_bytes` optimized by onnxruntime for this CPU to `target`."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3  # it warns that the saved graph may be CPU-specific: the key says so
    options.optimized_model_filepath = str(target)
    onnxruntime.InferenceSession(model_bytes, sess_options=options, providers=["CPUExecutionProvider"])


def _build(model_path: Path, stem: Path, threads: int) -> None:
    """Compile the voice at `model_path` and keep it at `stem` + WHOLE, or + DECODER and + ENCODER.

    Each file is written under a partial name and renamed when whole. Each copy of the voice is let
    go as soon as the next exists, and the rewrite reshapes weights rather than copying them: this
    runs while the first book is planned, and its peak was that run's (459 MB against Piper's
    loop's 351; 327 MB since; benchmarks/README.md, session 7).
    """
    import onnx

    from app.backends.piper import graph2d, windowed

    model = onnx.load(str(model_path))
    parts = windowed.split(model)
    del model
    _return_freed_memory()
    if parts is not None and _build_split(list(parts), stem=stem, threads=threads):
        return
    log.debug("Piper voice %s: its decoder does not decode in windows; kept whole", model_path.name)
    model = onnx.load(str(model_path))
    if not graph2d.rewrite(model):
        raise ValueError("no 1-D convolution to rewrite")
    _optimize_into(model.SerializeToString(), Path(f"{stem}{WHOLE}"), threads)


def _build_split(parts: list, *, stem: Path, threads: int) -> bool:
    """Keep the voice's encoder and decoder at `stem`; False if its decoder does not decode in windows.

    `parts` is windowed.split()'s result as a list, emptied here so each part can be let go.
    """
    import onnx
    import onnxruntime

    from app.backends.piper import graph2d, windowed

    encoder, decoder, latents, channels = parts
    parts.clear()

    graph2d.rewrite(decoder)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    check = onnxruntime.InferenceSession(decoder.SerializeToString(), sess_options=options,
                                         providers=["CPUExecutionProvider"])
    context = windowed.verified_context(check, latents, channels)
    del check
    if context is None:
        return False
    onnx.helper.set_model_props(decoder, {windowed.CONTEXT_KEY: str(context)})
    _optimize_into(decoder.SerializeToString(), Path(f"{stem}{DECODER}"), threads)
    del decoder
    graph2d.rewrite(encoder)
    encoder_bytes = encoder.SerializeToString()
    del encoder
    _return_freed_memory()
    _optimize_into(encoder_bytes, Path(f"{stem}{ENCODER}"), threads)  # last: it completes the pair
    return True


def _optimize_into(model_bytes: bytes, target: Path, threads: int) -> None:
    """Optimize into a partial file and rename it: a half-written graph is never loaded."""
    partial = target.with_name(f".{target.name}.{temp_tag()}.part")
    try:
        _optimize(model_bytes, partial, threads)
        os.replace(partial, target)
    finally:
        try:
            partial.unlink(missing_ok=True)
        except OSError:  # its folder is not a folder (or not ours): nothing was written there
            pass


def _return_freed_memory() -> None:
    """Give the heap the build freed back to the system (glibc keeps it, and the run's peak would sit on it)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: its allocator decides
        pass


def _remove_older(model_path: Path, stem: Path) -> None:
    """Remove what older compilers, onnxruntimes or copies of this voice kept, and dead builds' partial files.

    Each is ~63 MB, and a new key (an upgrade) would otherwise leave the last one behind for ever.
    A second install on other terms sharing the folder builds its own again when it next runs.
    """
    ours = re.compile(rf"\.?{re.escape(model_path.stem)}-[0-9a-f]{{20}}\.")
    for path in stem.parent.iterdir():
        if not ours.match(path.name) or path.name.startswith(stem.name + "."):
            continue
        if path.name.startswith(".") and not is_stale_temp(path):  # another process is building
            continue
        try:
            path.unlink()
        except OSError:
            pass


def _load(stem: Path, options: Callable):
    """Return the kept voice at `stem` as a session PiperVoice can run, or None if none is kept."""
    import onnxruntime

    from app.backends.piper import windowed

    def open_session(path: Path, *, split: bool):
        made = options()
        made.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
        if split:
            # A memory pattern is planned per input shape and holds every tensor of the run at
            # once: twice the windowed decoder's working set, for no speed.
            made.enable_mem_pattern = False
            # Each part has its own pool of intra-op threads, whose idle threads spin for a while
            # after each run: with two threads a synthesis, the encoder's pool spun beside the
            # decoder's and made it 22% slower (2.5% without spinning). One thread: no pool.
            made.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return onnxruntime.InferenceSession(str(path), sess_options=made, providers=["CPUExecutionProvider"])

    encoder, decoder, whole = (Path(f"{stem}{suffix}") for suffix in (ENCODER, DECODER, WHOLE))
    if encoder.is_file() and decoder.is_file():
        return windowed.WindowedVoice(open_session(encoder, split=True), open_session(decoder, split=True),
                                      threads=options().intra_op_num_threads)
    if whole.is_file():
        return open_session(whole, split=False)
    return None


def session(model_path: Path, options: Callable):
    """Return the voice compiled for this machine (compiled and kept on first use), or None.

    `options()` makes fresh SessionOptions with the caller's threads (they are changed here). The
    result is an onnxruntime session or a windowed.WindowedVoice, both run as PiperVoice runs its
    session; None means: load the voice as shipped.
    """
    try:
        stem = cached_stem(model_path)
    except Exception as exc:  # noqa: BLE001 - onnxruntime missing its version, a voice that vanished
        log.debug("Piper voice %s is not compiled (%s)", model_path.name, exc)
        return None
    built = False
    try:
        loaded = _load(stem, options)
        if loaded is None:
            paths.ensure(stem.parent)  # first: an unwritable folder costs no build
            _build(model_path, stem, options().intra_op_num_threads)
            built = True
            _return_freed_memory()
            _remove_older(model_path, stem)
            # Loaded from the files even right after building them: the sessions that built them
            # keep the unoptimized weights too (~55 MB more for the whole run).
            loaded = _load(stem, options)
        return loaded
    except Exception as exc:  # noqa: BLE001 - onnx, protobuf and onnxruntime errors share no base
        log.debug("Piper voice %s is not compiled (%s: %s)", model_path.name, type(exc).__name__, exc)
        if not built:
            for path in kept_files(model_path):  # unreadable (a disk error, another onnxruntime): built again next run
                path.unlink(missing_ok=True)
        return None
