#!/usr/bin/env python3
"""Writes Trident's test fixtures: small .pte programs built with pte_writer.

Usage::

    python3 tools/pte/make_fixtures.py [OUTDIR] [--demo DEMO_DIR]

OUTDIR (default: build/fixtures under the repo root) receives the fixtures
and ``index.json``, which lists for every file its method signatures and the
cases to run, in the GOLDENS.json form of the corpus: tensors as
``{"dtype","shape","values"}``, scalars as ``{"type":"Int"|"Double"|"Bool",
"value":v}``. ``--demo DIR`` also writes the demo page's samples and
``DIR/index.json`` (``[{"name","file","description","example"}]``).

Output bytes are identical on every run (no timestamps, fixed-seed weights).
Expected values are computed here in plain Python with float32 rounding.
See tests/fixtures/README.md for what each fixture is for.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import struct
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

sys.dont_write_bytecode = True  # keep tools/pte free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pte_writer import ProgramBuilder, float32  # noqa: E402
from xnn_writer import INVALID_ID, XnnGraph  # noqa: E402

REPO_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


# ---------------------------------------------------------------------------
# Value helpers (GOLDENS form)

def tensor(dtype: str, shape: Sequence[int], values: Sequence[Any]) -> Dict[str, Any]:
    if dtype in ("float32", "float16"):
        values = [float32(v) for v in values]
    elif dtype == "float64":
        values = [float(v) for v in values]
    elif dtype == "bool":
        values = [bool(v) for v in values]
    else:
        values = [int(v) for v in values]
    return {"dtype": dtype, "shape": list(shape), "values": list(values)}


def scalar(kind: str, value: Any) -> Dict[str, Any]:
    return {"type": kind, "value": value}


def f32_list(values: Sequence[float]) -> List[float]:
    return [float32(v) for v in values]


class Rng:
    """xorshift32: fixed sequence independent of Python's random module."""

    def __init__(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFF or 1

    def next_u32(self) -> int:
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def uniform(self, lo: float, hi: float) -> float:
        """float32 in [lo, hi) on a 1/1024 grid."""
        return float32(lo + (hi - lo) * (self.next_u32() % 1024) / 1024.0)


# ---------------------------------------------------------------------------
# Fixture programs. Each returns (builder, serialize options, index entry).

Fixture = Tuple[ProgramBuilder, Dict[str, Any], Dict[str, Any]]


def build_add(shape: Tuple[int, ...] = (2, 2)) -> Fixture:
    dims = list(shape)
    pb = ProgramBuilder()
    m = pb.method("forward")
    a = m.input(m.tensor("float32", dims))
    b = m.input(m.tensor("float32", dims))
    out = m.tensor("float32", dims)
    m.kernel("aten::add.out", [a, b, m.int(1)], out)  # self, other, alpha | out | ret
    m.output(out)

    def case(av: List[float], bv: List[float]) -> Dict[str, Any]:
        av, bv = f32_list(av), f32_list(bv)
        return {"inputs": [tensor("float32", dims, av), tensor("float32", dims, bv)],
                "outputs": [tensor("float32", dims, [x + y for x, y in zip(av, bv)])]}

    spelled = ",".join(str(d) for d in dims)
    entry = {
        "description": f"forward(a: f32[{spelled}], b: f32[{spelled}]) = aten::add.out(a, b, alpha=1). "
                       "No constants, so no extended header (like current exports).",
        "method": "forward",
        "cases": [case([1, 2, 3, 4], [10, 20, 30, 40]),
                  case([0.5, -1.25, 3.0, 0.1], [0.25, 2.5, -3.0, 0.2])],
        "tolerance": "exact",
    }
    return pb, {}, entry


def build_add_vec4() -> Fixture:
    """One op on two [4] tensors: what `npm run bench` times to measure the cost of a run."""
    return build_add((4,))


def _affine_program() -> ProgramBuilder:
    pb = ProgramBuilder()
    m = pb.method("forward")
    w = m.constant("float32", [3], [3, 3, 3])
    bias = m.constant("float32", [3], [2, 2, 2])
    x = m.input(m.tensor("float32", [3]))
    t = m.tensor("float32", [3])
    m.kernel("aten::mul.out", [x, w], t)
    y = m.tensor("float32", [3])
    m.kernel("aten::add.out", [t, bias, m.int(1)], y)
    m.output(y)
    return pb


def _affine_entry(form: str) -> Dict[str, Any]:
    def case(xv: List[float]) -> Dict[str, Any]:
        xv = f32_list(xv)
        return {"inputs": [tensor("float32", [3], xv)],
                "outputs": [tensor("float32", [3], [float32(float32(3 * x) + 2) for x in xv])]}

    return {
        "description": "forward(x: f32[3]) = x*W + b with constants W=[3,3,3], b=[2,2,2] "
                       "(aten::mul.out then aten::add.out): y = 3x + 2. " + form,
        "method": "forward",
        "cases": [case([1, 2, 3]), case([-1, 0.5, 10])],
        "tolerance": "exact",
    }


def build_affine() -> Fixture:
    return _affine_program(), {}, _affine_entry(
        "Constants in the constant segment, 32-byte eh00 header (current form).")


def build_affine_eh24() -> Fixture:
    return _affine_program(), {"header": "eh24"}, _affine_entry(
        "Constants in the constant segment, older 24-byte eh00 header (no segment_data_size).")


def build_affine_inline() -> Fixture:
    return _affine_program(), {"header": "none", "constants": "inline"}, _affine_entry(
        "No extended header; constants in the deprecated inline Program.constant_buffer.")


def build_scalars() -> Fixture:
    pb = ProgramBuilder()
    m = pb.method("forward")
    i = m.input(m.int(0))
    d = m.input(m.double(0.0))
    flag = m.input(m.bool(False))
    five = m.int(5)
    t = m.int(0)
    u = m.int(0)
    half = m.double(0.5)
    r = m.double(0.0)
    s = m.double(0.0)
    m.prim("executorch_prim::add.Scalar", [i, five], t)   # t = i + 5
    m.prim("executorch_prim::mul.Scalar", [t, i], u)      # u = t * i
    m.prim("executorch_prim::mul.Scalar", [d, half], r)   # r = d * 0.5
    m.prim("executorch_prim::add.Scalar", [r, d], s)      # s = r + d
    m.output(u)
    m.output(s)
    m.output(flag)

    def case(iv: int, dv: float, fv: bool) -> Dict[str, Any]:
        uv = (iv + 5) * iv
        sv = dv * 0.5 + dv
        return {"inputs": [scalar("Int", iv), scalar("Double", dv), scalar("Bool", fv)],
                "outputs": [scalar("Int", uv), scalar("Double", sv), scalar("Bool", fv)]}

    entry = {
        "description": "forward(i: Int, d: Double, flag: Bool) -> (Int (i+5)*i, Double d*0.5+d, "
                       "Bool flag) with executorch_prim::add.Scalar / mul.Scalar (args [a, b, out]); "
                       "no tensors, so no memory plan (non_const_buffer_sizes [0]). The Bool output "
                       "is the input value itself.",
        "method": "forward",
        "cases": [case(3, 2.5, True), case(-4, -1.0, False)],
        "tolerance": "exact",
    }
    return pb, {}, entry


def build_multi_method() -> Fixture:
    pb = ProgramBuilder()
    fwd = pb.method("forward")
    one = fwd.constant("float32", [2], [1, 1])
    x = fwd.input(fwd.tensor("float32", [2]))
    y = fwd.tensor("float32", [2])
    fwd.kernel("aten::add.out", [x, one, fwd.int(1)], y)
    fwd.output(y)

    dbl = pb.method("double")
    x2 = dbl.input(dbl.tensor("float32", [2]))
    y2 = dbl.tensor("float32", [2])
    dbl.kernel("aten::add.out", [x2, x2, dbl.int(1)], y2)
    dbl.output(y2)

    ans = pb.method("get_answer")
    ans.output(ans.int(42))

    gt = pb.method("get_tensor")
    gt.output(gt.constant("int64", [3], [1, 2, 3]))

    xv = f32_list([1.5, -2.0])
    entry = {
        "description": "Four methods: forward(x: f32[2]) = x + 1 (constant), double(x: f32[2]) = "
                       "x + x, and two constant methods with no instructions: get_answer() -> Int "
                       "42 and get_tensor() -> int64[3] [1,2,3] from the constant segment.",
        "cases": [
            {"method": "forward", "inputs": [tensor("float32", [2], xv)],
             "outputs": [tensor("float32", [2], [v + 1 for v in xv])]},
            {"method": "double", "inputs": [tensor("float32", [2], xv)],
             "outputs": [tensor("float32", [2], [v + v for v in xv])]},
            {"method": "get_answer", "inputs": [], "outputs": [scalar("Int", 42)]},
            {"method": "get_tensor", "inputs": [], "outputs": [tensor("int64", [3], [1, 2, 3])]},
        ],
        "tolerance": "exact",
    }
    return pb, {}, entry


def build_dynamic() -> Fixture:
    pb = ProgramBuilder()
    m = pb.method("forward")
    two = m.constant("float32", [1], [2])
    x = m.input(m.tensor("float32", [8], dynamism="DYNAMIC_BOUND"))
    y = m.tensor("float32", [8], dynamism="DYNAMIC_BOUND")
    m.kernel("aten::mul.out", [x, two], y)
    m.output(y)

    def case(n: int) -> Dict[str, Any]:
        xv = f32_list([k + 0.5 for k in range(n)])
        return {"inputs": [tensor("float32", [n], xv)],
                "outputs": [tensor("float32", [n], [2 * v for v in xv])]}

    bad = case(9)
    entry = {
        "description": "forward(x: f32[<=8] DYNAMIC_BOUND) = x * 2 (aten::mul.out by a f32[1] "
                       "constant, broadcast); the output is DYNAMIC_BOUND [8] too. n = 1, 4, 8 run; "
                       "n = 9 exceeds the bound and must be rejected.",
        "method": "forward",
        "cases": [case(1), case(4), case(8),
                  {"inputs": bad["inputs"], "expect_error": "input 0 has 9 elements, over its bound of 8"}],
        "tolerance": "exact",
    }
    return pb, {}, entry


def build_int_types() -> Fixture:
    pb = ProgramBuilder()
    m = pb.method("forward")
    a = m.input(m.tensor("int32", [4]))
    b = m.input(m.tensor("int32", [4]))
    c = m.input(m.tensor("int64", [4]))
    d = m.input(m.tensor("int64", [4]))
    s32 = m.tensor("int32", [4])
    m.kernel("aten::add.out", [a, b, m.int(1)], s32)
    s64 = m.tensor("int64", [4])
    m.kernel("aten::add.out", [c, d, m.int(1)], s64)
    eq = m.tensor("bool", [4])
    m.kernel("aten::eq.Scalar_out", [s64, m.int(5)], eq)
    m.output(s32)
    m.output(s64)
    m.output(eq)

    av, bv = [1, -2, 2147483000, 0], [2, 3, 600, -7]
    cv, dv = [1, 2, 4, 10000000000], [4, 3, 2, -1]
    s64v = [x + y for x, y in zip(cv, dv)]
    entry = {
        "description": "forward(a, b: int32[4], c, d: int64[4]) -> (a+b int32, c+d int64, "
                       "(c+d) == 5 bool) with aten::add.out and aten::eq.Scalar_out.",
        "method": "forward",
        "cases": [{
            "inputs": [tensor("int32", [4], av), tensor("int32", [4], bv),
                       tensor("int64", [4], cv), tensor("int64", [4], dv)],
            "outputs": [tensor("int32", [4], [x + y for x, y in zip(av, bv)]),
                        tensor("int64", [4], s64v),
                        tensor("bool", [4], [v == 5 for v in s64v])],
        }],
        "tolerance": "exact",
    }
    return pb, {}, entry


def build_identity() -> Fixture:
    pb = ProgramBuilder()
    m = pb.method("forward")
    x = m.input(m.tensor("float32", [3]))
    m.output(x)
    v = f32_list([1, -2.5, 3])
    entry = {
        "description": "forward(x: f32[3]) = x with zero instructions: the output value is the "
                       "input value.",
        "method": "forward",
        "cases": [{"inputs": [tensor("float32", [3], v)], "outputs": [tensor("float32", [3], v)]}],
        "tolerance": "exact",
    }
    return pb, {}, entry


def build_jump() -> Fixture:
    pb = ProgramBuilder()
    m = pb.method("forward")
    a = m.input(m.tensor("float32", [3]))
    b = m.input(m.tensor("float32", [3]))
    flag = m.input(m.bool(False))
    never = m.bool(False)            # constant false: an unconditional jump
    alpha = m.int(1)
    tmp = m.tensor("float32", [3])
    out = m.tensor("float32", [3])
    j0 = m.jump_false(flag)                              # 0: if !flag goto else
    m.kernel("aten::add.out", [a, b, alpha], tmp)        # 1: tmp = a + b
    j2 = m.jump_false(never)                             # 2: goto join
    m.set_jump(j0, m.next_instruction)
    m.kernel("aten::mul.out", [a, b], tmp)               # 3: tmp = a * b
    m.set_jump(j2, m.next_instruction)
    m.move(tmp, out)                                     # 4: out = tmp (MoveCall)
    m.output(out)

    av, bv = f32_list([1, 2, 3]), f32_list([4, 5, 6.5])
    entry = {
        "description": "forward(a: f32[3], b: f32[3], flag: Bool) = a + b if flag else a * b, as "
                       "ExecuTorch instructions: 0 JumpFalseCall(flag -> 3), 1 add.out -> tmp, "
                       "2 JumpFalseCall(constant false -> 4), 3 mul.out -> tmp, 4 MoveCall(tmp -> "
                       "out). With jumps in the method, the planner gives every tensor its own "
                       "memory.",
        "method": "forward",
        "cases": [
            {"inputs": [tensor("float32", [3], av), tensor("float32", [3], bv), scalar("Bool", True)],
             "outputs": [tensor("float32", [3], [x + y for x, y in zip(av, bv)])]},
            {"inputs": [tensor("float32", [3], av), tensor("float32", [3], bv), scalar("Bool", False)],
             "outputs": [tensor("float32", [3], [float32(x * y) for x, y in zip(av, bv)])]},
        ],
        "tolerance": "exact",
    }
    return pb, {}, entry


MLP_IN, MLP_HIDDEN, MLP_OUT = 4, 8, 3


def _mlp_weights() -> Dict[str, List[float]]:
    rng = Rng(20240607)
    return {
        "w1": [rng.uniform(-1, 1) for _ in range(MLP_HIDDEN * MLP_IN)],
        "b1": [rng.uniform(-0.5, 0.5) for _ in range(MLP_HIDDEN)],
        "w2": [rng.uniform(-1, 1) for _ in range(MLP_OUT * MLP_HIDDEN)],
        "b2": [rng.uniform(-0.5, 0.5) for _ in range(MLP_OUT)],
    }


def _mlp_reference(w: Dict[str, List[float]], x: List[float]) -> List[float]:
    h = []
    for j in range(MLP_HIDDEN):
        acc = w["b1"][j] + sum(x[k] * w["w1"][j * MLP_IN + k] for k in range(MLP_IN))
        h.append(float32(math.tanh(float32(acc))))
    y = []
    for j in range(MLP_OUT):
        acc = w["b2"][j] + sum(h[k] * w["w2"][j * MLP_HIDDEN + k] for k in range(MLP_HIDDEN))
        y.append(float32(acc))
    return y


def build_mlp() -> Fixture:
    w = _mlp_weights()
    pb = ProgramBuilder()
    m = pb.method("forward")
    # Parameters first, then the user input, as ExecuTorch lists placeholders.
    w1 = m.constant("float32", [MLP_HIDDEN, MLP_IN], w["w1"])
    b1 = m.constant("float32", [MLP_HIDDEN], w["b1"])
    w2 = m.constant("float32", [MLP_OUT, MLP_HIDDEN], w["w2"])
    b2 = m.constant("float32", [MLP_OUT], w["b2"])
    x = m.input(m.tensor("float32", [1, MLP_IN]))
    xv = m.tensor("float32", [1, MLP_IN])
    m.kernel("aten::view_copy.out", [x, m.int_list([1, MLP_IN])], xv)
    w1t = m.tensor("float32", [MLP_IN, MLP_HIDDEN])
    m.kernel("aten::permute_copy.out", [w1, m.int_list([1, 0])], w1t)
    h = m.tensor("float32", [1, MLP_HIDDEN])
    m.kernel("aten::addmm.out", [b1, xv, w1t, m.int(1), m.int(1)], h)  # self, mat1, mat2, beta, alpha
    a = m.tensor("float32", [1, MLP_HIDDEN])
    m.kernel("aten::tanh.out", [h], a)
    w2t = m.tensor("float32", [MLP_HIDDEN, MLP_OUT])
    m.kernel("aten::permute_copy.out", [w2, m.int_list([1, 0])], w2t)
    y = m.tensor("float32", [1, MLP_OUT])
    m.kernel("aten::addmm.out", [b2, a, w2t, m.int(1), m.int(1)], y)
    m.output(y)

    def case(xs: List[float]) -> Dict[str, Any]:
        xs = f32_list(xs)
        return {"inputs": [tensor("float32", [1, MLP_IN], xs)],
                "outputs": [tensor("float32", [1, MLP_OUT], _mlp_reference(w, xs))]}

    entry = {
        "description": "A 4-8-3 MLP like a real export: view_copy -> permute_copy(W1) -> addmm "
                       "-> tanh -> permute_copy(W2) -> addmm; f32[1,4] -> f32[1,3], weights from "
                       "a fixed-seed generator in the constant segment.",
        "method": "forward",
        "cases": [case([0.5, -1.0, 2.0, 0.25]), case([1, 2, 3, 4]), case([0, 0, 0, 0])],
        "tolerance": {"rtol": 1e-5, "atol": 1e-6},
    }
    return pb, {}, entry


# A small conv net delegated to XnnpackBackend, as ExecuTorch's partitioner
# lays one out: NCHW input transposed to NHWC, 3x3 convolution (OHWI filter,
# padding 1) with a fused ReLU, global average pooling, back to NCHW,
# flattened, fully connected.
XC_IN, XC_MID, XC_OUT, XC_HW = 2, 3, 2, 4


def _xnn_conv_weights() -> Dict[str, List[float]]:
    rng = Rng(0x5EED)
    return {"conv": [rng.uniform(-0.5, 0.5) for _ in range(XC_MID * 9 * XC_IN)],  # OHWI
            "conv_bias": [rng.uniform(-0.1, 0.1) for _ in range(XC_MID)],
            "fc": [rng.uniform(-1, 1) for _ in range(XC_OUT * XC_MID)],
            "fc_bias": [rng.uniform(-0.1, 0.1) for _ in range(XC_OUT)]}


def _taps_3x3(y: int, x: int, h: int, w: int) -> List[Tuple[int, int, int, int]]:
    """(ky, kx, iy, ix) of a 3x3 window at output (y, x), padding 1, stride 1,
    for the taps inside an h x w image (the others add zero)."""
    return [(ky, kx, y + ky - 1, x + kx - 1) for ky in range(3) for kx in range(3)
            if 0 <= y + ky - 1 < h and 0 <= x + kx - 1 < w]


def _xnn_conv_reference(w: Dict[str, List[float]], x: List[float]) -> List[float]:
    """NCHW input -> outputs, float32 at every rounding the runtime does."""
    hw = XC_HW
    pooled = []
    for o in range(XC_MID):
        total = 0.0
        for y in range(hw):
            for xx in range(hw):
                acc = w["conv_bias"][o]
                for ky, kx, iy, ix in _taps_3x3(y, xx, hw, hw):
                    for c in range(XC_IN):
                        v = x[(c * hw + iy) * hw + ix]
                        acc = float32(acc + float32(v * w["conv"][((o * 3 + ky) * 3 + kx) * XC_IN + c]))
                total = float32(total + max(acc, 0.0))
        pooled.append(float32(total * float32(1.0 / (hw * hw))))
    out = []
    for j in range(XC_OUT):
        acc = w["fc_bias"][j]
        for c in range(XC_MID):
            acc = float32(acc + float32(pooled[c] * w["fc"][j * XC_MID + c]))
        out.append(acc)
    return out


def build_xnnpack_conv() -> Fixture:
    w = _xnn_conv_weights()
    pb = ProgramBuilder()
    m = pb.method("forward")
    hw = XC_HW
    g = XnnGraph()
    packed = lambda vals: struct.pack(f"<{len(vals)}f", *vals)  # noqa: E731
    x = g.value("fp32", [1, XC_IN, hw, hw], external_input=0)
    x_nhwc = g.value("fp32", [1, hw, hw, XC_IN])
    g.node("XNNStaticTranspose", {"num_dims": 4, "perm": [0, 2, 3, 1], "input_id": x, "output_id": x_nhwc})
    filt = g.value("fp32", [XC_MID, 3, 3, XC_IN], constant=packed(w["conv"]))
    conv = g.value("fp32", [1, hw, hw, XC_MID])
    bias = g.value("fp32", [XC_MID], constant=packed(w["conv_bias"]))
    g.node("XNNConv2d", {"padding_top": 1, "padding_right": 1, "padding_bottom": 1, "padding_left": 1,
                         "kernel_height": 3, "kernel_width": 3, "subsampling_height": 1,
                         "subsampling_width": 1, "dilation_height": 1, "dilation_width": 1,
                         "group_input_channels": XC_IN, "group_output_channels": XC_MID, "groups": 1,
                         "input1_id": x_nhwc, "filter_id": filt, "bias_id": bias, "output_id": conv},
           output_min_max=(0.0, float("inf")))
    pooled = g.value("fp32", [1, 1, 1, XC_MID])
    g.node("XNNGlobalAvgPooling2d", {"input_id": conv, "output_id": pooled, "flags": 0x40})
    pooled_nchw = g.value("fp32", [1, XC_MID, 1, 1])
    g.node("XNNStaticTranspose", {"num_dims": 4, "perm": [0, 3, 1, 2], "input_id": pooled,
                                  "output_id": pooled_nchw})
    flat = g.value("fp32", [1, XC_MID])
    g.node("XNNStaticReshape", {"num_dims": 2, "new_shape": [1, 0], "input_id": pooled_nchw, "output_id": flat})
    fc = g.value("fp32", [XC_OUT, XC_MID], constant=packed(w["fc"]))
    fc_bias = g.value("fp32", [XC_OUT], constant=packed(w["fc_bias"]))
    y = g.value("fp32", [1, XC_OUT], external_output=1)
    g.node("XNNFullyConnected", {"input1_id": flat, "filter_id": fc, "bias_id": fc_bias, "output_id": y})
    blob = g.payload(named_data=pb.named_data)
    xin = m.input(m.tensor("float32", [1, XC_IN, hw, hw]))
    out = m.tensor("float32", [1, XC_OUT])
    m.delegate_call(m.delegate("XnnpackBackend", blob), [xin, out])
    m.output(out)

    def case(xs: List[float]) -> Dict[str, Any]:
        xs = f32_list(xs)
        return {"inputs": [tensor("float32", [1, XC_IN, hw, hw], xs)],
                "outputs": [tensor("float32", [1, XC_OUT], _xnn_conv_reference(w, xs))]}

    rng = Rng(77)
    entry = {
        "description": "One DelegateCall to XnnpackBackend: transpose to NHWC, conv 3x3 (2 -> 3 "
                       "channels, padding 1, fused ReLU), global average pool, transpose back, "
                       "reshape, fully connected 3 -> 2; weights in the program's named data. "
                       "f32[1,2,4,4] -> f32[1,2].",
        "method": "forward",
        "cases": [case([rng.uniform(-1, 1) for _ in range(XC_IN * hw * hw)]),
                  case([float(i % 5) for i in range(XC_IN * hw * hw)])],
        "tolerance": {"rtol": 1e-5, "atol": 1e-6},
    }
    return pb, {}, entry


BIG_H, BIG_W, BIG_STRIDE = 1088, 2048, 1024


def build_big_scratch() -> Fixture:
    """A 1x1 float16 conv over an image whose float32 copy is larger than 8 MiB."""
    pb = ProgramBuilder()
    m = pb.method("forward")
    x = m.input(m.tensor("float16", [1, 1, 1, 1]))
    big = m.tensor("float16", [1, 1, BIG_H, BIG_W])
    m.kernel("aten::expand_copy.out", [x, m.int_list([1, 1, BIG_H, BIG_W]), m.bool(False)], big)
    w = m.constant("float16", [1, 1, 1, 1], [2.0])
    grid = [(BIG_H - 1) // BIG_STRIDE + 1, (BIG_W - 1) // BIG_STRIDE + 1]
    out = m.tensor("float16", [1, 1] + grid)
    m.kernel("aten::convolution.out",
             [big, w, m.null(), m.int_list([BIG_STRIDE, BIG_STRIDE]), m.int_list([0, 0]),
              m.int_list([1, 1]), m.bool(False), m.int_list([0, 0]), m.int(1)], out)
    m.output(out)

    def case(v: float) -> Dict[str, Any]:
        return {"inputs": [tensor("float16", [1, 1, 1, 1], [v])],
                "outputs": [tensor("float16", [1, 1] + grid, [2 * v] * (grid[0] * grid[1]))]}

    entry = {
        "description": f"forward(x: f16[1,1,1,1]) = conv 1x1 (weight 2, stride {BIG_STRIDE}) of x "
                       f"expanded to f16[1,1,{BIG_H},{BIG_W}]. The portable convolution converts "
                       "its input to float32 in scratch memory: 8.9 MB, more than the fixed 8 MiB "
                       "arena before scratch was sized per instruction at load.",
        "method": "forward",
        "cases": [case(1.5), case(-0.25)],
        "tolerance": "exact",
    }
    return pb, {}, entry


# A depthwise conv -> batch norm -> hardtanh chain (MobileNetV2's), which the
# runtime fuses at load, with the memory plan fixed by hand: in "forward" the
# chain's last out is its input exactly (the kernel runs in place, saving
# each input row before writing over it); in "shifted" it starts 16 values
# into the input (the kernel convolves into the conv's out and copies).
DW_C, DW_H, DW_W = 4, 5, 6
DW_LO, DW_HI = -0.5, 2.0


def _dw_weights() -> Dict[str, List[float]]:
    rng = Rng(20261125)
    u = lambda n, lo, hi: f32_list([rng.uniform(lo, hi) for _ in range(n)])  # noqa: E731
    return {"w": u(DW_C * 9, -0.6, 0.6), "b": u(DW_C, -0.2, 0.2), "gamma": u(DW_C, 0.5, 1.5),
            "beta": u(DW_C, -0.3, 0.3), "mean": u(DW_C, -0.2, 0.2), "var": u(DW_C, 0.5, 2.0)}


def _dw_reference(w: Dict[str, List[float]], x: List[float], eps: float) -> List[float]:
    out = []
    for c in range(DW_C):
        scale = w["gamma"][c] / math.sqrt(w["var"][c] + eps)
        for i in range(DW_H):
            for j in range(DW_W):
                acc = w["b"][c]
                for ki, kj, y, z in _taps_3x3(i, j, DW_H, DW_W):
                    acc += w["w"][c * 9 + ki * 3 + kj] * 2 * x[(c * DW_H + y) * DW_W + z]
                v = (acc - w["mean"][c]) * scale + w["beta"][c]
                out.append(float32(min(max(v, DW_LO), DW_HI)))
    return out


def build_depthwise_in_place() -> Fixture:
    w = _dw_weights()
    eps = 1e-5
    pb = ProgramBuilder()
    shape = [1, DW_C, DW_H, DW_W]
    nbytes = DW_C * DW_H * DW_W * 4
    for name, last_at in (("forward", 1024), ("shifted", 1024 + 64)):
        m = pb.method(name)
        wt = m.constant("float32", [DW_C, 1, 3, 3], w["w"])
        bias = m.constant("float32", [DW_C], w["b"])
        params = [m.constant("float32", [DW_C], w[k]) for k in ("gamma", "beta", "mean", "var")]
        x = m.input(m.tensor("float32", shape, allocation=(1, 0)))
        a = m.tensor("float32", shape, allocation=(1, 1024))
        m.kernel("aten::add.out", [x, x, m.int(1)], a)
        conv = m.tensor("float32", shape, allocation=(1, 2048))
        m.kernel("aten::convolution.out",
                 [a, wt, bias, m.int_list([1, 1]), m.int_list([1, 1]), m.int_list([1, 1]),
                  m.bool(False), m.int_list([0, 0]), m.int(DW_C)], conv)
        bn = m.tensor("float32", shape, allocation=(1, 3072))
        stats = [m.tensor("float32", [0], allocation=(1, 4096 + 64 * k)) for k in range(2)]
        m.kernel("aten::_native_batch_norm_legit_no_training.out",
                 [conv] + params + [m.double(0.1), m.double(eps)], [bn] + stats)
        out = m.tensor("float32", shape, allocation=(1, last_at))
        m.kernel("aten::hardtanh.out", [bn, m.double(DW_LO), m.double(DW_HI)], out)
        m.output(out)
    assert 1024 + 64 + nbytes <= 2048

    def case(method: str, seed: int) -> Dict[str, Any]:
        rng = Rng(seed)
        xs = f32_list([rng.uniform(-1.0, 1.0) for _ in range(DW_C * DW_H * DW_W)])
        return {"method": method, "inputs": [tensor("float32", shape, xs)],
                "outputs": [tensor("float32", shape, _dw_reference(w, xs, eps))]}

    entry = {
        "description": "forward(x: f32[1,4,5,6]) = hardtanh(batch_norm(depthwise conv 3x3 (x + x))), "
                       "fused at load into one convolution. The plan puts the chain's last out "
                       "exactly over its input in 'forward' (the kernel runs in place) and 16 "
                       "values past it in 'shifted' (through the conv's own out and a copy).",
        "method": "forward",
        "cases": [case("forward", 1), case("forward", 2), case("shifted", 1)],
        "tolerance": {"rtol": 1e-5, "atol": 1e-6},
    }
    return pb, {}, entry


def build_state_counter() -> Fixture:
    """State kept across runs, as an LLM's KV cache: `total` is a mutable
    buffer (planned, neither input nor constant, its own bytes) that each
    run adds x to, written back with aten::copy_ as ExecuTorch's exporter
    does. Starts at zero; Model.resetState() zeroes it again."""
    pb = ProgramBuilder()
    m = pb.method("forward")
    total = m.tensor("float32", [3], allocation=(1, 0))
    x = m.input(m.tensor("float32", [3], allocation=(1, 64)))
    s = m.tensor("float32", [3], allocation=(1, 128))
    m.kernel("aten::add.out", [total, x, m.int(1)], s)
    ret = m.tensor("float32", [3], allocation=(1, 192))
    m.kernel_call("aten::copy_", [total, s, m.bool(False), ret])  # self, src, non_blocking | ret
    m.output(s)
    entry = {
        "description": "forward(x: f32[3]) = (total += x), total a mutable buffer kept across runs "
                       "(aten::add.out, then aten::copy_ writes it back). The case is a first run.",
        "method": "forward",
        "cases": [{"inputs": [tensor("float32", [3], [1, 2, 3])],
                   "outputs": [tensor("float32", [3], [1, 2, 3])]}],
        "tolerance": "exact",
    }
    return pb, {}, entry


FIXTURES: List[Tuple[str, Callable[[], Fixture]]] = [
    ("add.pte", build_add),
    ("add_vec4.pte", build_add_vec4),
    ("affine.pte", build_affine),
    ("affine_eh24.pte", build_affine_eh24),
    ("affine_inline.pte", build_affine_inline),
    ("scalars.pte", build_scalars),
    ("multi_method.pte", build_multi_method),
    ("dynamic.pte", build_dynamic),
    ("int_types.pte", build_int_types),
    ("identity.pte", build_identity),
    ("jump.pte", build_jump),
    ("mlp.pte", build_mlp),
    ("xnnpack_conv.pte", build_xnnpack_conv),
    ("big_scratch.pte", build_big_scratch),
    ("depthwise_in_place.pte", build_depthwise_in_place),
    ("state_counter.pte", build_state_counter),
]


# ---------------------------------------------------------------------------
# Hostile files

def _root_field_pos(data: bytes, field: int) -> int:
    """File position of field ``field`` of the root table (must be present)."""
    root = struct.unpack_from("<I", data, 0)[0]
    vtable = root - struct.unpack_from("<i", data, root)[0]
    vt_size = struct.unpack_from("<H", data, vtable)[0]
    slot = 4 + 2 * field
    if slot >= vt_size:
        raise RuntimeError("field not in vtable")
    off = struct.unpack_from("<H", data, vtable + slot)[0]
    if off == 0:
        raise RuntimeError("field absent")
    return root + off


def _header(data: bytes) -> Tuple[int, int]:
    """(program_size, segment_base_offset) of a file with an eh00 header."""
    assert data[8:12] == b"eh00"
    return struct.unpack_from("<QQ", data, 16)


def _single_op(op: str, extra: Optional[Callable[[Any, int], List[int]]] = None) -> ProgramBuilder:
    pb = ProgramBuilder()
    m = pb.method("forward")
    x = m.input(m.tensor("float32", [3]))
    out = m.tensor("float32", [3])
    args = [x] + (extra(m, x) if extra else [])
    m.kernel(op, args, out)
    m.output(out)
    return pb


def build_hostile(good: Dict[str, bytes]) -> List[Tuple[str, bytes, Dict[str, Any]]]:
    """Returns [(name, bytes, index entry)]; ``good`` maps fixture names to bytes."""
    out: List[Tuple[str, bytes, Dict[str, Any]]] = []

    def add(name: str, data: bytes, description: str, derived: Optional[str] = None,
            mentions: Sequence[str] = (), run: Optional[Dict[str, Any]] = None,
            code: str = "InvalidProgram") -> None:
        # "load_error": loading the file or preparing one of its methods fails.
        # "load_or_run_error": as above, or else running `run` fails.
        entry: Dict[str, Any] = {"description": description,
                                 "expect": "load_or_run_error" if run else "load_error"}
        if derived:
            entry["derived_from"] = derived
        # What the error must say (what is wrong and where) and its code.
        entry["error_mentions"] = list(mentions)
        entry["error_code"] = code
        if run:
            entry["run"] = run
        out.append(("hostile/" + name, data, entry))

    affine = good["affine.pte"]
    program_size, _ = _header(affine)
    add("truncated.pte", affine[: program_size // 2],
        f"affine.pte cut to {program_size // 2} bytes, in the middle of the flatbuffer "
        f"(its header still claims program_size {program_size}).", "affine.pte",
        mentions=[f"program data is {program_size} bytes but the file is {program_size // 2}", "truncated"])

    add_pte = good["add.pte"]
    add("bad_magic.pte", add_pte[:4] + b"NOPE" + add_pte[8:],
        "add.pte with bytes 4..8 replaced by 'NOPE' instead of the 'ET12' identifier.", "add.pte",
        mentions=['unrecognized model file: first bytes 1c 00 00 00 4e 4f 50 45 ("....NOPE")',
                  'ExecuTorch program (.pte) ("ET" at byte 4)'])

    bad = bytearray(add_pte)
    pos = _root_field_pos(add_pte, 1)  # Program.execution_plan
    struct.pack_into("<I", bad, pos, len(add_pte) + 0x1000 - pos)
    add("bad_offsets.pte", bytes(bad),
        f"add.pte with the root table's execution_plan offset (at byte {pos}) pointing 4 KiB "
        "past the end of the file.", "add.pte",
        mentions=["program flatbuffer failed verification", "points outside the data"])

    def grow_segment(prog: Dict[str, Any]) -> None:
        prog["segments"][0]["size"] = 1 << 20

    seg = _affine_program().serialize(json_hook=grow_segment)
    add("segment_past_end.pte", seg,
        f"affine.pte whose Program.segments[0] claims 1 MiB of data; the file is {len(seg)} bytes "
        "(the extended header's segment_data_size still tells the truth).", "affine.pte",
        mentions=["segment 0 [0, +1048576)", f"past the end of the {len(seg)}-byte file"])

    pb, _, _ = build_add()
    pb.methods[0].non_const_buffer_sizes = [0, 536870912]
    add("huge_plan.pte", pb.serialize(),
        "add.pte whose memory plan asks for one 512 MiB buffer (non_const_buffer_sizes "
        "[0, 536870912]); must fail cleanly under a planned-memory limit, not allocate.", "add.pte",
        mentions=["method 'forward': memory plan needs 536870912 bytes", "over the limit of"],
        code="LimitExceeded")

    add("missing_op.pte", _single_op("custom::does_not_exist.out").serialize(),
        "forward(x: f32[3]) calls custom::does_not_exist.out(x, out, out), an operator no "
        "runtime registers: loading must fail naming it.",
        mentions=["method 'forward' uses 1 operator not registered in this build: custom::does_not_exist.out"],
        code="OperatorMissing")

    pb = ProgramBuilder()
    m = pb.method("forward")
    x = m.input(m.tensor("float32", [3]))
    y = m.tensor("float32", [3])
    d = m.delegate("NoSuchBackend", b"TRIDENT-TEST-BLOB-NOT-A-REAL-DELEGATE\0",
                   compile_specs=[("key", b"value")])
    m.delegate_call(d, [x, y])
    m.output(y)
    add("missing_backend.pte", pb.serialize(),
        "forward(x: f32[3]) is one DelegateCall to backend id 'NoSuchBackend' (blob in segment 1): "
        "loading must fail naming the backend.",
        mentions=["delegate 0 needs backend 'NoSuchBackend', which is not registered"], code="BackendMissing")

    pb = ProgramBuilder()
    m = pb.method("forward")
    w = m.external("float32", [3], "weight.missing")
    x = m.input(m.tensor("float32", [3]))
    y = m.tensor("float32", [3])
    m.kernel("aten::add.out", [x, w, m.int(1)], y)
    m.output(y)
    add("external_missing.pte", pb.serialize(),
        "forward(x: f32[3]) = x + weight, where weight is an EXTERNAL tensor with "
        "fully_qualified_name 'weight.missing' and no .ptd is supplied: loading the method must "
        "fail naming the key.", mentions=["tensor 'weight.missing' lives in an external data file (.ptd)"],
        code="ExternalDataMissing")

    pb, _, _ = build_add()
    body = pb.methods[0].instructions[0][1]
    body["args"][2] = 1000
    add("bad_arg_index.pte", pb.serialize(validate=False),
        "add.pte whose KernelCall passes value index 1000 as alpha; the method has 4 values.",
        "add.pte", mentions=["instruction 0: argument 2 refers to value 1000 (the table has 4)"])

    pb, _, _ = build_add()
    pb.methods[0].instructions[0][1]["op_index"] = 7
    add("bad_op_index.pte", pb.serialize(validate=False),
        "add.pte whose KernelCall uses op_index 7; the method has 1 operator.", "add.pte",
        mentions=["instruction 0: KernelCall names operator 7 (the method has 1)"])

    pb, _, _ = build_jump()
    pb.methods[0].instructions[0][1]["destination_instruction"] = 99
    add("bad_jump.pte", pb.serialize(validate=False),
        "jump.pte whose first JumpFalseCall jumps to instruction 99 (the method has 5); "
        "rejected at load, or at the latest when the jump is taken (flag = false).", "jump.pte",
        run={"method": "forward", "inputs": [tensor("float32", [3], [1, 2, 3]),
                                             tensor("float32", [3], [4, 5, 6]), scalar("Bool", False)]},
        mentions=["JumpFalseCall jumps to instruction 99 (the method has 5)"])

    pb = ProgramBuilder()
    m = pb.method("forward")
    x = m.input(m.tensor("float32", [2, 3]))
    y = m.tensor("float32", [3, 2])
    m.kernel("aten::permute_copy.out", [x, m.int_list_of_values([x, x])], y)
    m.output(y)
    add("bad_list_item.pte", pb.serialize(validate=False),
        "permute_copy.out whose dims IntList lists value 0, a Tensor, where Int values belong: "
        "rejected when the method is prepared, or at the latest when the kernel reads the list.",
        run={"method": "forward", "inputs": [tensor("float32", [2, 3], [1, 2, 3, 4, 5, 6])]},
        mentions=["instruction 0 (aten::permute_copy.out): argument 1: IntList item 0 is Tensor, expected Int"],
        code="InvalidType")

    # 8da4w linears (qdint8 activations x qbint4 weights) with a lie: a bf16
    # block scale of zero, and per-token parameters over two non-batch dims.
    def qd8_fc(bf16_scale: int, nonbatch: int, rank: int) -> bytes:
        k, n, block = 32, 2, 32
        pb = ProgramBuilder()
        m = pb.method("forward")
        g = XnnGraph()
        in_dims = [1, 2, k] if rank == 3 else [2, k]
        out_dims = in_dims[:-1] + [n]
        x = g.value("fp32", in_dims, external_input=0)
        xq = g.value("qdint8", in_dims, quant={"PerTokenDynamicQuant": {"num_nonbatch_dims": nonbatch}})
        g.node("XNNConvert", {"input_id": x, "output_id": xq, "flags": 0})
        w = g.value("qbint4", [n, k], constant=bytes([0x98] * (n * k // 2)),
                    quant={"PerChannelGroupQuant": {"scale": [], "channel_dim": 0, "group_size": block,
                                                    "scale_bf16": [bf16_scale] * (n * k // block)}})
        y = g.value("fp32", out_dims, external_output=1)
        g.node("XNNFullyConnected", {"input1_id": xq, "filter_id": w, "bias_id": 0xFFFFFFFF,
                                     "output_id": y, "flags": 0})
        blob = g.payload(named_data=pb.named_data)
        xin = m.input(m.tensor("float32", in_dims))
        out_t = m.tensor("float32", out_dims)
        m.delegate_call(m.delegate("XnnpackBackend", blob), [xin, out_t])
        m.output(out_t)
        return pb.serialize()

    add("xnnpack_qd8_zero_scale.pte", qd8_fc(0x0000, 1, 2),
        "An 8da4w fully connected layer (qdint8 x qbint4) whose bf16 block scales are 0.",
        mentions=["bf16 block scale 0 is 0", "normal and positive"])
    add("xnnpack_qd8_nonbatch_dims.pte", qd8_fc(0x3F80, 2, 3),
        "An 8da4w fully connected layer whose qdint8 input is quantized over 2 non-batch dims "
        "(ExecuTorch writes 1: one scale and zero point per row).",
        mentions=["non-batch dims (1 expected)"], code="NotSupported")

    return out


# ---------------------------------------------------------------------------
# Driver

def _write(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def _dump_json(obj: Any) -> bytes:
    return (json.dumps(obj, indent=1) + "\n").encode("utf-8")


def make_fixtures(outdir: str) -> Dict[str, Any]:
    goldens: Dict[str, Any] = {}
    good: Dict[str, bytes] = {}
    for name, fn in FIXTURES:
        pb, opts, entry = fn()
        data = pb.serialize(**opts)
        good[name] = data
        _write(os.path.join(outdir, name), data)
        form = {"header": opts.get("header", "auto"), "constants": opts.get("constants", "segment")}
        if form["header"] == "auto":
            form["header"] = "eh32" if data[8:12] == b"eh00" else "none"
        goldens[name] = {"description": entry["description"], "bytes": len(data), "form": form,
                         "methods": pb.signature(), **{k: v for k, v in entry.items()
                                                       if k != "description"}}
    hostile: Dict[str, Any] = {}
    for name, data, entry in build_hostile(good):
        _write(os.path.join(outdir, name), data)
        hostile[name] = {**entry, "bytes": len(data)}
    index = {
        "note": "Generated by tools/pte/make_fixtures.py; do not edit. Paths are relative to this "
                "file. Values use the GOLDENS.json form of ../shared/corpus/pte: tensors "
                "{dtype, shape, values} (numpy dtype names, row-major), scalars {type, value}. A "
                "case has a 'method' or uses the fixture's. A case with 'expect_error' must fail "
                "(the string says why). Hostile files: expect 'load_error' = loading the file or "
                "preparing one of its methods fails; 'load_or_run_error' = that, or else running "
                "'run' fails. 'error_mentions' lists strings the error message should contain.",
        "goldens": goldens,
        "hostile": hostile,
    }
    _write(os.path.join(outdir, "index.json"), _dump_json(index))
    return index


DEMO = [
    ("add", "add.pte", build_add,
     "Adds two 2x2 float32 tensors (aten::add.out)."),
    ("affine", "affine.pte", build_affine,
     "y = 3x + 2 on a float32[3], with the weights as constants (mul.out then add.out)."),
    ("multi_method", "multi_method.pte", build_multi_method,
     "Four methods: forward (x + 1), double (x + x), and the constant methods get_answer (Int 42) "
     "and get_tensor (int64 [1, 2, 3])."),
    ("mlp", "mlp.pte", build_mlp,
     "A tiny 4-8-3 MLP (view_copy, permute_copy, addmm, tanh) with fixed random weights: "
     "float32[1,4] -> float32[1,3]."),
    ("xnnpack_conv", "xnnpack_conv.pte", build_xnnpack_conv,
     "A conv net delegated to XNNPACK (one DelegateCall: NHWC conv 3x3 + ReLU, global average "
     "pool, fully connected): float32[1,2,4,4] -> float32[1,2]."),
]


def make_demo(demo_dir: str) -> None:
    listing = []
    for name, file, fn, description in DEMO:
        pb, opts, entry = fn()
        _write(os.path.join(demo_dir, file), pb.serialize(**opts))
        case = entry["cases"][0]
        listing.append({"name": name, "file": file, "description": description,
                        "example": {"method": case.get("method", entry.get("method", "forward")),
                                    "inputs": case["inputs"], "outputs": case["outputs"]}})
    _write(os.path.join(demo_dir, "index.json"), _dump_json(listing))


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?", default=os.path.join(REPO_ROOT, "build", "fixtures"),
                    help="fixture output directory (default: build/fixtures in the repo)")
    ap.add_argument("--demo", metavar="DIR", help="also write the demo samples into DIR")
    args = ap.parse_args(argv)
    index = make_fixtures(args.outdir)
    if args.demo:
        make_demo(args.demo)
    print(f"make_fixtures: {len(index['goldens'])} fixtures and {len(index['hostile'])} hostile "
          f"files in {args.outdir}" + (f"; demo samples in {args.demo}" if args.demo else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
