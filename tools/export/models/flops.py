"""Multiply-add FLOPs of a captured ATen graph, for the benchmark's GFLOP/s.

Counts 2 FLOPs per multiply-accumulate of the ops that dominate the models
(convolution, mm, addmm, bmm), as papers and ONNX tools do; elementwise ops,
norms and softmax are left out, so GFLOP/s is a lower bound on the work done.
"""
import math
from typing import Sequence

import torch
from torch.fx.passes.shape_prop import ShapeProp

aten = torch.ops.aten


def _shape(node: torch.fx.Node) -> Sequence[int]:
    return tuple(node.meta["tensor_meta"].shape)


def count_flops(gm: torch.fx.GraphModule, inputs: Sequence[torch.Tensor]) -> int:
    with torch.no_grad():
        ShapeProp(gm).propagate(*inputs)
    total = 0
    for n in gm.graph.nodes:
        if n.op != "call_function":
            continue
        if n.target is aten.convolution.default:
            # weight [C_out, C_in / groups, *kernel]. A forward convolution does
            # C_in / groups * kernel multiply-adds per output element; a
            # transposed one as many per *input* element.
            weight = _shape(n.args[1])
            per_element = math.prod(weight[1:])
            transposed = bool(n.args[6])
            total += 2 * math.prod(_shape(n.args[0]) if transposed else _shape(n)) * per_element
        elif n.target in (aten.mm.default, aten.addmm.default):
            first = 1 if n.target is aten.addmm.default else 0  # addmm(bias, a, b, ...)
            a = _shape(n.args[first])
            b = _shape(n.args[first + 1])
            total += 2 * a[0] * a[1] * b[1]
        elif n.target is aten.bmm.default:
            a = _shape(n.args[0])
            b = _shape(n.args[1])
            total += 2 * a[0] * a[1] * a[2] * b[2]
    return total
