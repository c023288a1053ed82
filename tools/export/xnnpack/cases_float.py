"""Float32 XNNPACK node cases, each checked against PyTorch. Tensors in NHWC
where XNNPACK expects it; the references permute to NCHW for torch's ops."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from xnn_case_lib import (INF, INVALID_ID, case, const, internal, nchw, nhwc, node_1x1, node_2x1,
                          randn, shape_of)

# ---------------------------------------------------------------------------
# binary nodes with broadcasting and fused output ranges

BINARY = {
    "Add": ("XNNAdd", torch.add), "Subtract": ("XNNSubtract", torch.sub),
    "Multiply": ("XNNMultiply", torch.mul), "Div": ("XNNDiv", torch.div),
    "Minimum": ("XNNMinimum", torch.minimum), "Maximum": ("XNNMaximum", torch.maximum),
}


def _binary(node: str, kind: str, fn, a_shape, b_shape, seed: int, rng=None) -> None:
    a = randn(*a_shape, seed=seed)
    b = randn(*b_shape, seed=seed + 1)
    if node == "Div":
        b = b.sign() * (b.abs() + 0.5)
    out = list(torch.broadcast_shapes(a.shape, b.shape))

    def build(g, ins):
        return [node_2x1(g, kind, ins[0], ins[1], out, output_min_max=rng)]

    def ref(x, y):
        r = fn(x, y)
        return [r.clamp(rng[0], rng[1]) if rng else r]

    desc = f"{list(a_shape)} {node} {list(b_shape)}" + (f" clamp{list(rng)}" if rng else "")
    case(node, desc, [a, b], build, ref)


for i, (node, (kind, fn)) in enumerate(BINARY.items()):
    _binary(node, kind, fn, [2, 3, 5], [2, 3, 5], 10 * i)
    _binary(node, kind, fn, [1, 4, 4, 9], [9], 10 * i + 2)        # per-channel (NHWC) broadcast
    _binary(node, kind, fn, [2, 1, 3], [4, 1], 10 * i + 4)          # both sides broadcast
    _binary(node, kind, fn, [1, 5, 5, 8], [1, 1, 1, 8], 10 * i + 6)  # SE-block style
    _binary(node, kind, fn, [7], [], 10 * i + 8)                     # scalar operand
    if node in ("Add", "Subtract", "Multiply", "Div"):
        _binary(node, kind, fn, [3, 17], [3, 17], 10 * i + 9, rng=(0.0, 6.0))
        _binary(node, kind, fn, [1, 2, 2, 5], [5], 10 * i + 3, rng=(0.0, INF))


def _prelu(shape, seed):
    x = randn(*shape, seed=seed)
    slope = randn(shape[-1], seed=seed + 1) * 0.3

    def build(g, ins):
        return [node_2x1(g, "XNNPReLU", ins[0], const(g, slope), shape)]

    case("PReLU", f"{shape} slope[{shape[-1]}]", [x], build,
         lambda t: [torch.where(t > 0, t, t * slope)])


_prelu([1, 3, 3, 6], 1)
_prelu([2, 11], 3)

# ---------------------------------------------------------------------------
# unary nodes

UNARY = {
    "Abs": ("XNNAbs", torch.abs, None), "Negate": ("XNNNegate", torch.neg, None),
    "Square": ("XNNSquare", torch.square, None), "SquareRoot": ("XNNSquareRoot", torch.sqrt, "pos"),
    "ReciprocalSquareRoot": ("XNNReciprocalSquareRoot", torch.rsqrt, "pos"),
    "Ceiling": ("XNNCeiling", torch.ceil, None), "Floor": ("XNNFloor", torch.floor, None),
    "Exp": ("XNNExp", torch.exp, None), "Log": ("XNNLog", torch.log, "pos"),
    "Sigmoid": ("XNNSigmoid", torch.sigmoid, None), "Tanh": ("XNNTanh", torch.tanh, None),
    "Sin": ("XNNSin", torch.sin, None), "Cos": ("XNNCos", torch.cos, None),
    "Gelu": ("XNNGelu", F.gelu, None),
    "ApproxGelu": ("XNNApproxGelu", lambda t: F.gelu(t, approximate="tanh"), None),
    "Hardswish": ("XNNHardswish", F.hardswish, None),
}

for i, (node, (kind, fn, domain)) in enumerate(UNARY.items()):
    for j, shape in enumerate([[3, 7], [1, 4, 4, 5], [1]]):
        x = randn(*shape, seed=100 + 3 * i + j, scale=3.0)
        if domain == "pos":
            x = x.abs() + 0.1
        case(node, f"{shape}", [x],
             lambda g, ins, kind=kind, shape=shape: [node_1x1(g, kind, ins[0], shape)],
             lambda t, fn=fn: [fn(t)], rtol=1e-5, atol=2e-6)

for j, (lo, hi) in enumerate([(0.0, 6.0), (-1.0, 1.0), (0.0, INF), (-INF, 0.5)]):
    x = randn(2, 3, 5, seed=150 + j, scale=4.0)
    case("Clamp", f"[2, 3, 5] to [{lo}, {hi}]", [x],
         lambda g, ins, lo=lo, hi=hi: [node_1x1(g, "XNNClamp", ins[0], [2, 3, 5], output_min_max=(lo, hi))],
         lambda t, lo=lo, hi=hi: [t.clamp(lo, hi)])

for j, alpha in enumerate([1.0, 0.3]):
    x = randn(3, 8, seed=160 + j, scale=2.0)

    def build_elu(g, ins, alpha=alpha):
        y = internal(g, [3, 8])
        g.node("XNNELU", {"alpha": alpha, "input_id": ins[0], "output_id": y, "flags": 0})
        return [y]

    case("ELU", f"[3, 8] alpha {alpha}", [x], build_elu, lambda t, alpha=alpha: [F.elu(t, alpha)])

for j, slope in enumerate([0.01, 0.2]):
    x = randn(1, 3, 3, 4, seed=170 + j)

    def build_lrelu(g, ins, slope=slope):
        y = internal(g, [1, 3, 3, 4])
        g.node("XNNLeakyReLU", {"negative_slope": slope, "input_id": ins[0], "output_id": y, "flags": 0})
        return [y]

    case("LeakyReLU", f"[1, 3, 3, 4] slope {slope}", [x], build_lrelu,
         lambda t, slope=slope: [F.leaky_relu(t, slope)])

for j, shape in enumerate([[2, 10], [1, 3, 7], [4, 1]]):
    x = randn(*shape, seed=180 + j, scale=3.0)
    case("Softmax", f"{shape} over the last dim", [x],
         lambda g, ins, shape=shape: [node_1x1(g, "XNNSoftmax", ins[0], shape)],
         lambda t: [torch.softmax(t, -1)])

# ---------------------------------------------------------------------------
# convolutions (NHWC input, OHWI filter, 1HWO depthwise filter)


def _conv(node_desc: str, n, h, w, cin, cout, k, *, stride=(1, 1), pad=(0, 0, 0, 0), dil=(1, 1),
          groups=1, bias=True, rng=None, seed=0):
    kh, kw = k
    x = randn(n, h, w, cin, seed=seed)
    wt = randn(cout, cin // groups, kh, kw, seed=seed + 1, scale=0.3)
    b = randn(cout, seed=seed + 2) if bias else None
    pt, pr, pb_, pl = pad

    def ref(t):
        y = F.conv2d(F.pad(nchw(t), (pl, pr, pt, pb_)), wt, b, stride=stride, dilation=dil, groups=groups)
        if rng:
            y = y.clamp(*rng)
        return [nhwc(y)]

    out_shape = list(ref(x)[0].shape)

    def build(g, ins):
        f = const(g, wt.permute(0, 2, 3, 1))  # OHWI
        y = internal(g, out_shape)
        bid = const(g, b) if b is not None else INVALID_ID
        g.node("XNNConv2d", {
            "padding_top": pt, "padding_right": pr, "padding_bottom": pb_, "padding_left": pl,
            "kernel_height": kh, "kernel_width": kw, "subsampling_height": stride[0],
            "subsampling_width": stride[1], "dilation_height": dil[0], "dilation_width": dil[1],
            "group_input_channels": cin // groups, "group_output_channels": cout // groups,
            "groups": groups, "input1_id": ins[0], "filter_id": f, "bias_id": bid, "output_id": y,
            "flags": 0}, output_min_max=rng)
        return [y]

    case("Conv2d", node_desc, [x], build, ref, rtol=1e-4, atol=1e-5)


_conv("1x1 pointwise 13 rows x 11 channels", 1, 1, 13, 6, 11, (1, 1), seed=1)
_conv("1x1 pointwise, relu6, 2 images", 2, 3, 5, 8, 16, (1, 1), rng=(0.0, 6.0), seed=2)
_conv("3x3 pad 1", 1, 7, 6, 3, 9, (3, 3), pad=(1, 1, 1, 1), seed=3)
_conv("3x3 stride 2 pad 1, relu", 1, 9, 9, 4, 8, (3, 3), stride=(2, 2), pad=(1, 1, 1, 1),
      rng=(0.0, INF), seed=4)
_conv("3x3 dilation 2", 1, 8, 8, 2, 5, (3, 3), dil=(2, 2), seed=5)
_conv("2x3 asymmetric padding, no bias", 1, 5, 7, 3, 4, (2, 3), pad=(0, 2, 1, 1), bias=False, seed=6)
_conv("3x3 groups 2", 1, 6, 6, 4, 6, (3, 3), pad=(1, 1, 1, 1), groups=2, seed=7)
_conv("5x5 stride 2x1", 2, 9, 7, 3, 7, (5, 5), stride=(2, 1), pad=(2, 2, 2, 2), seed=8)


def _dwconv(desc, n, h, w, c, m, k, *, stride=(1, 1), pad=(0, 0, 0, 0), dil=(1, 1), rng=None, seed=0):
    kh, kw = k
    x = randn(n, h, w, c, seed=seed)
    wt = randn(c * m, 1, kh, kw, seed=seed + 1, scale=0.3)
    b = randn(c * m, seed=seed + 2)
    pt, pr, pb_, pl = pad

    def ref(t):
        y = F.conv2d(F.pad(nchw(t), (pl, pr, pt, pb_)), wt, b, stride=stride, dilation=dil, groups=c)
        if rng:
            y = y.clamp(*rng)
        return [nhwc(y)]

    out_shape = list(ref(x)[0].shape)

    def build(g, ins):
        f = const(g, wt.permute(1, 2, 3, 0))  # [1, kh, kw, C*m]
        y = internal(g, out_shape)
        g.node("XNNDepthwiseConv2d", {
            "padding_top": pt, "padding_right": pr, "padding_bottom": pb_, "padding_left": pl,
            "kernel_height": kh, "kernel_width": kw, "subsampling_height": stride[0],
            "subsampling_width": stride[1], "dilation_height": dil[0], "dilation_width": dil[1],
            "group_input_channels": 1, "group_output_channels": m, "groups": c,
            "input1_id": ins[0], "filter_id": f, "bias_id": const(g, b), "output_id": y,
            "flags": 0}, output_min_max=rng)
        return [y]

    case("DepthwiseConv2d", desc, [x], build, ref, rtol=1e-4, atol=1e-5)


_dwconv("3x3 pad 1, 12 channels, relu6", 1, 7, 7, 12, 1, (3, 3), pad=(1, 1, 1, 1), rng=(0.0, 6.0), seed=20)
_dwconv("3x3 stride 2, 7 channels", 2, 8, 9, 7, 1, (3, 3), stride=(2, 2), pad=(1, 1, 1, 1), seed=21)
_dwconv("5x5 dilation 2, 9 channels", 1, 11, 10, 9, 1, (5, 5), dil=(2, 2), pad=(2, 2, 2, 2), seed=22)
_dwconv("3x3 depth multiplier 2", 1, 5, 5, 3, 2, (3, 3), seed=23)
_dwconv("3x3 one input channel, 8 outputs", 1, 6, 6, 1, 8, (3, 3), rng=(0.0, INF), seed=24)


def _deconv(desc, n, h, w, cin, cout, k, *, stride=(1, 1), pad=(0, 0), adj=(0, 0), dil=(1, 1),
            groups=1, seed=0):
    kh, kw = k
    x = randn(n, h, w, cin, seed=seed)
    wt = randn(cin, cout // groups, kh, kw, seed=seed + 1, scale=0.3)  # PyTorch layout
    b = randn(cout, seed=seed + 2)

    def ref(t):
        y = F.conv_transpose2d(nchw(t), wt, b, stride=stride, padding=pad, output_padding=adj,
                               groups=groups, dilation=dil)
        return [nhwc(y)]

    out_shape = list(ref(x)[0].shape)
    # XNNPACK's filter: [groups * group_out, kh, kw, group_in].
    gi, go = cin // groups, cout // groups
    filt = wt.reshape(groups, gi, go, kh, kw).permute(0, 2, 3, 4, 1).reshape(cout, kh, kw, gi)

    def build(g, ins):
        y = internal(g, out_shape)
        g.node("XNNConvTranspose2d", {
            "padding_top": pad[0], "padding_right": pad[1], "padding_bottom": pad[0],
            "padding_left": pad[1], "kernel_height": kh, "kernel_width": kw,
            "subsampling_height": stride[0], "subsampling_width": stride[1],
            "dilation_height": dil[0], "dilation_width": dil[1], "group_input_channels": gi,
            "group_output_channels": go, "groups": groups, "adjustment_height": adj[0],
            "adjustment_width": adj[1], "input1_id": ins[0], "filter_id": const(g, filt),
            "bias_id": const(g, b), "output_id": y, "flags": 0})
        return [y]

    case("ConvTranspose2d", desc, [x], build, ref, rtol=1e-4, atol=1e-5)


_deconv("2x2 stride 2", 1, 4, 5, 3, 6, (2, 2), stride=(2, 2), seed=30)
_deconv("3x3 stride 2 pad 1 output padding 1", 1, 4, 4, 4, 5, (3, 3), stride=(2, 2), pad=(1, 1),
        adj=(1, 1), seed=31)
_deconv("3x3 groups 2", 2, 3, 3, 4, 6, (3, 3), groups=2, seed=32)

# ---------------------------------------------------------------------------
# fully connected and batch matmul


def _fc(desc, x_shape, out, *, bias=True, transposed=False, dynamic_filter=False, rng=None, seed=0):
    x = randn(*x_shape, seed=seed)
    k = x_shape[-1]
    w = randn(out, k, seed=seed + 1, scale=0.3)
    b = randn(out, seed=seed + 2) if bias else None
    inputs = [x, w] if dynamic_filter else [x]

    def ref(t, *rest):
        y = F.linear(t, rest[0] if rest else w, b)
        return [y.clamp(*rng) if rng else y]

    def build(g, ins):
        if dynamic_filter:
            f = ins[1]
        else:
            f = const(g, w.t() if transposed else w)
        y = internal(g, list(x_shape[:-1]) + [out])
        g.node("XNNFullyConnected", {"input1_id": ins[0], "filter_id": f,
                                     "bias_id": const(g, b) if b is not None else INVALID_ID,
                                     "output_id": y, "flags": 1 if transposed else 0},
               output_min_max=rng)
        return [y]

    case("FullyConnected", desc, inputs, build, ref, rtol=1e-4, atol=1e-5)


_fc("[5, 7] -> 11", [5, 7], 11, seed=40)
_fc("[2, 3, 16] -> 9, no bias", [2, 3, 16], 9, bias=False, seed=41)
_fc("transposed weights [in, out]", [4, 6], 10, transposed=True, seed=42)
_fc("filter as an input", [3, 8], 5, dynamic_filter=True, seed=43)
_fc("relu, 13 rows", [13, 20], 17, rng=(0.0, INF), seed=44)


def _bmm(desc, a_shape, b_shape, transpose_b=False, seed=0):
    a = randn(*a_shape, seed=seed)
    b = randn(*b_shape, seed=seed + 1)

    def ref(x, y):
        return [torch.matmul(x, y.transpose(-1, -2) if transpose_b else y)]

    out_shape = list(ref(a, b)[0].shape)
    case("BatchMatrixMultiply", desc, [a, b],
         lambda g, ins: [node_2x1(g, "XNNBatchMatrixMultiply", ins[0], ins[1], out_shape,
                                  flags=1 if transpose_b else 0)],
         ref, rtol=1e-4, atol=1e-5)


_bmm("[3, 4, 5] @ [3, 5, 6]", [3, 4, 5], [3, 5, 6], seed=50)
_bmm("[2, 2, 3, 4] @ [2, 1, 4, 2] (batch broadcast)", [2, 2, 3, 4], [2, 1, 4, 2], seed=51)
_bmm("transpose b: [2, 3, 4] @ [2, 5, 4]^T", [2, 3, 4], [2, 5, 4], transpose_b=True, seed=52)

# ---------------------------------------------------------------------------
# pooling (NHWC)


def _pool(kind, desc, n, h, w, c, k, *, stride, pad=(0, 0, 0, 0), dil=(1, 1), rng=None, seed=0):
    x = randn(n, h, w, c, seed=seed)
    pt, pr, pb_, pl = pad

    def ref(t):
        xt = nchw(t)
        if kind == "MaxPooling2d":
            xp = F.pad(xt, (pl, pr, pt, pb_), value=-INF)
            y = F.max_pool2d(xp, k, stride, dilation=dil)
        else:
            # Average over the taps inside the input only.
            ones = torch.ones_like(xt)
            num = F.avg_pool2d(F.pad(xt, (pl, pr, pt, pb_)), k, stride, divisor_override=1)
            den = F.avg_pool2d(F.pad(ones, (pl, pr, pt, pb_)), k, stride, divisor_override=1)
            y = num / den
        if rng:
            y = y.clamp(*rng)
        return [nhwc(y)]

    out_shape = list(ref(x)[0].shape)

    def build(g, ins):
        y = internal(g, out_shape)
        g.node("XNN" + kind, {
            "padding_top": pt, "padding_right": pr, "padding_bottom": pb_, "padding_left": pl,
            "pooling_height": k[0], "pooling_width": k[1], "stride_height": stride[0],
            "stride_width": stride[1], "dilation_height": dil[0] if kind == "MaxPooling2d" else 0,
            "dilation_width": dil[1] if kind == "MaxPooling2d" else 0, "input_id": ins[0],
            "output_id": y, "flags": 0x40}, output_min_max=rng)
        return [y]

    case(kind, desc, [x], build, ref, rtol=1e-5, atol=1e-6)


_pool("MaxPooling2d", "3x3 stride 2 pad 1, 64 channels", 1, 9, 9, 64, (3, 3), stride=(2, 2),
      pad=(1, 1, 1, 1), seed=60)
_pool("MaxPooling2d", "2x2 stride 2, 5 channels, 2 images", 2, 6, 7, 5, (2, 2), stride=(2, 2), seed=61)
_pool("MaxPooling2d", "3x3 dilation 2, clamped", 1, 8, 8, 3, (3, 3), stride=(1, 1), dil=(2, 2),
      rng=(-0.5, 0.5), seed=62)
_pool("AvgPooling2d", "3x3 stride 1 pad 1 (padding not counted)", 1, 6, 5, 6, (3, 3), stride=(1, 1),
      pad=(1, 1, 1, 1), seed=63)
_pool("AvgPooling2d", "2x2 stride 2, 9 channels", 2, 4, 6, 9, (2, 2), stride=(2, 2), seed=64)

for j, (keep, shape) in enumerate([(True, [1, 7, 7, 16]), (True, [2, 3, 5, 9]), (False, [1, 4, 4, 6])]):
    x = randn(*shape, seed=70 + j)
    out = [shape[0], 1, 1, shape[3]] if keep else [shape[0], shape[3]]
    case("GlobalAvgPooling2d", f"{shape}" + (" keep dims" if keep else ""), [x],
         lambda g, ins, out=out, keep=keep: [node_1x1(g, "XNNGlobalAvgPooling2d", ins[0], out,
                                                     flags=0x40 if keep else 0)],
         lambda t, keep=keep: [t.mean(dim=(1, 2), keepdim=keep)])


def _argmax(desc, shape, k, seed):
    x = randn(*shape, seed=seed)
    n, h, w, c = shape
    oh, ow = h // k[0], w // k[1]

    def ref(t):
        win = t[:, :oh * k[0], :ow * k[1], :].reshape(n, oh, k[0], ow, k[1], c)
        win = win.permute(0, 1, 3, 5, 4, 2).reshape(n, oh, ow, c, k[0] * k[1])  # (x, y) order
        values, index = win.max(dim=-1)
        return [values, index.to(torch.float32)]

    def build(g, ins):
        vals = internal(g, [n, oh, ow, c])
        idx = internal(g, [n, oh, ow, c])
        g.node("XNNArgMaxPooling2d", {"pooling_height": k[0], "pooling_width": k[1],
                                      "input_id": ins[0], "output_value_id": vals,
                                      "output_index_id": idx, "flags": 0})
        return [vals, idx]

    case("ArgMaxPooling2d", desc, [x], build, ref, rtol=0, atol=0)


_argmax("2x2 windows", [1, 4, 6, 3], (2, 2), 75)
_argmax("1x3 windows, 2 images", [2, 3, 7, 2], (1, 3), 76)

# ---------------------------------------------------------------------------
# data movement


def _transpose(shape, perm, seed):
    x = randn(*shape, seed=seed)
    out = [shape[p] for p in perm]

    def build(g, ins):
        y = internal(g, out)
        g.node("XNNStaticTranspose", {"num_dims": len(perm), "perm": perm, "input_id": ins[0],
                                      "output_id": y, "flags": 0})
        return [y]

    case("StaticTranspose", f"{shape} perm {perm}", [x], build, lambda t: [t.permute(*perm)])


_transpose([1, 3, 5, 7], [0, 2, 3, 1], 80)
_transpose([1, 5, 7, 3], [0, 3, 1, 2], 81)
_transpose([2, 3, 4], [2, 0, 1], 82)
_transpose([6], [0], 83)


def _reshape(shape, new_shape, seed):
    x = randn(*shape, seed=seed)
    out = list(x.reshape([-1 if d == 0 else d for d in new_shape]).shape)

    def build(g, ins):
        y = internal(g, out)
        g.node("XNNStaticReshape", {"num_dims": len(new_shape), "new_shape": new_shape,
                                    "input_id": ins[0], "output_id": y, "flags": 0})
        return [y]

    case("StaticReshape", f"{shape} to {new_shape} (0 = inferred)", [x], build,
         lambda t: [t.reshape(out)])


_reshape([2, 3, 4], [6, 4], 84)
_reshape([1, 8, 1, 1], [1, 0], 85)
_reshape([3, 10], [0, 5, 2], 86)

x_copy = randn(2, 9, seed=87)
case("Copy", "[2, 9]", [x_copy], lambda g, ins: [node_1x1(g, "XNNCopy", ins[0], [2, 9])],
     lambda t: [t.clone()])


def _slice(shape, offsets, sizes, seed):
    x = randn(*shape, seed=seed)
    ends = [o + (s if s else d - o) for o, s, d in zip(offsets, sizes, shape)]
    out = [e - o for o, e in zip(offsets, ends)]

    def build(g, ins):
        y = internal(g, out)
        g.node("XNNStaticSlice", {"num_dims": len(shape), "offsets": offsets, "sizes": sizes,
                                  "input_id": ins[0], "output_id": y, "flags": 0})
        return [y]

    case("StaticSlice", f"{shape} offsets {offsets} sizes {sizes}", [x], build,
         lambda t: [t[tuple(slice(o, e) for o, e in zip(offsets, ends))]])


_slice([4, 6], [1, 2], [2, 3], 88)
_slice([1, 5, 5, 8], [0, 1, 0, 2], [1, 3, 5, 4], 89)
_slice([3, 7], [0, 4], [3, 0], 90)


def _pad(shape, pre, post, value, seed):
    x = randn(*shape, seed=seed)
    out = [d + a + b for d, a, b in zip(shape, pre, post)]
    torch_pad = []
    for a, b in zip(reversed(pre), reversed(post)):
        torch_pad += [a, b]

    def build(g, ins):
        y = internal(g, out)
        g.node("XNNStaticConstantPad", {"pre_paddings": pre, "post_paddings": post,
                                        "padding_value": value, "input_id": ins[0],
                                        "output_id": y, "flags": 0})
        return [y]

    case("StaticConstantPad", f"{shape} pre {pre} post {post} value {value}", [x], build,
         lambda t: [F.pad(t, torch_pad, value=value)])


_pad([2, 3], [1, 0], [0, 2], 0.0, 91)
_pad([1, 3, 3, 4], [0, 1, 2, 0], [0, 1, 0, 3], -1.5, 92)


def _concat(n, shapes, axis, seed):
    xs = [randn(*s, seed=seed + i) for i, s in enumerate(shapes)]
    out = list(torch.cat(xs, axis).shape)
    kind = f"XNNConcatenate{n}"

    def build(g, ins):
        y = internal(g, out)
        fields = {"axis": axis, "output_id": y, "flags": 0}
        for i in range(5):
            fields[f"input{i + 1}_id"] = ins[i] if i < n else INVALID_ID
        g.node(kind, fields)
        return [y]

    case(f"Concatenate{n}", f"{shapes} on axis {axis}", xs, build, lambda *ts: [torch.cat(ts, axis)])


_concat(2, [[2, 3], [2, 5]], 1, 93)
_concat(2, [[1, 4, 4, 3], [1, 4, 4, 5]], 3, 94)
_concat(3, [[1, 2], [3, 2], [2, 2]], 0, 95)
_concat(4, [[2, 1, 3], [2, 2, 3], [2, 3, 3], [2, 1, 3]], 1, 96)
_concat(5, [[1, 2, 2, 1], [1, 2, 2, 2], [1, 2, 2, 3], [1, 2, 2, 1], [1, 2, 2, 2]], 3, 97)


def _resize(shape, new_hw, align, seed):
    x = randn(*shape, seed=seed)

    def build(g, ins):
        y = internal(g, [shape[0], new_hw[0], new_hw[1], shape[3]])
        g.node("XNNStaticResizeBilinear2D", {"new_height": new_hw[0], "new_width": new_hw[1],
                                             "input_id": ins[0], "output_id": y,
                                             "flags": 0x8 if align else 0})
        return [y]

    case("StaticResizeBilinear2D", f"{shape} to {new_hw}" + (" align corners" if align else ""),
         [x], build,
         lambda t: [nhwc(F.interpolate(nchw(t), size=new_hw, mode="bilinear", align_corners=align))],
         rtol=1e-5, atol=2e-6)


_resize([1, 4, 5, 3], [8, 10], False, 98)
_resize([2, 5, 3, 2], [7, 4], True, 99)
_resize([1, 6, 6, 4], [3, 4], False, 100)

# ---------------------------------------------------------------------------
# scaled dot-product attention


def _sdpa(b, h, t, n, c, d, seed):
    q = randn(b, h, t, c, seed=seed)
    k = randn(b, h, n, c, seed=seed + 1)
    v = randn(b, h, n, d, seed=seed + 2)
    scale = torch.full((c,), 1.0 / c ** 0.5)
    mask = torch.triu(torch.full((t, n), -INF), diagonal=1 + n - t) if t <= n else torch.zeros(t, n)

    def ref(qq, kk, vv):
        logits = (qq * scale) @ kk.transpose(-1, -2) + mask
        return [torch.softmax(logits, -1) @ vv]

    def build(g, ins):
        y = internal(g, [b, h, t, d])
        g.node("XNNScaledDotProductAttention", {"query_id": ins[0], "key_id": ins[1], "value_id": ins[2],
                                                "scale_id": const(g, scale), "mask_id": const(g, mask),
                                                "output_id": y, "flags": 0})
        return [y]

    case("ScaledDotProductAttention", f"q [{b}, {h}, {t}, {c}], kv [{n}], causal mask", [q, k, v],
         build, ref, rtol=1e-4, atol=1e-5)


_sdpa(1, 2, 4, 6, 8, 5, 110)
_sdpa(2, 1, 3, 3, 4, 4, 111)
