"""Quantized models for XnnpackBackend: static int8 (qint8 activations,
per-channel qcint8 weights) and dynamic qdint8 fully connected layers.

torch 1.13's make_fx cannot trace quantized tensors, so these lowerings read
the model at the FX *module* level instead of the ATen graph:

* ``quantize_static`` quantizes a float model with ``torch.ao.quantization``
  FX (``prepare_fx`` with the QNNPACK backend config, which takes signed int8
  activations; per-tensor affine qint8 activations, per-channel symmetric
  qint8 weights in [-127, 127]; seeded calibration; ``convert_to_reference_fx``).
  The reference model simulates quantization in float and is the expected
  output.
* ``Int8Lowering`` walks that reference GraphModule and writes one XNNGraph:
  ``quantize_per_tensor`` of the float input -> ``XNNConvert`` fp32 -> qint8;
  ``dequantize`` -> op -> ``quantize_per_tensor`` -> the op in int8 with the
  quantize's scale and zero point (conv/linear reference modules -> qint8
  ``XNNConv2d``/``XNNDepthwiseConv2d``/``XNNFullyConnected`` with qcint8
  filters and an int32 bias quantized with scale = input scale x weight
  scale; a ReLU before the quantize -> ``output_min_max``; add -> qint8
  ``XNNAdd``; max pooling and flatten on int8 keep the input's quantization);
  the final ``dequantize`` -> ``XNNConvert`` qint8 -> fp32.
* ``export_qd8_mlp`` writes Linear(+ReLU) stacks with dynamically quantized
  activations: ``XNNConvert`` fp32 -> qdint8 (``PerTokenDynamicQuant``, one
  scale and zero point per row, computed at run time) feeding a
  ``XNNFullyConnected`` with qcint8 per-channel weights, fp32 bias and fp32
  output. ``qd8_reference`` computes the expected output in numpy with
  XNNPACK's per-row quantization formula and the integer matmul.

Layout follows ``xnnpack_lower.GraphBuilder``: convolution and pooling in
NHWC, StaticTransposes (on qint8 values) only where a value changes layout.
"""

from __future__ import annotations

import operator
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
import torch.ao.nn.intrinsic as nni
import torch.ao.nn.quantized.reference as nnqr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import xnnpack_lower as xl  # noqa: E402
from op_map import LoweringError  # noqa: E402
from pte_writer import ProgramBuilder  # noqa: E402
from xnn_writer import INVALID_ID  # noqa: E402

NCHW, NHWC = xl.NCHW, xl.NHWC
INF = float("inf")


# ---------------------------------------------------------------------------
# Static quantization with torch.ao (reference model)

def int8_qconfig():
    """Signed int8 per-tensor affine activations, int8 per-channel symmetric
    weights in [-127, 127]; scales at least 2^-12 (XNNPACK's requantization
    lower bound, which the QNNPACK backend config enforces)."""
    from torch.ao.quantization import QConfig
    from torch.ao.quantization.observer import MinMaxObserver, PerChannelMinMaxObserver
    act = MinMaxObserver.with_args(dtype=torch.qint8, qscheme=torch.per_tensor_affine,
                                   quant_min=-128, quant_max=127, eps=2 ** -12)
    weight = PerChannelMinMaxObserver.with_args(dtype=torch.qint8, qscheme=torch.per_channel_symmetric,
                                                quant_min=-127, quant_max=127, eps=2 ** -12)
    return QConfig(activation=act, weight=weight)


def quantize_static(model: torch.nn.Module, example: torch.Tensor,
                    calibration: Sequence[torch.Tensor]) -> torch.fx.GraphModule:
    """The reference-quantized GraphModule of ``model`` (eval) calibrated on ``calibration``."""
    from torch.ao.quantization import QConfigMapping
    from torch.ao.quantization.backend_config import get_qnnpack_backend_config
    from torch.ao.quantization.quantize_fx import convert_to_reference_fx, prepare_fx
    backend = get_qnnpack_backend_config()
    prepared = prepare_fx(model.eval(), QConfigMapping().set_global(int8_qconfig()), (example,),
                          backend_config=backend)
    with torch.no_grad():
        for x in calibration:
            prepared(x)
    return convert_to_reference_fx(prepared, backend_config=backend)


# ---------------------------------------------------------------------------
# Static int8 lowering

def _f32(x: Any) -> float:
    """A scale as the float32 the runtime will hold (exactly representable)."""
    return float(np.float32(float(x)))


def _per_tensor(scale: float, zero_point: int) -> Dict[str, Any]:
    return {"PerTensorQuant": {"scale": _f32(scale), "zero_point": int(zero_point)}}


class _Q:
    """A qint8 value in the builder (key) with its scale and zero point."""

    def __init__(self, key: Any, scale: float, zero_point: int):
        self.key, self.scale, self.zero_point = key, _f32(scale), int(zero_point)


class _Pending:
    """A float op on dequantized values, written once its quantize is seen."""

    def __init__(self, kind: str, inputs: List[_Q], node: torch.fx.Node, module: Any = None):
        self.kind, self.inputs, self.node, self.module = kind, inputs, node, module
        self.range: Optional[Tuple[float, float]] = None


def _is_relu(node: torch.fx.Node, module: Any) -> bool:
    if node.op == "call_module":
        return isinstance(module, torch.nn.ReLU)
    return node.op == "call_function" and node.target in (torch.relu, torch.nn.functional.relu)


class Int8Lowering:
    """One XNNGraph (external input 0: the float input, output 1: the float
    output) from a reference-quantized GraphModule."""

    def __init__(self, ref: torch.fx.GraphModule, example: torch.Tensor):
        self.ref = ref
        self.example = example
        self.shapes = self._shapes(example)
        self.b = xl.GraphBuilder()
        self.env: Dict[torch.fx.Node, Any] = {}

    def _shapes(self, x: torch.Tensor) -> Dict[torch.fx.Node, List[int]]:
        shapes: Dict[torch.fx.Node, List[int]] = {}

        class Recorder(torch.fx.Interpreter):
            def run_node(self, n):
                r = super().run_node(n)
                if isinstance(r, torch.Tensor):
                    shapes[n] = list(r.shape)
                return r

        with torch.no_grad():
            Recorder(self.ref).run(x)
        return shapes

    def build(self) -> xl.GraphBuilder:
        for node in self.ref.graph.nodes:
            if node.op == "placeholder":
                self.b.input(node, self.shapes[node], 0)
                self.env[node] = ("f32", node)
            elif node.op == "get_attr":
                self.env[node] = xl.lower._attr(self.ref, node.target)
            elif node.op == "output":
                self._output(node)
            else:
                self.env[node] = self._visit(node)
        self.node_counts = self.b.finish()
        return self.b

    # -- the walk ------------------------------------------------------------------

    def _dq(self, arg: Any, node: torch.fx.Node) -> _Q:
        v = self.env.get(arg) if isinstance(arg, torch.fx.Node) else None
        if not (isinstance(v, tuple) and v[0] == "dq"):
            raise LoweringError(f"{node.name}: input {arg} is not a dequantized int8 value")
        return v[1]

    def _visit(self, node: torch.fx.Node) -> Any:
        module = self.ref.get_submodule(node.target) if node.op == "call_module" else None
        if node.op == "call_function" and node.target is torch.quantize_per_tensor:
            return ("q", self._quantize(node))
        if node.op == "call_method" and node.target == "dequantize":
            src = self.env[node.args[0]]
            if src[0] != "q":
                raise LoweringError(f"{node.name}: dequantize of a value that is not quantized")
            return ("dq", src[1])
        if _is_relu(node, module):
            src = self.env[node.args[0]]
            if isinstance(src, _Pending) and src.kind in ("conv", "fc", "add") and src.range is None:
                src.range = (0.0, INF)
                return src
            p = _Pending("clamp", [self._dq(node.args[0], node)], node)
            p.range = (0.0, INF)
            return p
        if isinstance(module, nni.ConvReLU2d) and isinstance(module[0], nnqr.Conv2d):
            p = _Pending("conv", [self._dq(node.args[0], node)], node, module[0])
            p.range = (0.0, INF)
            return p
        if isinstance(module, nni.LinearReLU) and isinstance(module[0], nnqr.Linear):
            p = _Pending("fc", [self._dq(node.args[0], node)], node, module[0])
            p.range = (0.0, INF)
            return p
        if isinstance(module, nnqr.Conv2d):
            return _Pending("conv", [self._dq(node.args[0], node)], node, module)
        if isinstance(module, nnqr.Linear):
            return _Pending("fc", [self._dq(node.args[0], node)], node, module)
        if module is not None and isinstance(module, torch.nn.MaxPool2d):
            return _Pending("max_pool", [self._dq(node.args[0], node)], node, module)
        if node.op == "call_function" and node.target in (operator.add, torch.add):
            return _Pending("add", [self._dq(a, node) for a in node.args[:2]], node)
        if (node.op == "call_function" and node.target in (torch.flatten, torch.reshape)) or \
                (node.op == "call_method" and node.target in ("flatten", "reshape", "view")) or \
                isinstance(module, torch.nn.Flatten):
            return _Pending("reshape", [self._dq(node.args[0], node)], node)
        raise LoweringError(f"{node.name}: {node.op} {node.target} has no int8 XNNPACK lowering")

    def _quantize(self, node: torch.fx.Node) -> _Q:
        src, scale, zp, dtype = node.args
        if dtype is not torch.qint8:
            raise LoweringError(f"{node.name}: {dtype} activations (XNNPACK's are qint8)")
        scale, zp = float(self.env[scale]), int(self.env[zp])
        quant = _per_tensor(scale, zp)
        v = self.env[src]
        out = _Q(node, scale, zp)
        if isinstance(v, tuple) and v[0] == "f32":
            layout = self.b.layout(v[1])
            x = self.b.get(v[1], layout)
            y = self.b.define(node, self.shapes[src], layout, dtype="qint8", quant=quant)
            self.b.node("XNNConvert", {"input_id": x, "output_id": y, "flags": 0})
            return out
        if not isinstance(v, _Pending):
            raise LoweringError(f"{node.name}: quantize of {src.name}, which no int8 node computes")
        getattr(self, "_emit_" + v.kind)(v, out, self.shapes[src])
        return out

    def _output(self, node: torch.fx.Node) -> None:
        res = node.args[0]
        if isinstance(res, (tuple, list)):
            if len(res) != 1:
                raise LoweringError(f"{len(res)} outputs (one is supported)")
            res = res[0]
        v = self.env[res]
        if not (isinstance(v, tuple) and v[0] == "dq"):
            raise LoweringError("the model must end with a dequantize")
        q: _Q = v[1]
        self.b.declare_output(res, 1)
        layout = self.b.layout(q.key)
        x = self.b.get(q.key, layout)
        y = self.b.define(res, self.b.shape(q.key), layout)
        self.b.node("XNNConvert", {"input_id": x, "output_id": y, "flags": 0})

    # -- int8 nodes ------------------------------------------------------------------

    def _define(self, out: _Q, shape: List[int], layout: str) -> int:
        return self.b.define(out.key, shape, layout, dtype="qint8",
                             quant=_per_tensor(out.scale, out.zero_point))

    def _weights(self, module: Any, x: _Q) -> Tuple[np.ndarray, np.ndarray, Optional[np.ndarray], np.ndarray, bool]:
        """(int8 weights as PyTorch lays them out, their scales per output
        channel, the int32 bias or None, its scales, per channel?) of a
        reference conv/linear."""
        qw = module.get_quantized_weight()
        w = qw.int_repr().numpy()
        per_channel = module.weight_qscheme in (torch.per_channel_affine, torch.per_channel_symmetric)
        if per_channel:
            scales = module.weight_scale.detach().numpy().astype(np.float32)
            zps = module.weight_zero_point.detach().numpy()
            if int(module.weight_axis) != 0:
                raise LoweringError(f"weights quantized along dim {int(module.weight_axis)}")
        else:
            scales = np.full(w.shape[0], np.float32(float(module.weight_scale)), dtype=np.float32)
            zps = np.array([int(module.weight_zero_point)])
        if np.any(zps != 0):
            raise LoweringError("XNNPACK's int8 weights are symmetric (zero point 0)")
        # The bias is in accumulator units: scale = input scale * weight scale,
        # computed in float32 as the runtime does.
        bias_scale = np.float32(x.scale) * scales
        bias = module.bias.detach().numpy().astype(np.float64) if module.bias is not None else None
        qbias = None if bias is None else np.clip(np.rint(bias / bias_scale.astype(np.float64)),
                                                  -2 ** 31, 2 ** 31 - 1).astype(np.int32)
        return w, scales, qbias, bias_scale, per_channel

    def _filter_and_bias(self, filt: np.ndarray, channel_dim: int,
                         w: Tuple[np.ndarray, np.ndarray, Optional[np.ndarray], np.ndarray, bool]
                         ) -> Tuple[int, int]:
        """Value ids of the filter (``filt``: the int8 weights in XNNPACK's
        layout, channels along ``channel_dim``) and the bias: qcint8/qcint32
        per channel, or qint8/qint32 per tensor."""
        _, scales, qbias, bias_scale, per_channel = w
        if per_channel:
            f = self.b.per_channel_constant(filt, "qcint8", scales, channel_dim)
        else:
            f = self.b.constant(filt, dtype="qint8", quant=_per_tensor(float(scales[0]), 0))
        if qbias is None:
            return f, INVALID_ID
        if per_channel:
            return f, self.b.per_channel_constant(qbias, "qcint32", bias_scale, 0)
        return f, self.b.constant(qbias, dtype="qint32", quant=_per_tensor(float(bias_scale[0]), 0))

    def _emit_conv(self, p: _Pending, out: _Q, shape: List[int]) -> None:
        m = p.module
        (x,) = p.inputs
        weights = self._weights(m, x)
        w = weights[0]
        out_c, group_in, kh, kw = w.shape
        if m.padding_mode != "zeros" or isinstance(m.padding, str):
            raise LoweringError(f"{p.node.name}: padding {m.padding!r} ({m.padding_mode})")
        depthwise = group_in == 1
        xin = self.b.get(x.key, NHWC)
        if depthwise:  # 1HWO: output channels on dim 3
            f, bias = self._filter_and_bias(w.transpose(1, 2, 3, 0), 3, weights)
        else:  # OHWI
            f, bias = self._filter_and_bias(w.transpose(0, 2, 3, 1), 0, weights)
        y = self._define(out, shape, NHWC)
        pad, stride, dil = xl._pair(m.padding), xl._pair(m.stride), xl._pair(m.dilation)
        self.b.node("XNNDepthwiseConv2d" if depthwise else "XNNConv2d", {
            "padding_top": pad[0], "padding_right": pad[1], "padding_bottom": pad[0],
            "padding_left": pad[1], "kernel_height": kh, "kernel_width": kw,
            "subsampling_height": stride[0], "subsampling_width": stride[1],
            "dilation_height": dil[0], "dilation_width": dil[1],
            "group_input_channels": group_in, "group_output_channels": out_c // m.groups,
            "groups": m.groups, "adjustment_height": 0, "adjustment_width": 0,
            "input1_id": xin, "filter_id": f, "bias_id": bias, "output_id": y, "flags": 0,
        }, p.range)

    def _emit_fc(self, p: _Pending, out: _Q, shape: List[int]) -> None:
        (x,) = p.inputs
        weights = self._weights(p.module, x)
        xin = self.b.get(x.key, NCHW)
        f, bias = self._filter_and_bias(weights[0], 0, weights)  # [out, in]
        y = self._define(out, shape, NCHW)
        self.b.node("XNNFullyConnected", {"input1_id": xin, "filter_id": f, "bias_id": bias,
                                          "output_id": y, "flags": 0}, p.range)

    def _emit_add(self, p: _Pending, out: _Q, shape: List[int]) -> None:
        a, c = p.inputs
        both_nhwc = len(shape) == 4 and NHWC in (self.b.layout(a.key), self.b.layout(c.key)) and \
            all(len(self.b.shape(v.key)) == 4 for v in (a, c))
        layout = NHWC if both_nhwc else NCHW
        ia, ic = self.b.get(a.key, layout), self.b.get(c.key, layout)
        y = self._define(out, shape, layout)
        self.b.node("XNNAdd", {"input1_id": ia, "input2_id": ic, "output_id": y, "flags": 0}, p.range)

    def _emit_clamp(self, p: _Pending, out: _Q, shape: List[int]) -> None:
        (x,) = p.inputs
        layout = self.b.layout(x.key)
        xin = self.b.get(x.key, layout)
        y = self._define(out, shape, layout)
        self.b.node("XNNClamp", {"input_id": xin, "output_id": y, "flags": 0}, p.range)

    def _same_quant(self, p: _Pending, x: _Q, out: _Q) -> None:
        # Max pooling and reshapes move int8 bytes: in and out share qparams.
        if (x.scale, x.zero_point) != (out.scale, out.zero_point):
            raise LoweringError(f"{p.node.name}: input quantized ({x.scale}, {x.zero_point}), "
                                f"output ({out.scale}, {out.zero_point})")

    def _emit_max_pool(self, p: _Pending, out: _Q, shape: List[int]) -> None:
        m = p.module
        (x,) = p.inputs
        self._same_quant(p, x, out)
        if m.ceil_mode or m.return_indices:
            raise LoweringError(f"{p.node.name}: ceil mode or indices")
        kernel = xl._pair(m.kernel_size)
        stride = xl._pair(m.stride) if m.stride else kernel
        pad, dil = xl._pair(m.padding), xl._pair(m.dilation)
        xin = self.b.get(x.key, NHWC)
        y = self._define(out, shape, NHWC)
        self.b.node("XNNMaxPooling2d", {
            "padding_top": pad[0], "padding_right": pad[1], "padding_bottom": pad[0],
            "padding_left": pad[1], "pooling_height": kernel[0], "pooling_width": kernel[1],
            "stride_height": stride[0], "stride_width": stride[1],
            "dilation_height": dil[0], "dilation_width": dil[1],
            "input_id": xin, "output_id": y, "flags": xl.FLAG_KEEP_DIMS})

    def _emit_reshape(self, p: _Pending, out: _Q, shape: List[int]) -> None:
        (x,) = p.inputs
        self._same_quant(p, x, out)
        xin = self.b.get(x.key, NCHW)
        y = self._define(out, shape, NCHW)
        self.b.node("XNNStaticReshape", {"num_dims": len(shape), "new_shape": list(shape),
                                         "input_id": xin, "output_id": y, "flags": 0})


def output_quantization(ref: torch.fx.GraphModule) -> Tuple[float, int]:
    """(scale, zero point) of the quantize feeding the model's final dequantize."""
    out = next(n for n in ref.graph.nodes if n.op == "output")
    dq = out.args[0]
    q = dq.args[0]
    return float(xl.lower._attr(ref, q.args[1].target)), int(xl.lower._attr(ref, q.args[2].target))


def _single_delegate_program(builder: xl.GraphBuilder, example: torch.Tensor,
                             out_shape: Sequence[int]) -> ProgramBuilder:
    """A program whose method is one DelegateCall: input -> delegate -> output."""
    pb = ProgramBuilder()
    m = pb.method("forward")
    x = m.input(m.tensor("float32", list(example.shape)))
    y = m.tensor("float32", list(out_shape))
    d = m.delegate(xl.BACKEND_ID, builder.g.payload(named_data=pb.named_data))
    m.delegate_call(d, [x, y])
    m.output(y)
    return pb


def export_int8(ref: torch.fx.GraphModule, example: torch.Tensor
                ) -> Tuple[ProgramBuilder, Dict[str, int]]:
    """(program, node counts) of the reference-quantized model ``ref``."""
    low = Int8Lowering(ref, example)
    builder = low.build()
    out_node = next(n for n in ref.graph.nodes if n.op == "output").args[0]
    return _single_delegate_program(builder, example, low.shapes[out_node]), low.node_counts


# ---------------------------------------------------------------------------
# Dynamic quantization (qdint8 activations, qcint8 weights)

def quantize_weight_per_channel(w: torch.Tensor) -> Tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 per output channel: (int8 [out, in], float32 scales [out])."""
    w = w.detach().numpy().astype(np.float32)
    scales = (np.abs(w).max(axis=1) / np.float32(127)).astype(np.float32)
    scales = np.maximum(scales, np.float32(2 ** -20))
    q = np.clip(np.rint(w / scales[:, None]), -127, 127).astype(np.int8)
    return q, scales


def qd8_row_params(rows: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """XNNPACK's per-row asymmetric int8 parameters, in float32:
    (multiplier m = 1/scale, zero point) per row."""
    f = np.float32
    lo = np.minimum(rows.min(axis=1), f(0)).astype(f)
    hi = np.maximum(rows.max(axis=1), f(0)).astype(f)
    m = np.where(lo == hi, f(1), f(255) / (hi - lo)).astype(f)
    zp_a = (f(-128) - lo * m).astype(f)
    zp_b = (f(127) - hi * m).astype(f)
    pick_a = ((f(-128) + lo * m) + (f(127) + hi * m)) > 0
    zp = np.clip(np.where(pick_a, zp_a, zp_b), f(-128), f(127))
    return m, np.rint(zp).astype(np.int32)


def qd8_linear_reference(x: np.ndarray, qw: np.ndarray, w_scale: np.ndarray, bias: np.ndarray,
                         lo: float = -INF, hi: float = INF) -> np.ndarray:
    """One dynamically quantized fully connected layer, as XNNPACK computes it:
    rows quantized with their own (scale, zero point), int32 sums, then
    (acc * input scale) * filter scale + bias, clamped."""
    f = np.float32
    rows = x.reshape(-1, x.shape[-1]).astype(f)
    m, zp = qd8_row_params(rows)
    q = np.clip(np.rint(rows * m[:, None]) + zp[:, None], -128, 127).astype(np.int64)
    acc = (q - zp[:, None]) @ qw.astype(np.int64).T
    row_scale = (f(1) / m).astype(f)
    out = (acc.astype(f) * row_scale[:, None]).astype(f) * w_scale[None, :]
    out = (out.astype(f) + bias.astype(f)[None, :]).astype(f)
    out = np.clip(out, f(lo), f(hi))
    return out.reshape(x.shape[:-1] + (qw.shape[0],))


def mlp_layers(model: torch.nn.Module) -> List[Tuple[torch.nn.Linear, bool]]:
    """(Linear, followed by ReLU) pairs of an nn.Sequential of Linear/ReLU."""
    layers: List[Tuple[torch.nn.Linear, bool]] = []
    for mod in model:
        if isinstance(mod, torch.nn.Linear):
            layers.append((mod, False))
        elif isinstance(mod, torch.nn.ReLU) and layers and not layers[-1][1]:
            layers[-1] = (layers[-1][0], True)
        else:
            raise LoweringError(f"{type(mod).__name__} in a dynamically quantized MLP")
    return layers


def export_qd8_mlp(model: torch.nn.Sequential, example: torch.Tensor
                   ) -> Tuple[ProgramBuilder, np.ndarray, Dict[str, int]]:
    """(program, numpy reference output, node counts) of a Linear/ReLU stack
    with per-row dynamically quantized activations."""
    b = xl.GraphBuilder()
    shape = list(example.shape)
    b.input("x", shape, 0)
    layers = mlp_layers(model)
    key, ref = "x", example.detach().numpy().astype(np.float32)
    for i, (lin, relu) in enumerate(layers):
        qw, scales = quantize_weight_per_channel(lin.weight)
        bias = (lin.bias.detach().numpy() if lin.bias is not None
                else np.zeros(lin.out_features)).astype(np.float32)
        out_shape = shape[:-1] + [lin.out_features]
        q_key, y_key = f"q{i}", ("y" if i == len(layers) - 1 else f"h{i}")
        if y_key == "y":
            b.declare_output(y_key, 1)
        xin = b.get(key, NCHW)
        xq = b.define(q_key, shape, NCHW, dtype="qdint8",
                      quant={"PerTokenDynamicQuant": {"num_nonbatch_dims": 1}})
        b.node("XNNConvert", {"input_id": xin, "output_id": xq, "flags": 0})
        f = b.per_channel_constant(qw, "qcint8", scales, 0)
        bid = b.constant(bias)
        y = b.define(y_key, out_shape, NCHW)
        b.node("XNNFullyConnected", {"input1_id": xq, "filter_id": f, "bias_id": bid,
                                     "output_id": y, "flags": 0}, (0.0, INF) if relu else None)
        ref = qd8_linear_reference(ref, qw, scales, bias, 0.0 if relu else -INF)
        key, shape = y_key, out_shape
    counts = b.finish()
    return _single_delegate_program(b, example, shape), ref, counts
