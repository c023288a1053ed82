"""Int8 XNNPACK node cases. Each graph quantizes its float inputs with
Convert nodes, runs the node on qint8 (or quint8 / qdint8) values and
converts the result back; the reference does the same in PyTorch with
simulated quantization, so results may differ by one quantization step of
the output (ties and float rounding), which is the tolerance."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from xnn_case_lib import (INF, INVALID_ID, case, dequantize_out, fake_quant, internal, nchw, nhwc,
                          node_1x1, node_2x1, per_tensor, qparams_for, quantize_in, randn, round_f32,
                          shape_of)


def _q_in(t, dtype="qint8"):
    return qparams_for(t, dtype)


# ---------------------------------------------------------------------------
# Convert


def _convert(dtype, shape, seed):
    x = randn(*shape, seed=seed, scale=2.0)
    s, z = _q_in(x, dtype)
    case("Convert", f"fp32 -> {dtype} -> fp32 {shape}", [x],
         lambda g, ins: [dequantize_out(g, quantize_in(g, ins[0], s, z, dtype))],
         lambda t: [fake_quant(t, s, z, dtype)], rtol=0, atol=s * 1.001)


_convert("qint8", [3, 11], 200)
_convert("quint8", [2, 2, 5], 201)

# requantize qint8 -> qint8 with other parameters
x_rq = randn(4, 6, seed=202)
s1, z1 = _q_in(x_rq)
s2, z2 = round_f32(s1 * 1.7), -5


def _build_requant(g, ins):
    q1 = quantize_in(g, ins[0], s1, z1)
    q2 = node_1x1(g, "XNNConvert", q1, [4, 6], dtype="qint8", quant=per_tensor(s2, z2))
    return [dequantize_out(g, q2)]


case("Convert", "qint8 -> qint8 requantization", [x_rq], _build_requant,
     lambda t: [fake_quant(fake_quant(t, s1, z1), s2, z2)], rtol=0, atol=s2 * 1.001)

# ---------------------------------------------------------------------------
# static int8 fully connected and convolution


def _quant_weights(w: torch.Tensor, per_channel: bool, axis: int = 0):
    """Symmetric int8 weights: (q, scales)."""
    if per_channel:
        dims = [d for d in range(w.dim()) if d != axis]
        amax = w.abs().amax(dim=dims).clamp(min=1e-8)
        scales = (amax / 127).to(torch.float32)
        shape = [1] * w.dim()
        shape[axis] = -1
        q = torch.clamp(torch.round(w / scales.reshape(shape)), -127, 127).to(torch.int8)
        return q, scales
    scale = round_f32(float(w.abs().max()) / 127)
    return torch.clamp(torch.round(w / scale), -127, 127).to(torch.int8), torch.tensor([scale])


def _weight_value(g, q, scales, per_channel, axis, dims):
    data = q.contiguous().numpy().tobytes()
    if per_channel:
        quant = {"PerChannelQuant": {"scale": [float(s) for s in scales], "channel_dim": axis}}
        return g.value("qcint8", dims, constant=data, quant=quant)
    return g.value("qint8", dims, constant=data, quant=per_tensor(float(scales[0]), 0))


def _bias_value(g, b, acc_scales, per_channel):
    q = torch.round(b / acc_scales).to(torch.int32)
    if per_channel:
        quant = {"PerChannelQuant": {"scale": [float(s) for s in acc_scales], "channel_dim": 0}}
        return g.value("qcint32", [b.numel()], constant=q.numpy().tobytes(), quant=quant), q
    return g.value("qint32", [b.numel()], constant=q.numpy().tobytes(),
                   quant=per_tensor(float(acc_scales[0]), 0)), q


def _qfc(desc, rows, k, n, per_channel, rng=None, seed=0):
    x = randn(rows, k, seed=seed)
    w = randn(n, k, seed=seed + 1, scale=0.4)
    b = randn(n, seed=seed + 2)
    sx, zx = _q_in(x)
    wq, ws = _quant_weights(w, per_channel)
    acc = (sx * ws).to(torch.float32)
    bq = torch.round(b / acc)
    y_float = F.linear(fake_quant(x, sx, zx), wq.float() * ws.reshape(-1, 1), bq * acc)
    if rng:
        y_float = y_float.clamp(*rng)
    sy, zy = _q_in(y_float)

    def build(g, ins):
        xq = quantize_in(g, ins[0], sx, zx)
        wid = _weight_value(g, wq, ws, per_channel, 0, [n, k])
        bid, _ = _bias_value(g, b, acc, per_channel)
        yq = internal(g, [rows, n], "qint8", per_tensor(sy, zy))
        g.node("XNNFullyConnected", {"input1_id": xq, "filter_id": wid, "bias_id": bid,
                                     "output_id": yq, "flags": 0}, output_min_max=rng)
        return [dequantize_out(g, yq)]

    case("QS8FullyConnected", desc, [x], build, lambda t: [fake_quant(y_float, sy, zy)],
         rtol=0, atol=sy * 1.001)


_qfc("[5, 12] -> 7, per-tensor weights", 5, 12, 7, False, seed=210)
_qfc("[9, 33] -> 10, per-channel weights, relu", 9, 33, 10, True, rng=(0.0, INF), seed=211)


def _qconv(desc, node, n, h, w_, cin, cout, k, *, stride=1, pad=0, groups=1, rng=None, seed=0):
    x = randn(n, h, w_, cin, seed=seed)
    depthwise = node == "XNNDepthwiseConv2d"
    wt = randn(cout, cin // groups, k, k, seed=seed + 1, scale=0.3)
    b = randn(cout, seed=seed + 2)
    sx, zx = _q_in(x)
    wq, ws = _quant_weights(wt, True, 0)
    acc = (sx * ws).to(torch.float32)
    bq = torch.round(b / acc)
    y_float = F.conv2d(F.pad(nchw(fake_quant(x, sx, zx)), (pad,) * 4), wq.float() * ws.reshape(-1, 1, 1, 1),
                       bq * acc, stride=stride, groups=groups)
    if rng:
        y_float = y_float.clamp(*rng)
    y_float = nhwc(y_float)
    sy, zy = _q_in(y_float)
    out_shape = list(y_float.shape)

    def build(g, ins):
        xq = quantize_in(g, ins[0], sx, zx)
        if depthwise:  # [1, k, k, cout], scales along dim 3
            wid = _weight_value(g, wq.permute(1, 2, 3, 0), ws, True, 3, [1, k, k, cout])
        else:
            wid = _weight_value(g, wq.permute(0, 2, 3, 1), ws, True, 0, [cout, k, k, cin // groups])
        bid, _ = _bias_value(g, b, acc, True)
        yq = internal(g, out_shape, "qint8", per_tensor(sy, zy))
        g.node(node, {"padding_top": pad, "padding_right": pad, "padding_bottom": pad,
                      "padding_left": pad, "kernel_height": k, "kernel_width": k,
                      "subsampling_height": stride, "subsampling_width": stride,
                      "dilation_height": 1, "dilation_width": 1,
                      "group_input_channels": 1 if depthwise else cin // groups,
                      "group_output_channels": 1 if depthwise else cout // groups,
                      "groups": cin if depthwise else groups, "input1_id": xq, "filter_id": wid,
                      "bias_id": bid, "output_id": yq, "flags": 0}, output_min_max=rng)
        return [dequantize_out(g, yq)]

    case("QS8" + node[3:], desc, [x], build, lambda t: [fake_quant(y_float, sy, zy)],
         rtol=0, atol=sy * 1.001)


_qconv("3x3 pad 1, 3 -> 8, relu", "XNNConv2d", 1, 6, 6, 3, 8, 3, pad=1, rng=(0.0, INF), seed=220)
_qconv("1x1, 16 -> 12, 2 images", "XNNConv2d", 2, 3, 4, 16, 12, 1, seed=221)
_qconv("3x3 stride 2, groups 2", "XNNConv2d", 1, 7, 7, 4, 6, 3, stride=2, groups=2, seed=222)
_qconv("depthwise 3x3 pad 1, 10 channels", "XNNDepthwiseConv2d", 1, 5, 5, 10, 10, 3, pad=1,
       groups=10, seed=223)

# ---------------------------------------------------------------------------
# dynamic int8 fully connected: qdint8 activations, qcint8 / qcint4 / qbint4 weights


def _qd8_rows(t: torch.Tensor):
    """XNNPACK's per-row dynamic quantization of a 2-D float tensor."""
    rows = []
    for r in t:
        lo = min(0.0, float(r.min()))
        hi = max(0.0, float(r.max()))
        m = 1.0 if lo == hi else round_f32(255.0 / (hi - lo))
        zp_a, zp_b = -128.0 - lo * m, 127.0 - hi * m
        zp = zp_a if (-128.0 + lo * m) + (127.0 + hi * m) > 0 else zp_b
        zp = int(torch.round(torch.tensor(min(127.0, max(-128.0, zp)))))
        q = torch.clamp(torch.round(r * torch.tensor(m, dtype=torch.float32)) + zp, -128, 127)
        rows.append((q - zp) * torch.tensor(1.0 / m, dtype=torch.float32))
    return torch.stack(rows)


def _bf16_from_fp32_scale(s: torch.Tensor) -> torch.Tensor:
    """ExecuTorch's runtime hands XNNPACK fp32 block scales (older payloads) as
    bf16: scaled up by 1.00389105, then truncated."""
    bits = (s.to(torch.float32) * torch.tensor(1.00389105, dtype=torch.float32)).view(torch.int32)
    return (bits & -65536).view(torch.float32)


def _qd8fc(desc, rows, k, n, wtype, block=0, seed=0, fp32_scales=False):
    x = randn(rows, k, seed=seed)
    w = randn(n, k, seed=seed + 1, scale=0.4)
    b = randn(n, seed=seed + 2)
    if wtype == "qcint8":
        wq, ws = _quant_weights(w, True, 0)
        w_deq = wq.float() * ws.reshape(-1, 1)
    else:
        if wtype == "qcint4":
            scales = (w.abs().amax(dim=1).clamp(min=1e-8) / 7).to(torch.float32)
            wq = torch.clamp(torch.round(w / scales.reshape(-1, 1)), -8, 7).to(torch.int8)
            w_deq = wq.float() * scales.reshape(-1, 1)
        else:  # qbint4: a bf16 scale per block of `block` input channels
            wb = w.reshape(n, k // block, block)
            scales = (wb.abs().amax(dim=2).clamp(min=1e-8) / 7).to(torch.float32)
            if not fp32_scales:
                scales = scales.to(torch.bfloat16).to(torch.float32)
            wq = torch.clamp(torch.round(wb / scales.unsqueeze(-1)), -8, 7).to(torch.int8).reshape(n, k)
            used = _bf16_from_fp32_scale(scales) if fp32_scales else scales
            w_deq = (wq.reshape(n, k // block, block).float() * used.unsqueeze(-1)).reshape(n, k)
        ws = scales
    y_ref = F.linear(_qd8_rows(x), w_deq, b)

    def weights(g):
        if wtype == "qcint8":
            return g.value("qcint8", [n, k], constant=wq.numpy().tobytes(),
                           quant={"PerChannelQuant": {"scale": [float(s) for s in ws], "channel_dim": 0}})
        nib = (wq.to(torch.int16) + 8).to(torch.uint8)
        if k % 2:
            nib = torch.cat([nib, torch.zeros(n, 1, dtype=torch.uint8)], 1)
        packed = (nib[:, 0::2] | (nib[:, 1::2] << 4)).contiguous().numpy().tobytes()
        if wtype == "qcint4":
            return g.value("qcint4", [n, k], constant=packed,
                           quant={"PerChannelQuant": {"scale": [float(s) for s in ws], "channel_dim": 0}})
        if fp32_scales:
            return g.value("qbint4", [n, k], constant=packed,
                           quant={"PerChannelGroupQuant": {"scale": [float(v) for v in ws.flatten()],
                                                           "channel_dim": 0, "group_size": block}})
        bf16 = ws.to(torch.bfloat16).view(torch.int16).flatten().tolist()
        return g.value("qbint4", [n, k], constant=packed,
                       quant={"PerChannelGroupQuant": {"scale": [], "channel_dim": 0, "group_size": block,
                                                       "scale_bf16": [v & 0xFFFF for v in bf16]}})

    def build(g, ins):
        xq = node_1x1(g, "XNNConvert", ins[0], [rows, k], dtype="qdint8",
                      quant={"PerTokenDynamicQuant": {"num_nonbatch_dims": 1}})
        bid = g.value("fp32", [n], constant=b.numpy().tobytes())
        y = internal(g, [rows, n])
        g.node("XNNFullyConnected", {"input1_id": xq, "filter_id": weights(g), "bias_id": bid,
                                     "output_id": y, "flags": 0})
        return [y]

    case("QD8FullyConnected", desc, [x], build, lambda t: [y_ref], rtol=1e-4, atol=1e-4)


_qd8fc("[4, 24] -> 9, qcint8 weights", 4, 24, 9, "qcint8", seed=230)
_qd8fc("[3, 19] -> 6, qcint4 weights (odd input channels)", 3, 19, 6, "qcint4", seed=231)
_qd8fc("[2, 64] -> 5, qbint4 weights, blocks of 32", 2, 64, 5, "qbint4", block=32, seed=232)
_qd8fc("[3, 64] -> 4, qbint4 weights with fp32 block scales (older payloads: used as bf16)", 3, 64, 4,
       "qbint4", block=32, seed=233, fp32_scales=True)

# ---------------------------------------------------------------------------
# elementwise, activations, pooling and data movement on qint8


def _qbinary(kind, fn, a_shape, b_shape, seed):
    a = randn(*a_shape, seed=seed)
    b = randn(*b_shape, seed=seed + 1)
    sa, za = _q_in(a)
    sb, zb = _q_in(b)
    y_float = fn(fake_quant(a, sa, za), fake_quant(b, sb, zb))
    sy, zy = _q_in(y_float)
    out = list(y_float.shape)

    def build(g, ins):
        y = node_2x1(g, kind, quantize_in(g, ins[0], sa, za), quantize_in(g, ins[1], sb, zb), out,
                     dtype="qint8", quant=per_tensor(sy, zy))
        return [dequantize_out(g, y)]

    case("QS8" + kind[3:], f"{a_shape} with {b_shape}", [a, b], build,
         lambda x, y: [fake_quant(y_float, sy, zy)], rtol=0, atol=sy * 1.001)


_qbinary("XNNAdd", torch.add, [2, 3, 8], [2, 3, 8], 240)
_qbinary("XNNAdd", torch.add, [1, 4, 4, 6], [6], 241)
_qbinary("XNNMultiply", torch.mul, [3, 5], [3, 5], 242)


def _qunary(kind, fn, shape, seed, extra=None, rng=None):
    x = randn(*shape, seed=seed, scale=2.0)
    sx, zx = _q_in(x)
    y_float = fn(fake_quant(x, sx, zx))
    sy, zy = _q_in(y_float)

    def build(g, ins):
        y = internal(g, shape, "qint8", per_tensor(sy, zy))
        fields = {"input_id": quantize_in(g, ins[0], sx, zx), "output_id": y, "flags": 0}
        fields.update(extra or {})
        g.node(kind, fields, output_min_max=rng)
        return [dequantize_out(g, y)]

    case("QS8" + kind[3:], f"{shape}", [x], build, lambda t: [fake_quant(y_float, sy, zy)],
         rtol=0, atol=sy * 1.001)


_qunary("XNNSigmoid", torch.sigmoid, [4, 9], 250)
_qunary("XNNTanh", torch.tanh, [4, 9], 251)
_qunary("XNNLeakyReLU", lambda t: F.leaky_relu(t, 0.1), [2, 8], 252, {"negative_slope": 0.1})
_qunary("XNNELU", F.elu, [2, 8], 253, {"alpha": 1.0})
_qunary("XNNClamp", lambda t: t.clamp(0.0, 1.5), [3, 6], 254, rng=(0.0, 1.5))


def _qpool(kind, shape, k, stride, pad, seed):
    x = randn(*shape, seed=seed)
    sx, zx = _q_in(x)
    xf = nchw(fake_quant(x, sx, zx))
    if kind == "XNNMaxPooling2d":
        y_float = nhwc(F.max_pool2d(F.pad(xf, (pad,) * 4, value=-INF), k, stride))
        sy, zy = sx, zx
    else:
        num = F.avg_pool2d(F.pad(xf, (pad,) * 4), k, stride, divisor_override=1)
        den = F.avg_pool2d(F.pad(torch.ones_like(xf), (pad,) * 4), k, stride, divisor_override=1)
        y_float = nhwc(num / den)
        sy, zy = _q_in(y_float)
    out = list(y_float.shape)

    def build(g, ins):
        y = internal(g, out, "qint8", per_tensor(sy, zy))
        g.node(kind, {"padding_top": pad, "padding_right": pad, "padding_bottom": pad, "padding_left": pad,
                      "pooling_height": k, "pooling_width": k, "stride_height": stride,
                      "stride_width": stride, "dilation_height": 1, "dilation_width": 1,
                      "input_id": quantize_in(g, ins[0], sx, zx), "output_id": y, "flags": 0x40})
        return [dequantize_out(g, y)]

    case("QS8" + kind[3:], f"{shape} {k}x{k} stride {stride} pad {pad}", [x], build,
         lambda t: [fake_quant(y_float, sy, zy)], rtol=0, atol=sy * 1.001)


_qpool("XNNMaxPooling2d", [1, 6, 6, 5], 3, 2, 1, 260)
_qpool("XNNAvgPooling2d", [1, 5, 5, 4], 3, 1, 1, 261)

x_gap = randn(1, 5, 6, 7, seed=262)
s_gap, z_gap = _q_in(x_gap)
y_gap = fake_quant(x_gap, s_gap, z_gap).mean(dim=(1, 2), keepdim=True)
s_gy, z_gy = _q_in(y_gap)
case("QS8GlobalAvgPooling2d", "[1, 5, 6, 7] keep dims", [x_gap],
     lambda g, ins: [dequantize_out(g, node_1x1(g, "XNNGlobalAvgPooling2d",
                                                quantize_in(g, ins[0], s_gap, z_gap), [1, 1, 1, 7],
                                                dtype="qint8", quant=per_tensor(s_gy, z_gy), flags=0x40))],
     lambda t: [fake_quant(y_gap, s_gy, z_gy)], rtol=0, atol=s_gy * 1.001)


def _qcat(shapes, axis, seed):
    xs = [randn(*s, seed=seed + i, scale=1.0 + i) for i, s in enumerate(shapes)]
    params = [_q_in(x) for x in xs]
    y_float = torch.cat([fake_quant(x, s, z) for x, (s, z) in zip(xs, params)], axis)
    sy, zy = _q_in(y_float)
    out = list(y_float.shape)

    def build(g, ins):
        y = internal(g, out, "qint8", per_tensor(sy, zy))
        fields = {"axis": axis, "output_id": y, "flags": 0}
        for i in range(5):
            fields[f"input{i + 1}_id"] = (quantize_in(g, ins[i], *params[i]) if i < len(xs) else INVALID_ID)
        g.node(f"XNNConcatenate{len(xs)}", fields)
        return [dequantize_out(g, y)]

    case("QS8Concatenate", f"{shapes} on axis {axis}, inputs quantized differently", xs, build,
         lambda *ts: [fake_quant(y_float, sy, zy)], rtol=0, atol=sy * 1.001)


_qcat([[2, 3], [2, 4]], 1, 270)
_qcat([[1, 2, 2, 3], [1, 2, 2, 1], [1, 2, 2, 2]], 3, 272)

x_qt = randn(1, 3, 4, 5, seed=280)
s_qt, z_qt = _q_in(x_qt)


def _build_qtranspose(g, ins):
    xq = quantize_in(g, ins[0], s_qt, z_qt)
    y = internal(g, [1, 4, 5, 3], "qint8", per_tensor(s_qt, z_qt))
    g.node("XNNStaticTranspose", {"num_dims": 4, "perm": [0, 2, 3, 1], "input_id": xq, "output_id": y, "flags": 0})
    r = internal(g, [4, 15], "qint8", per_tensor(s_qt, z_qt))
    g.node("XNNStaticReshape", {"num_dims": 2, "new_shape": [4, 0], "input_id": y, "output_id": r, "flags": 0})
    return [dequantize_out(g, r)]


case("QS8StaticTranspose", "[1, 3, 4, 5] to NHWC, then reshaped to [4, 15]", [x_qt], _build_qtranspose,
     lambda t: [fake_quant(t, s_qt, z_qt).permute(0, 2, 3, 1).reshape(4, 15)], rtol=0, atol=s_qt * 1.001)
