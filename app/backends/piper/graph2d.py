"""A Piper voice's 1-D convolutions as 2-D ones: the same audio in ~9% less CPU.

onnxruntime runs a Conv over (N, C, T) as im2col and a matrix product. The same convolution
over (N, C, 1, T), with a (1, k) kernel, gets the blocked NCHWc kernels its full optimization
level applies to 2-D convolutions on x86. A VITS voice is mostly such convolutions (its decoder
runs them at the audio rate), so the rewrite below speaks the same audio (within 1e-4 on the
bundled voice: tests/pipeline/test_piper_compiled.py) in less time (benchmarks/README.md,
session 6).

The rewrite is mechanical: every Conv and ConvTranspose whose weight is a 3-D initializer is
wrapped in Unsqueeze/Squeeze on axis 2, its weight gets a height of 1 (reshaped in place when
nothing else reads it: the same bytes), and its kernel, stride, dilation and padding attributes a
leading 1 or 0. Nodes it does not understand stay as they are.
compiled.py builds, keeps and loads the result once per machine.
"""
from __future__ import annotations

_AXIS = "graph2d_axis_2"


def rewrite(model) -> int:
    """Rewrite the 1-D convolutions of `model` (an onnx ModelProto, changed in place) as 2-D ones.

    Returns how many were rewritten; unused initializers are dropped.
    """
    import numpy as np
    from onnx import helper, numpy_helper

    graph = model.graph
    weights = {init.name: init for init in graph.initializer}
    uses: dict[str, int] = {}
    for node in graph.node:
        for name in node.input:
            uses[name] = uses.get(name, 0) + 1
    for value in graph.input:  # a weight fed from outside can't be reshaped here
        uses[value.name] = uses.get(value.name, 0) + 1
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
        if uses[weight.name] == 1:
            # (O, I, k) and (O, I, 1, k) are the same bytes: a new shape, not a copy of the weights
            # (the build runs beside the first book's synthesis, and the voice is mostly these).
            weight.dims.insert(2, 1)
            weight_2d_name = weight.name
        else:
            weight_2d = numpy_helper.from_array(numpy_helper.to_array(weight)[:, :, None, :], weight.name + tag)
            graph.initializer.append(weight_2d)
            weight_2d_name = weight_2d.name
        x_2d, y_2d = node.input[0] + tag, node.output[0] + tag
        nodes.append(helper.make_node("Unsqueeze", [node.input[0], _AXIS], [x_2d]))
        nodes.append(helper.make_node(node.op_type, [x_2d, weight_2d_name, *node.input[2:]], [y_2d],
                                      name=(node.name or node.op_type) + tag, **attributes))
        nodes.append(helper.make_node("Squeeze", [y_2d, _AXIS], [node.output[0]]))
    del graph.node[:]
    graph.node.extend(nodes)
    used = {name for node in graph.node for name in node.input}
    for index in reversed(range(len(graph.initializer))):  # by index: extend() would copy every weight
        if graph.initializer[index].name not in used:
            del graph.initializer[index]
    return converted


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
