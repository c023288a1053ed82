"""quantized_decomposed:: (ExecuTorch's out variants, kernels/quantized/quantized.yaml).

torch 1.13 has no quantized_decomposed namespace: every case gives the schema
and a reference written with plain torch ops, step by step as PyTorch's
torch/ao/quantization/fx/_decomposed.py computes it (its dtype promotions
decide ties: a per-tensor Python float scale does not promote a float32
input, a per-channel float64 scales tensor does)."""
import torch

from oplib import T, case

NS = "quantized_decomposed::"
# The dequantize schemas' kwarg-only `ScalarType? out_dtype` has the name of
# case()'s own out_dtype= option, so these case schemas declare it before the
# `*` and cases pass it by position: the KernelCall layout (inputs in schema
# order, then out) is the same.
Q_TENSOR = (NS + "quantize_per_tensor.out(Tensor input, float scale, int zero_point, "
            "int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)")
Q_TENSOR_T = (NS + "quantize_per_tensor.Tensor_out(Tensor input, Tensor scale, Tensor zero_point, "
              "int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)")
Q_CHANNEL = (NS + "quantize_per_channel.out(Tensor input, Tensor scales, Tensor zero_points, "
             "int axis, int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out) "
             "-> Tensor(a!)")
Q_TOKEN = (NS + "quantize_per_token.out(Tensor input, Tensor scales, Tensor zero_points, "
           "int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)")
DQ_TENSOR = (NS + "dequantize_per_tensor.out(Tensor input, float scale, int zero_point, "
             "int quant_min, int quant_max, ScalarType dtype, ScalarType? out_dtype=None, *, "
             "Tensor(a!) out) -> Tensor(a!)")
DQ_TENSOR_T = (NS + "dequantize_per_tensor.Tensor_out(Tensor input, Tensor scale, "
               "Tensor zero_point, int quant_min, int quant_max, ScalarType dtype, "
               "ScalarType? out_dtype=None, *, Tensor(a!) out) -> Tensor(a!)")
DQ_CHANNEL = (NS + "dequantize_per_channel.out(Tensor input, Tensor scales, Tensor? zero_points, "
              "int axis, int quant_min, int quant_max, ScalarType dtype, "
              "ScalarType? out_dtype=None, *, Tensor(a!) out) -> Tensor(a!)")
DQ_TOKEN = (NS + "dequantize_per_token.out(Tensor input, Tensor scales, Tensor zero_points, "
            "int quant_min, int quant_max, ScalarType dtype, ScalarType output_dtype, *, "
            "Tensor(a!) out) -> Tensor(a!)")
CHOOSE = (NS + "choose_qparams.Tensor_out(Tensor input, int quant_min, int quant_max, float eps, "
          "ScalarType dtype, *, Tensor(a!) scale_out, Tensor(b!) zero_point_out) "
          "-> (Tensor(a!), Tensor(b!))")
CHOOSE_TOKEN = (NS + "choose_qparams_per_token_asymmetric.out(Tensor input, ScalarType dtype, *, "
                "Tensor(a!) scale_out, Tensor(b!) zero_point_out) -> (Tensor(a!), Tensor(b!))")

RANGES = {torch.uint8: (0, 255), torch.int8: (-128, 127), torch.int16: (-32768, 32767),
          torch.int32: (-(2**31), 2**31 - 1)}
FLOATS = ["float32", "float64", "float16", "bfloat16"]


def widen(x):
    return x.float() if x.dtype in (torch.float16, torch.bfloat16) else x


def to_axis_zero(x, axis):
    order = list(range(x.dim()))
    order[axis], order[0] = 0, axis
    return x.permute(order), order


def q_tensor(x, scale, zp, qmin, qmax, dtype):
    return torch.clamp(torch.round(widen(x) * (1.0 / scale)) + zp, qmin, qmax).to(dtype)


def q_tensor_t(x, scale, zp, qmin, qmax, dtype):
    return q_tensor(x, scale.item(), zp.item(), qmin, qmax, dtype)


def q_channel(x, scales, zps, axis, qmin, qmax, dtype):
    x, order = to_axis_zero(widen(x), axis)
    shape = [1] * x.dim()
    shape[0] = scales.shape[0]
    res = torch.clamp(torch.round(x * (1.0 / scales.view(shape))) + zps.view(shape), qmin, qmax)
    return res.permute(order).to(dtype)


def q_token(x, scales, zps, qmin, qmax, dtype):
    return x.mul(1.0 / scales).add(zps).round().clamp(qmin, qmax).to(dtype)


def dq_tensor(q, scale, zp, qmin, qmax, dtype, out_dtype=None):
    return (q.to(out_dtype or torch.float32) - zp) * scale


def dq_tensor_t(q, scale, zp, qmin, qmax, dtype, out_dtype=None):
    return dq_tensor(q, scale.item(), zp.item(), qmin, qmax, dtype, out_dtype=out_dtype)


def dq_channel(q, scales, zps, axis, qmin, qmax, dtype, out_dtype=None):
    q, order = to_axis_zero(q, axis)
    shape = [1] * q.dim()
    shape[0] = scales.shape[0]
    res = (q - zps.view(shape)) * scales.view(shape) if zps is not None else q * scales.view(shape)
    return res.to(out_dtype or torch.float32).permute(order)


def dq_token(q, scales, zps, qmin, qmax, dtype, output_dtype):
    return ((q - zps) * scales).to(output_dtype)


def choose(x, qmin, qmax, eps, dtype):
    mn, mx = torch.aminmax(x)
    min_neg = torch.min(mn, torch.zeros_like(mn))
    max_pos = torch.max(mx, torch.zeros_like(mx))
    scale = (max_pos - min_neg) / float(qmax - qmin)
    scale = torch.max(scale, torch.tensor([eps], dtype=torch.float32))
    zp = qmin - torch.round(min_neg / scale).to(torch.int)
    zp = torch.clamp(zp, qmin, qmax)
    return scale.to(torch.float64), zp.to(torch.int64)


def choose_token(x, dtype):
    qmin, qmax = -128, 127
    mn = torch.amin(x, dim=-1, keepdim=True)
    mx = torch.amax(x, dim=-1, keepdim=True)
    min_neg = torch.min(mn, torch.zeros_like(mn))
    max_pos = torch.max(mx, torch.zeros_like(mx))
    scale = ((max_pos - min_neg) / float(qmax - qmin)).clamp(min=torch.finfo(torch.float32).eps)
    dmin, dmax = min_neg / scale, max_pos / scale
    zp = torch.where((qmin + dmin) + (qmax + dmax) > 0, qmin - dmin, qmax - dmax)
    zp = torch.clamp(zp, qmin, qmax).round()
    return scale.to(torch.float64), zp.to(torch.int64)


def scalar(v, dtype):
    return T([1], dtype, values=[v])


def qvals(shape, dtype, **kw):
    lo, hi = RANGES[dtype]
    return T(shape, str(dtype).replace("torch.", ""), low=max(lo, -200), high=min(hi, 201), **kw)


def chan(n, dtype="float64", low=0.01, high=0.1):
    return T([n], dtype, low=low, high=high)


def zps(n, dtype="int64", low=-5, high=6):
    return T([n], dtype, low=low, high=high)


# Ties (x / scale = k + 0.5) round half to even: scale 0.5, x = 0.25 + 0.5k.
TIES = [0.25, 0.75, -0.25, -0.75, 1.25, -1.25, 63.75, -64.25, 100.0, -100.0]

# Near-ties with inexact scales: where float vs double products (PyTorch's
# promotion rules) round differently.
NEAR = [(k - 200) * 0.05 for k in range(401)]
NEAR2 = NEAR + [v * 3 for v in NEAR]

CASES = [
    # -- quantize_per_tensor ---------------------------------------------------
    case(NS + "quantize_per_tensor.out", T([401], values=NEAR), 0.1, 0, -128, 127, torch.int8,
         schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([401], "float64", values=NEAR), 0.1, 1, -128, 127,
         torch.int8, schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([2, 5], values=TIES), 0.5, 0, -128, 127, torch.int8,
         schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([2, 5], values=TIES), 0.5, 3, 0, 255, torch.uint8,
         schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([3, 4], low=-3, high=3), 0.02, 5, -128, 127,
         torch.int8, schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([3, 4], low=-3, high=3), 0.0123, -7, -100, 100,
         torch.int16, schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([3, 4], low=-300, high=300), 0.003, 12, -(2**31),
         2**31 - 1, torch.int32, schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([0, 3]), 0.1, 0, 0, 255, torch.uint8,
         schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([]), 0.1, 2, -128, 127, torch.int8,
         schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([1]), 0.1, 2, -128, 127, torch.int8,
         schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([2, 3, 4, 5], low=-2, high=2, channels_last=True),
         0.015, 128, 0, 255, torch.uint8, schema=Q_TENSOR, ref=q_tensor),
    case(NS + "quantize_per_tensor.out", T([1037], low=-2, high=2), 0.01, 0, -127, 127,
         torch.int8, schema=Q_TENSOR, ref=q_tensor),
] + [
    case(NS + "quantize_per_tensor.out", T([4, 6], dt, low=-2, high=2), 0.01, -3, -128, 127,
         torch.int8, schema=Q_TENSOR, ref=q_tensor)
    for dt in FLOATS
] + [
    # -- quantize_per_tensor.Tensor_out ----------------------------------------
    case(NS + "quantize_per_tensor.Tensor_out", T([3, 4], low=-2, high=2), scalar(0.02, "float64"),
         scalar(4, "int64"), -128, 127, torch.int8, schema=Q_TENSOR_T, ref=q_tensor_t),
    case(NS + "quantize_per_tensor.Tensor_out", T([2, 5], values=TIES), scalar(0.5, "float32"),
         scalar(1, "int32"), 0, 255, torch.uint8, schema=Q_TENSOR_T, ref=q_tensor_t),
    case(NS + "quantize_per_tensor.Tensor_out", T([0]), scalar(0.5, "float64"),
         scalar(0, "int64"), -128, 127, torch.int8, schema=Q_TENSOR_T, ref=q_tensor_t),
    case(NS + "quantize_per_tensor.Tensor_out", T([2, 2, 3, 3], "float16", channels_last=True),
         T([], "float64", values=[0.03]), T([], "int64", values=[-2]), -128, 127, torch.int8,
         schema=Q_TENSOR_T, ref=q_tensor_t),
    # -- quantize_per_channel --------------------------------------------------
    case(NS + "quantize_per_channel.out", T([3, 4], low=-2, high=2), chan(3), zps(3), 0,
         -128, 127, torch.int8, schema=Q_CHANNEL, ref=q_channel),
    case(NS + "quantize_per_channel.out", T([3, 4], low=-2, high=2), chan(4, "float32"),
         zps(4, "int32", 100, 150), -1, 0, 255, torch.uint8, schema=Q_CHANNEL, ref=q_channel),
    case(NS + "quantize_per_channel.out", T([2, 3, 4, 5], low=-2, high=2, channels_last=True),
         chan(3), zps(3), 1, -128, 127, torch.int8, schema=Q_CHANNEL, ref=q_channel),
    case(NS + "quantize_per_channel.out", T([2, 3, 4, 5], low=-2, high=2), chan(5), zps(5), -1,
         -1000, 1000, torch.int16, schema=Q_CHANNEL, ref=q_channel),
    case(NS + "quantize_per_channel.out", T([2, 5], values=TIES), T([2], "float64",
         values=[0.5, 0.5]), T([2], "int64", values=[0, 1]), 0, -(2**31), 2**31 - 1,
         torch.int32, schema=Q_CHANNEL, ref=q_channel),
    case(NS + "quantize_per_channel.out", T([2, 401], values=NEAR2), T([2], "float64",
         values=[0.1, 0.3]), T([2], "int64", values=[0, 1]), 0, -128, 127, torch.int8,
         schema=Q_CHANNEL, ref=q_channel),
    case(NS + "quantize_per_channel.out", T([2, 401], values=NEAR2), T([2], "float32",
         values=[0.1, 0.3]), T([2], "int64", values=[0, 1]), 0, -128, 127, torch.int8,
         schema=Q_CHANNEL, ref=q_channel),
    case(NS + "quantize_per_channel.out", T([0, 4]), chan(0), zps(0), 0, -128, 127, torch.int8,
         schema=Q_CHANNEL, ref=q_channel),
    case(NS + "quantize_per_channel.out", T([1]), chan(1), zps(1), 0, -128, 127, torch.int8,
         schema=Q_CHANNEL, ref=q_channel),
] + [
    case(NS + "quantize_per_channel.out", T([4, 3], dt, low=-2, high=2), chan(4), zps(4), 0,
         -128, 127, torch.int8, schema=Q_CHANNEL, ref=q_channel)
    for dt in FLOATS
] + [
    # -- quantize_per_token ----------------------------------------------------
    case(NS + "quantize_per_token.out", T([3, 8], low=-2, high=2), T(
         [3, 1], "float64", low=0.01, high=0.05), T([3, 1], "int64", low=-10, high=10),
         -128, 127, torch.int8, schema=Q_TOKEN, ref=q_token),
    case(NS + "quantize_per_token.out", T([2, 3, 4], low=-2, high=2),
         T([2, 3, 1], "float32", low=0.01, high=0.05), T([2, 3, 1], "int64", low=-10, high=10),
         -128, 127, torch.int8, schema=Q_TOKEN, ref=q_token),
    case(NS + "quantize_per_token.out", T([2, 5], values=TIES), T([2, 1], "float64",
         values=[0.5, 0.5]), T([2, 1], "int64", values=[1, 2]), 0, 255, torch.uint8,
         schema=Q_TOKEN, ref=q_token),
    case(NS + "quantize_per_token.out", T([2, 401], values=NEAR2), T([2, 1], "float64",
         values=[0.1, 0.3]), T([2, 1], "int64", values=[1, -1]), -128, 127, torch.int8,
         schema=Q_TOKEN, ref=q_token),
    case(NS + "quantize_per_token.out", T([2, 401], values=NEAR2), T([2, 1], "float32",
         values=[0.1, 0.3]), T([2, 1], "int64", values=[1, -1]), -128, 127, torch.int8,
         schema=Q_TOKEN, ref=q_token),
    case(NS + "quantize_per_token.out", T([0, 4]), T([0, 1], "float64"), T([0, 1], "int64"),
         -128, 127, torch.int8, schema=Q_TOKEN, ref=q_token),
    case(NS + "quantize_per_token.out", T([1, 1]), T([1, 1], "float64", low=0.01, high=0.02),
         T([1, 1], "int64"), -128, 127, torch.int8, schema=Q_TOKEN, ref=q_token),
] + [
    case(NS + "quantize_per_token.out", T([4, 6], dt, low=-2, high=2),
         T([4, 1], "float64", low=0.01, high=0.05), T([4, 1], "int64"), -1000, 1000,
         torch.int16, schema=Q_TOKEN, ref=q_token)
    for dt in FLOATS
] + [
    # -- dequantize_per_tensor -------------------------------------------------
    case(NS + "dequantize_per_tensor.out", qvals([3, 4], torch.int8), 0.02, 3, -128, 127,
         torch.int8, schema=DQ_TENSOR, ref=dq_tensor),
    case(NS + "dequantize_per_tensor.out", qvals([3, 4], torch.uint8), 0.1, 128, 0, 255,
         torch.uint8, schema=DQ_TENSOR, ref=dq_tensor),
    case(NS + "dequantize_per_tensor.out", qvals([3, 4], torch.int16), 0.003, -20, -32768, 32767,
         torch.int16, schema=DQ_TENSOR, ref=dq_tensor),
    case(NS + "dequantize_per_tensor.out", T([3, 4], "int32", low=-100000, high=100000), 1e-4, 7,
         -(2**31), 2**31 - 1, torch.int32, schema=DQ_TENSOR, ref=dq_tensor),
    case(NS + "dequantize_per_tensor.out", qvals([0, 2], torch.int8), 0.5, 0, -128, 127,
         torch.int8, schema=DQ_TENSOR, ref=dq_tensor),
    case(NS + "dequantize_per_tensor.out", qvals([], torch.int8), 0.5, 1, -128, 127,
         torch.int8, schema=DQ_TENSOR, ref=dq_tensor),
    case(NS + "dequantize_per_tensor.out", qvals([1], torch.int8), 0.5, 1, -128, 127,
         torch.int8, schema=DQ_TENSOR, ref=dq_tensor),
    case(NS + "dequantize_per_tensor.out", qvals([2, 3, 4, 5], torch.uint8, channels_last=True),
         0.05, 100, 0, 255, torch.uint8, schema=DQ_TENSOR, ref=dq_tensor),
    case(NS + "dequantize_per_tensor.out", qvals([1037], torch.int8), 0.0078, -1, -128, 127,
         torch.int8, schema=DQ_TENSOR, ref=dq_tensor),
] + [
    case(NS + "dequantize_per_tensor.out", qvals([4, 6], torch.int8), 0.013, -5, -128, 127,
         torch.int8, dt, schema=DQ_TENSOR, ref=dq_tensor)
    for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16]
] + [
    # -- dequantize_per_tensor.Tensor_out --------------------------------------
    case(NS + "dequantize_per_tensor.Tensor_out", qvals([3, 4], torch.int8),
         scalar(0.02, "float64"), scalar(3, "int64"), -128, 127, torch.int8,
         schema=DQ_TENSOR_T, ref=dq_tensor_t),
    case(NS + "dequantize_per_tensor.Tensor_out", qvals([2, 2, 3, 3], torch.uint8,
         channels_last=True), T([], "float32", values=[0.25]), T([], "int32", values=[9]), 0,
         255, torch.uint8, torch.float16, schema=DQ_TENSOR_T, ref=dq_tensor_t),
    case(NS + "dequantize_per_tensor.Tensor_out", qvals([0], torch.int8),
         scalar(0.02, "float64"), scalar(3, "int64"), -128, 127, torch.int8,
         schema=DQ_TENSOR_T, ref=dq_tensor_t),
    # -- dequantize_per_channel ------------------------------------------------
    case(NS + "dequantize_per_channel.out", qvals([3, 4], torch.int8), chan(3), zps(3), 0,
         -128, 127, torch.int8, schema=DQ_CHANNEL, ref=dq_channel),
    case(NS + "dequantize_per_channel.out", qvals([3, 4], torch.uint8), chan(4, "float32"),
         zps(4, "int32", 100, 150), -1, 0, 255, torch.uint8, schema=DQ_CHANNEL, ref=dq_channel),
    case(NS + "dequantize_per_channel.out", qvals([3, 4], torch.int8), chan(4), None, 1,
         -128, 127, torch.int8, schema=DQ_CHANNEL, ref=dq_channel),
    case(NS + "dequantize_per_channel.out", qvals([2, 3, 4, 5], torch.int8, channels_last=True),
         chan(3), zps(3), 1, -128, 127, torch.int8, schema=DQ_CHANNEL, ref=dq_channel),
    case(NS + "dequantize_per_channel.out", qvals([2, 3, 4, 5], torch.int16), chan(4), zps(4),
         -2, -32768, 32767, torch.int16, torch.float64, schema=DQ_CHANNEL,
         ref=dq_channel),
    case(NS + "dequantize_per_channel.out", T([2, 3], "int32", low=-5000, high=5000), chan(2),
         zps(2), 0, -(2**31), 2**31 - 1, torch.int32, torch.float16,
         schema=DQ_CHANNEL, ref=dq_channel),
    case(NS + "dequantize_per_channel.out", qvals([0, 4], torch.int8), chan(0), zps(0), 0,
         -128, 127, torch.int8, schema=DQ_CHANNEL, ref=dq_channel),
    case(NS + "dequantize_per_channel.out", qvals([1], torch.int8), chan(1), zps(1), 0,
         -128, 127, torch.int8, torch.bfloat16, schema=DQ_CHANNEL, ref=dq_channel),
    # -- dequantize_per_token --------------------------------------------------
    case(NS + "dequantize_per_token.out", qvals([3, 8], torch.int8),
         T([3, 1], "float64", low=0.01, high=0.05), T([3, 1], "int64", low=-10, high=10),
         -128, 127, torch.int8, torch.float32, schema=DQ_TOKEN, ref=dq_token),
    case(NS + "dequantize_per_token.out", qvals([2, 3, 4], torch.uint8),
         T([2, 3, 1], "float32", low=0.01, high=0.05), T([2, 3, 1], "int64", low=100, high=150),
         0, 255, torch.uint8, torch.float32, schema=DQ_TOKEN, ref=dq_token),
    case(NS + "dequantize_per_token.out", qvals([0, 4], torch.int8), T([0, 1], "float64"),
         T([0, 1], "int64"), -128, 127, torch.int8, torch.float32, schema=DQ_TOKEN, ref=dq_token),
    case(NS + "dequantize_per_token.out", qvals([1, 1], torch.int8), T([1, 1], "float64",
         low=0.01, high=0.02), T([1, 1], "int64"), -128, 127, torch.int8, torch.float32,
         schema=DQ_TOKEN, ref=dq_token),
] + [
    case(NS + "dequantize_per_token.out", qvals([4, 6], qd), T([4, 1], "float64", low=0.01,
         high=0.05), T([4, 1], "int64"), *RANGES[qd], qd, od, schema=DQ_TOKEN, ref=dq_token)
    for qd, od in [(torch.int16, torch.float64), (torch.int32, torch.float16),
                   (torch.int8, torch.bfloat16)]
] + [
    # -- choose_qparams.Tensor_out ---------------------------------------------
    case(NS + "choose_qparams.Tensor_out", T([4, 5]), -128, 127, 1e-5, torch.int8,
         schema=CHOOSE, ref=choose),
    case(NS + "choose_qparams.Tensor_out", T([4, 5], low=0.5, high=2.0), 0, 255, 1e-5,
         torch.uint8, schema=CHOOSE, ref=choose),
    case(NS + "choose_qparams.Tensor_out", T([4, 5], low=-3.0, high=-1.0), 0, 255, 1e-5,
         torch.uint8, schema=CHOOSE, ref=choose),
    case(NS + "choose_qparams.Tensor_out", T([1]), -128, 127, 1e-5, torch.int8,
         schema=CHOOSE, ref=choose),
    case(NS + "choose_qparams.Tensor_out", T([]), -128, 127, 1e-5, torch.int8,
         schema=CHOOSE, ref=choose),
    case(NS + "choose_qparams.Tensor_out", T([3], values=[0.0, 0.0, 0.0]), -128, 127, 1e-5,
         torch.int8, schema=CHOOSE, ref=choose),
    case(NS + "choose_qparams.Tensor_out", T([4, 5]), -128, 127, 0.5, torch.int8,
         schema=CHOOSE, ref=choose),
    case(NS + "choose_qparams.Tensor_out", T([2, 3, 4, 5], channels_last=True), -(2**31),
         2**31 - 1, 1e-7, torch.int32, schema=CHOOSE, ref=choose),
    case(NS + "choose_qparams.Tensor_out", T([1037], low=-1, high=4), -32768, 32767, 1e-5,
         torch.int16, schema=CHOOSE, ref=choose),
    # -- choose_qparams_per_token_asymmetric -----------------------------------
    case(NS + "choose_qparams_per_token_asymmetric.out", T([3, 8]), torch.int8,
         schema=CHOOSE_TOKEN, ref=choose_token),
    case(NS + "choose_qparams_per_token_asymmetric.out", T([2, 3, 7], low=0.5, high=2.0),
         torch.int8, schema=CHOOSE_TOKEN, ref=choose_token),
    case(NS + "choose_qparams_per_token_asymmetric.out", T([4, 5], low=-3.0, high=-1.0),
         torch.int8, schema=CHOOSE_TOKEN, ref=choose_token),
    case(NS + "choose_qparams_per_token_asymmetric.out", T([2, 4], values=[0.0] * 8),
         torch.int8, schema=CHOOSE_TOKEN, ref=choose_token),
    case(NS + "choose_qparams_per_token_asymmetric.out", T([0, 5]), torch.int8,
         schema=CHOOSE_TOKEN, ref=choose_token),
    case(NS + "choose_qparams_per_token_asymmetric.out", T([1]), torch.int8,
         schema=CHOOSE_TOKEN, ref=choose_token),
    case(NS + "choose_qparams_per_token_asymmetric.out", T([2, 3, 4, 5], channels_last=True),
         torch.int8, schema=CHOOSE_TOKEN, ref=choose_token),
    case(NS + "choose_qparams_per_token_asymmetric.out", T([3, 300], "float64"), torch.int8,
         schema=CHOOSE_TOKEN, ref=choose_token),
]
