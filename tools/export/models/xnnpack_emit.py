"""Writes one partition of a Plan as an XNNGraph: an ``emit_<rule>`` per
supported op, in the layouts ``GraphBuilder`` keeps."""

from __future__ import annotations

import collections
import operator
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lower  # noqa: E402  (puts tools/pte on sys.path)
import op_map  # noqa: E402
from op_map import LoweringError  # noqa: E402
from xnn_writer import INVALID_ID  # noqa: E402
from xnnpack_graph import (FLAG_ALIGN_CORNERS, FLAG_KEEP_DIMS, INF, NCHW, NHWC, TO_NCHW,  # noqa: E402,F401
                           TO_NHWC, GraphBuilder, physical)
from xnnpack_plan import (ACTIVATIONS, BINARY_KINDS, RULES, UNARY_KINDS, Partition, Plan,  # noqa: E402,F401
                          _bound, _is_number, _op_name, _pair)

aten = torch.ops.aten

def _f32(t: torch.Tensor) -> np.ndarray:
    return t.detach().to(torch.float32).contiguous().numpy()


class PartitionBuilder:
    """Emits one partition's nodes (``emit_<rule>``) into a GraphBuilder."""

    def __init__(self, plan: Plan, part: Partition):
        self.plan = plan
        self.part = part
        self.b = GraphBuilder()
        self._consts: Dict[Tuple[Any, str], int] = {}

    def build(self) -> GraphBuilder:
        p = self.part
        for i, key in enumerate(p.inputs):
            self.b.input(key, list(self.plan.tensor(key).shape), i)
        for j, key in enumerate(p.outputs):
            self.b.declare_output(key, len(p.inputs) + j)
        for node in p.members:
            getattr(self, "emit_" + RULES[node.target])(node, _bound(node))
        p.node_counts = self.b.finish()
        return self.b

    # -- helpers -----------------------------------------------------------------

    def shape(self, n: torch.fx.Node) -> List[int]:
        return list(self.plan.tensor(n).shape)

    def key_layout(self, n: torch.fx.Node) -> str:
        return self.b.layout(self.plan.resolve(n))

    def value(self, arg: Any, layout: str, rank: Optional[int] = None) -> int:
        """The id of an operand in ``layout``: a computed value (transposed if
        needed), a constant (broadcast-compatible in NHWC) or a number."""
        if _is_number(arg):
            return self.b.constant(np.array([arg], dtype=np.float32))
        if self.plan.is_const(arg):
            cache = (arg, layout)
            if cache not in self._consts:
                data = _f32(self.plan.tensor(arg))
                if layout == NHWC:
                    data = data.reshape((1,) * (4 - data.ndim) + data.shape).transpose(TO_NHWC)
                self._consts[cache] = self.b.constant(data if data.ndim else data.reshape(1))
            return self._consts[cache]
        return self.b.get(self.plan.resolve(arg), layout)

    def output(self, node: torch.fx.Node, layout: str) -> int:
        return self.b.define(node, self.shape(node), layout)

    def common_layout(self, args: Sequence[Any], out_rank: int) -> str:
        """Elementwise ops follow their computed inputs: NHWC when any is NHWC
        and all (and the result) are 4-D, else NCHW."""
        dyn = [a for a in args if isinstance(a, torch.fx.Node) and not self.plan.is_const(a)]
        nhwc = any(self.key_layout(a) == NHWC for a in dyn)
        if nhwc and out_rank == 4 and all(len(self.shape(a)) == 4 for a in dyn):
            return NHWC
        return NCHW

    def _io(self, x: int, y: int) -> Dict[str, int]:
        return {"input_id": x, "output_id": y, "flags": 0}

    # -- convolution and fully connected ---------------------------------------------

    def emit_conv(self, node, b) -> None:
        w = _f32(self.plan.tensor(b["weight"]))
        out_c, group_in, kh, kw = w.shape
        groups = int(b["groups"])
        stride, pad, dil = _pair(b["stride"]), _pair(b["padding"]), _pair(b["dilation"])
        x = self.value(b["input"], NHWC)
        # XNNPACK takes a convolution with one input channel per group as
        # depthwise (filter [1, kH, kW, O]); others take OHWI filters.
        depthwise = group_in == 1
        filt = w.transpose(1, 2, 3, 0) if depthwise else w.transpose(0, 2, 3, 1)
        f = self.b.constant(filt)
        y = self.output(node, NHWC)
        bias = INVALID_ID if b["bias"] is None else self.b.constant(_f32(self.plan.tensor(b["bias"])))
        fields = {
            "padding_top": pad[0], "padding_right": pad[1], "padding_bottom": pad[0],
            "padding_left": pad[1], "kernel_height": kh, "kernel_width": kw,
            "subsampling_height": stride[0], "subsampling_width": stride[1],
            "dilation_height": dil[0], "dilation_width": dil[1],
            "group_input_channels": group_in, "group_output_channels": out_c // groups,
            "groups": groups, "adjustment_height": 0, "adjustment_width": 0,
            "input1_id": x, "filter_id": f, "bias_id": bias, "output_id": y, "flags": 0,
        }
        self.b.node("XNNDepthwiseConv2d" if depthwise else "XNNConv2d", fields,
                    self.plan.fused.get(node))

    def _fully_connected(self, node, x_arg, w_kn: torch.Tensor, bias: Optional[torch.Tensor]) -> None:
        x = self.value(x_arg, NCHW)
        # PyTorch's mm takes the weight as [in, out]; XNNPACK's [out, in].
        f = self.b.constant(_f32(w_kn).T)
        bid = INVALID_ID if bias is None else self.b.constant(_f32(bias).reshape(-1))
        y = self.output(node, NCHW)
        self.b.node("XNNFullyConnected", {"input1_id": x, "filter_id": f, "bias_id": bid,
                                          "output_id": y, "flags": 0}, self.plan.fused.get(node))

    def emit_addmm(self, node, b) -> None:
        self._fully_connected(node, b["mat1"], self.plan.tensor(b["mat2"]), self.plan.tensor(b["self"]))

    def emit_mm(self, node, b) -> None:
        if self.plan.is_const(b["mat2"]):
            self._fully_connected(node, b["self"], self.plan.tensor(b["mat2"]), None)
        else:
            self.emit_bmm(node, {"self": b["self"], "mat2": b["mat2"]})

    def emit_bmm(self, node, b) -> None:
        a, c = self.value(b["self"], NCHW), self.value(b["mat2"], NCHW)
        y = self.output(node, NCHW)
        self.b.node("XNNBatchMatrixMultiply", {"input1_id": a, "input2_id": c, "output_id": y, "flags": 0})

    # -- elementwise ---------------------------------------------------------------

    def emit_binary(self, node, b) -> None:
        layout = self.common_layout([b["self"], b["other"]], len(self.shape(node)))
        a, c = self.value(b["self"], layout), self.value(b["other"], layout)
        y = self.output(node, layout)
        self.b.node(BINARY_KINDS[node.target], {"input1_id": a, "input2_id": c, "output_id": y, "flags": 0},
                    self.plan.fused.get(node))

    def emit_clamp(self, node, b) -> None:
        src = node.args[0]
        layout = self.key_layout(src)
        x = self.value(src, layout)
        y = self.output(node, layout)
        self.b.node("XNNClamp", self._io(x, y), self.plan.clamp_range(node))

    def emit_unary(self, node, b) -> None:
        src = node.args[0]
        layout = self.key_layout(src)
        x = self.value(src, layout)
        y = self.output(node, layout)
        if node.target is aten.leaky_relu.default:
            self.b.node("XNNLeakyReLU", {"negative_slope": float(b["negative_slope"]), **self._io(x, y)})
        elif node.target is aten.elu.default:
            self.b.node("XNNELU", {"alpha": float(b["alpha"]), **self._io(x, y)})
        elif node.target is aten.gelu.default:
            self.b.node("XNNGelu" if b["approximate"] == "none" else "XNNApproxGelu", self._io(x, y))
        else:
            self.b.node(UNARY_KINDS[node.target], self._io(x, y))

    def emit_softmax(self, node, b) -> None:
        x = self.value(b["self"], NCHW)
        y = self.output(node, NCHW)
        self.b.node("XNNSoftmax", self._io(x, y))

    # -- pooling and resize -----------------------------------------------------------

    def emit_mean(self, node, b) -> None:
        x = self.value(b["self"], NHWC)
        y = self.output(node, NHWC)  # [N, 1, 1, C]
        self.b.node("XNNGlobalAvgPooling2d", {"input_id": x, "output_id": y, "flags": FLAG_KEEP_DIMS})

    def _pool(self, node, b, kind: str, dilation: List[int]) -> None:
        kernel = _pair(b["kernel_size"])
        stride = _pair(b["stride"]) if b["stride"] else kernel
        pad = _pair(b["padding"])
        x = self.value(b["self"], NHWC)
        y = self.output(node, NHWC)
        self.b.node(kind, {
            "padding_top": pad[0], "padding_right": pad[1], "padding_bottom": pad[0],
            "padding_left": pad[1], "pooling_height": kernel[0], "pooling_width": kernel[1],
            "stride_height": stride[0], "stride_width": stride[1],
            "dilation_height": dilation[0], "dilation_width": dilation[1],
            "input_id": x, "output_id": y, "flags": FLAG_KEEP_DIMS})

    def emit_max_pool(self, node, b) -> None:
        self._pool(node, b, "XNNMaxPooling2d", _pair(b["dilation"]))

    def emit_avg_pool(self, node, b) -> None:
        # Average pooling has no dilation; ExecuTorch writes 0.
        self._pool(node, b, "XNNAvgPooling2d", [0, 0])

    def emit_upsample(self, node, b) -> None:
        x = self.value(b["input"], NHWC)
        y = self.output(node, NHWC)
        _, _, h, w = self.shape(node)
        self.b.node("XNNStaticResizeBilinear2D", {
            "new_height": h, "new_width": w, "input_id": x, "output_id": y,
            "flags": FLAG_ALIGN_CORNERS if b["align_corners"] else 0})

    # -- data movement ------------------------------------------------------------------

    def emit_reshape(self, node, b) -> None:
        size = [int(s) for s in (b.get("size") if "size" in b else b["shape"])]
        new_shape = self.shape(node)
        if -1 in size:  # XNNPACK infers a 0 dim
            new_shape[size.index(-1)] = 0
        x = self.value(b["self"], NCHW)
        y = self.output(node, NCHW)
        self.b.node("XNNStaticReshape", {"num_dims": len(new_shape), "new_shape": new_shape, **self._io(x, y)})

    def emit_permute(self, node, b) -> None:
        src = b["self"]
        rank = len(self.shape(src))
        perm = [int(d) % rank for d in b["dims"]]
        layout = self.key_layout(src)
        if layout == NHWC:
            # Read the logical dims where NHWC keeps them; the result is NCHW.
            perm = [TO_NCHW[d] for d in perm]
        x = self.value(src, layout)
        y = self.output(node, NCHW)
        self.b.node("XNNStaticTranspose", {"num_dims": rank, "perm": perm, **self._io(x, y)})

    def emit_cat(self, node, b) -> None:
        ts = list(b["tensors"])
        rank = len(self.shape(node))
        layout = self.common_layout(ts, rank)
        axis = int(b["dim"]) % rank
        ids = [self.value(t, layout) for t in ts]
        y = self.output(node, layout)
        fields = {"axis": TO_NCHW[axis] if layout == NHWC else axis}
        for i in range(5):
            fields[f"input{i + 1}_id"] = ids[i] if i < len(ids) else INVALID_ID
        fields.update({"output_id": y, "flags": 0})
        self.b.node(f"XNNConcatenate{len(ts)}", fields)

    def emit_slice(self, node, b) -> None:
        src = b["self"]
        shape = self.shape(src)
        dim = int(b["dim"]) % len(shape)
        start = 0 if b["start"] is None else int(b["start"])
        start = min(max(start + shape[dim] if start < 0 else start, 0), shape[dim])
        offsets = [0] * len(shape)
        offsets[dim] = start
        layout = self.key_layout(src)
        x = self.value(src, layout)
        y = self.output(node, layout)
        self.b.node("XNNStaticSlice", {"num_dims": len(shape), "offsets": physical(offsets, layout),
                                       "sizes": physical(self.shape(node), layout), **self._io(x, y)})

    def emit_pad(self, node, b) -> None:
        src = b["self"]
        rank = len(self.shape(src))
        pad = [int(p) for p in b["pad"]]
        pre, post = [0] * rank, [0] * rank
        for k in range(len(pad) // 2):  # pairs start at the last dim
            pre[rank - 1 - k], post[rank - 1 - k] = pad[2 * k], pad[2 * k + 1]
        layout = self.key_layout(src)
        x = self.value(src, layout)
        y = self.output(node, layout)
        self.b.node("XNNStaticConstantPad", {
            "pre_paddings": physical(pre, layout), "post_paddings": physical(post, layout),
            "padding_value": float(b["value"]), **self._io(x, y)})


