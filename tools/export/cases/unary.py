# Op cases of the unary elementwise and activation family
# (cpp/kernels/tables/unary.inc).
#
# torch 1.13 has no CPU float16 kernels for most of these ops (newer ATen and
# ExecuTorch have them): float16 cases use `ref=` computing in float32 and
# rounding, which is what the kernels (and newer ATen) do.
from oplib import case, T

import torch

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int8", "int16", "int32", "int64", "uint8"]
REAL = FLOATS + INTS
ALL = REAL + ["bool"]

NAN, INF = float("nan"), float("inf")
SPECIAL = [NAN, INF, -INF, 0.0, -0.0, 1.5, -2.5, 0.5]


def in_half(fn):
    """A reference for float16 inputs: computed in float32, rounded."""
    return lambda x, *a, **k: fn(x.float(), *a, **k).half()


def shapes(op, make, *args, **kw):
    """Layouts every unary op must handle: plain, size 0, size 1, 0-dim,
    channels-last, and an odd length (SIMD tails)."""
    return [
        case(op, make([2, 3]), *args, **kw),
        case(op, make([0, 3]), *args, **kw),
        case(op, make([1]), *args, **kw),
        case(op, make([]), *args, **kw),
        case(op, make([2, 3, 4, 5], channels_last=True), *args, **kw),
        case(op, make([1037]), *args, **kw),
    ]


def ranged(low, high):
    """Float inputs in [low, high) (a domain); other dtypes as usual."""
    def make(shape, dtype="float32", **kw):
        if dtype in FLOATS:
            return T(shape, dtype, low=low, high=high, **kw)
        return T(shape, dtype, **kw)
    return make


CASES = []

# Float ops: integer and bool inputs compute in Float; the result casts into
# any floating out.
FLOAT_OPS = [
    ("exp", T), ("expm1", T), ("sin", T), ("cos", T), ("tan", T),
    ("asin", ranged(-0.99, 0.99)), ("acos", ranged(-0.99, 0.99)), ("atan", T),
    ("sinh", T), ("cosh", T), ("asinh", T), ("acosh", ranged(1.0, 5.0)),
    ("atanh", ranged(-0.99, 0.99)), ("log", ranged(0.05, 5.0)), ("log2", ranged(0.05, 5.0)),
    ("log10", ranged(0.05, 5.0)), ("log1p", ranged(-0.9, 4.0)), ("sqrt", ranged(0.0, 5.0)),
    ("rsqrt", ranged(0.05, 5.0)), ("reciprocal", T), ("erf", T), ("tanh", T), ("sigmoid", T),
]
for name, make in FLOAT_OPS:
    op = f"aten::{name}.out"
    fn = getattr(torch, name)
    CASES += shapes(op, make)
    CASES += [case(op, make([3, 5], dt)) for dt in ["float64", "bfloat16"] + INTS + ["bool"]]
    CASES += [case(op, make([3, 5], "float16"), ref=in_half(fn)),
              # Computed in float32 (libm here, Sleef in PyTorch: 1 ulp apart),
              # so float32's tolerance, not float64's.
              case(op, make([2, 3]), out_dtype="float64", rtol=1e-5, atol=1e-6),
              case(op, T([2, 3], "int32"), out_dtype="float64", rtol=1e-5, atol=1e-6),
              case(op, T([8], values=SPECIAL), name="special")]
# Wide ranges for the SIMD exp/tanh/sigmoid (overflow to inf / saturation).
for name in ["exp", "tanh", "sigmoid"]:
    CASES += [case(f"aten::{name}.out", T([257], low=-100.0, high=100.0), name="wide"),
              case(f"aten::{name}.out", T([64], low=-1.0, high=1.0), name="small")]

# Same-dtype ops: compute in self's dtype, out has it; integers are kept
# (floor/ceil/trunc/round are the identity on them).
SAME_OPS = [("abs", REAL, True), ("neg", REAL, True), ("sign", ALL, True),
            ("floor", REAL, False), ("ceil", REAL, False), ("trunc", REAL, False),
            ("round", REAL, False)]
for name, dtypes, has_half in SAME_OPS:
    op = f"aten::{name}.out"
    fn = getattr(torch, name)
    CASES += shapes(op, T)
    for dt in dtypes:
        if dt == "float16" and not has_half:
            CASES.append(case(op, T([3, 5], dt, low=-5.0, high=5.0), ref=in_half(fn)))
        elif dt in FLOATS:
            CASES.append(case(op, T([3, 5], dt, low=-5.0, high=5.0)))
        else:
            CASES.append(case(op, T([3, 5], dt)))
    CASES.append(case(op, T([8], values=SPECIAL), name="special"))
CASES += [
    case("aten::round.out", T([6], values=[0.5, 1.5, 2.5, -0.5, -1.5, 1234.5]), name="half_even"),
    case("aten::abs.out", T([3], "int8", values=[-128, -1, 5]), name="wraps"),
    case("aten::neg.out", T([3], "int8", values=[-128, -1, 5]), name="wraps"),
]
for dt in ["float32", "float64", "bfloat16"]:
    CASES.append(case("aten::round.decimals_out", T([3, 5], dt, low=-50.0, high=50.0), decimals=2))
CASES += [
    case("aten::round.decimals_out", T([3, 5], "float16", low=-50.0, high=50.0), decimals=1,
         ref=lambda x, decimals: torch.round(x.float(), decimals=decimals).half()),
    case("aten::round.decimals_out", T([2, 3], low=-500.0, high=500.0), decimals=-1),
    case("aten::round.decimals_out", T([0, 3]), decimals=1),
    case("aten::round.decimals_out", T([]), decimals=3),
    case("aten::round.decimals_out", T([2, 3, 4, 5], channels_last=True), decimals=1),
    case("aten::round.decimals_out", T([4], values=[0.125, 1.15, -0.35, 2.5]), decimals=40,
         name="huge_decimals"),
]

# bitwise_not: integers and bool.
CASES += shapes("aten::bitwise_not.out", lambda s, **kw: T(s, "int32", **kw))
CASES += [case("aten::bitwise_not.out", T([3, 5], dt)) for dt in INTS + ["bool"]]

# Predicates: a bool per element; any out dtype.
for name in ["logical_not", "isnan", "isinf"]:
    op = f"aten::{name}.out"
    CASES += shapes(op, T)
    CASES += [case(op, T([3, 5], dt)) for dt in ALL if dt != "float16"]
    CASES += [case(op, T([8], "float16", values=SPECIAL)),
              case(op, T([8], values=SPECIAL), name="special"),
              case(op, T([8], "float64", values=SPECIAL), out_dtype="float32", name="special_out")]

# relu: any real dtype but bool.
CASES += shapes("aten::relu.out", T)
CASES += [case("aten::relu.out", T([3, 5], dt)) for dt in REAL if dt != "float16"]
CASES += [case("aten::relu.out", T([3, 5], "float16"), ref=in_half(torch.relu)),
          case("aten::relu.out", T([8], values=SPECIAL), name="special")]

# Activations on floating dtypes; out has self's dtype.
ACTS = [
    ("aten::gelu.out", (), torch.ops.aten.gelu),
    ("aten::gelu.out", {"approximate": "tanh"}, torch.ops.aten.gelu),
    ("aten::silu.out", (), torch.ops.aten.silu),
    ("aten::hardswish.out", (), torch.ops.aten.hardswish),
    ("aten::hardsigmoid.out", (), torch.ops.aten.hardsigmoid),
    ("aten::leaky_relu.out", (), torch.ops.aten.leaky_relu),
    ("aten::leaky_relu.out", (0.2,), torch.ops.aten.leaky_relu),
    ("aten::elu.out", (), torch.ops.aten.elu),
    ("aten::elu.out", (0.5, 2.0, 1.5), torch.ops.aten.elu),
    ("aten::hardtanh.out", (), torch.ops.aten.hardtanh),
    ("aten::hardtanh.out", (-0.5, 2), torch.ops.aten.hardtanh),
]
for op, args, fn in ACTS:
    # A dict holds kwarg-only arguments.
    kw = args if isinstance(args, dict) else {}
    args = () if isinstance(args, dict) else args
    wide = lambda s, dtype="float32", **k: T(s, dtype, low=-6.0, high=6.0, **k)
    CASES += shapes(op, wide, *args, **kw)
    CASES += [case(op, wide([3, 5], dt), *args, **kw) for dt in ["float64", "bfloat16"]]
    CASES += [case(op, wide([3, 5], "float16"), *args, ref=in_half(fn), **kw),
              case(op, T([8], values=SPECIAL), *args, name="special", **kw)]
CASES += [
    case("aten::gelu.out", T([257], low=-12.0, high=12.0), name="wide"),
    case("aten::gelu.out", T([257], low=-12.0, high=12.0), approximate="tanh", name="wide_tanh"),
    case("aten::silu.out", T([257], low=-100.0, high=100.0), name="wide"),
    case("aten::gelu.out", T([2, 3]), approximate="none", name="kwarg"),
]
for dt in INTS:
    CASES.append(case("aten::hardtanh.out", T([3, 5], dt), 1, 5) if dt == "uint8"
                 else case("aten::hardtanh.out", T([3, 5], dt), -3, 4))
CASES.append(case("aten::hardtanh.out", T([2, 3], "int32"), -0.5, 4.5, name="float_bounds"))

# glu: halves along dim.
CASES += [
    case("aten::glu.out", T([2, 6])),
    case("aten::glu.out", T([4, 3]), 0),
    case("aten::glu.out", T([2, 4, 3]), -2),
    case("aten::glu.out", T([2, 4, 3, 3], channels_last=True), 1),
    case("aten::glu.out", T([0, 4]), 1),
    case("aten::glu.out", T([2])),
    case("aten::glu.out", T([3, 1038])),
    case("aten::glu.out", T([3, 4], "float64")),
    case("aten::glu.out", T([3, 4], "bfloat16")),
    case("aten::glu.out", T([3, 4], "float16"), ref=in_half(torch.ops.aten.glu)),
    case("aten::glu.out", T([3, 4]), -1, out_dtype="float64"),
]

# clamp: Scalar and Tensor bounds; NaN propagates.
CASES += shapes("aten::clamp.out", T, -0.5, 0.5)
CASES += [case("aten::clamp.out", T([3, 5], dt), -3, 4) for dt in REAL if dt not in ("float16", "uint8")]
CASES += [
    case("aten::clamp.out", T([3, 5], "uint8"), 2, 9),
    case("aten::clamp.out", T([3, 5], "float16"), -0.5, 0.5,
         ref=lambda x, lo, hi: torch.clamp(x.float(), lo, hi).half()),
    case("aten::clamp.out", T([3, 5]), None, 0.25),
    case("aten::clamp.out", T([3, 5]), -0.25),
    case("aten::clamp.out", T([3, 5]), 1.0, -1.0, name="min_above_max"),
    case("aten::clamp.out", T([3, 5], "int32"), -2.5, 3.5, name="int_float_bounds"),
    case("aten::clamp.out", T([3, 5], "bool"), 0, 1),
    case("aten::clamp.out", T([8], values=SPECIAL), -1, 1, name="special"),
    case("aten::clamp.out", T([8], values=SPECIAL), NAN, 1, name="nan_bound"),
    case("aten::clamp.Tensor_out", T([2, 3]), T([2, 3]), T([2, 3])),
    case("aten::clamp.Tensor_out", T([4, 1, 3]), T([2, 1]), T([3])),
    case("aten::clamp.Tensor_out", T([2, 3]), None, T([])),
    case("aten::clamp.Tensor_out", T([2, 3], "int64"), T([3], "int64"), T([2, 1], "int64")),
    case("aten::clamp.Tensor_out", T([2, 3], "int8"), None, T([3], "int8")),
    case("aten::clamp.Tensor_out", T([2, 3]), T([3])),
    case("aten::clamp.Tensor_out", T([2, 3, 4, 5], channels_last=True), T([3, 1, 1]), T([5])),
    case("aten::clamp.Tensor_out", T([0, 3]), T([3]), T([3])),
    case("aten::clamp.Tensor_out", T([2, 3], "int32"), T([2, 3], "int32"), T([3], "int64")),
    case("aten::clamp.Tensor_out", T([2, 3], "int32"), T([3]), None),
    case("aten::clamp.Tensor_out", T([2, 3], "float64"), T([2, 3], "float64"), T([2, 3], "float64")),
    case("aten::clamp.Tensor_out", T([2, 3], "bfloat16"), T([2, 3], "bfloat16"), T([]),),
    case("aten::clamp.Tensor_out", T([4], values=[1.0, NAN, 3.0, -1.0]),
         T([4], values=[NAN, 0.0, 0.0, 0.0]), T([4], values=[2.0, 2.0, NAN, 2.0]), name="nan"),
]

# fill: self's shape, value converted to self's dtype.
for dt in ALL:
    if dt == "bool":
        CASES.append(case("aten::fill.Scalar_out", T([2, 3], dt), True))
    elif dt in FLOATS:
        CASES.append(case("aten::fill.Scalar_out", T([2, 3], dt), -2.5))
    else:
        CASES.append(case("aten::fill.Scalar_out", T([2, 3], dt), 7))
    CASES.append(case("aten::fill.Tensor_out", T([2, 3], dt), T([], "float64", values=[2.75])))
CASES += [
    case("aten::fill.Scalar_out", T([0, 3]), 1.0),
    case("aten::fill.Scalar_out", T([]), 3),
    case("aten::fill.Scalar_out", T([2, 3, 4, 5], channels_last=True), 0.5),
    case("aten::fill.Scalar_out", T([2, 3], "int32"), 2.9, name="truncates"),
    case("aten::fill.Scalar_out", T([2, 3], "int64"), 1.5, out_dtype="float32", name="via_self"),
    case("aten::fill.Tensor_out", T([1037]), T([], "int32", values=[-4])),
    case("aten::fill.Tensor_out", T([2, 3], "bool"), T([], "float32", values=[0.0])),
]

# logit: log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given.
LOGIT = "aten::logit.out"
CASES += shapes(LOGIT, ranged(0.01, 0.99))
CASES += [case(LOGIT, ranged(0.01, 0.99)([3, 5], dt)) for dt in ["float64", "bfloat16"]]
CASES += [case(LOGIT, ranged(0.01, 0.99)([3, 5], "float16"), ref=in_half(torch.logit)),
          case(LOGIT, T([3, 5], low=-0.5, high=1.5), 0.1),
          case(LOGIT, T([3, 5], low=-0.5, high=1.5), -1.0),
          case(LOGIT, T([3, 5], "float64", low=0.0, high=1.0), 1e-6),
          case(LOGIT, T([2, 3], "int32", low=0, high=2)),
          case(LOGIT, T([2, 3], "int64", low=0, high=2), 0.1),
          case(LOGIT, T([2, 3], "bool"), 0.25),
          case(LOGIT, T([2, 3], low=0.1, high=0.9), out_dtype="float64", rtol=1e-5, atol=1e-6),
          case(LOGIT, T([8], values=[0.0, 1.0, 0.5, -0.1, 1.1, 0.25, float("nan"), 0.75]),
               name="special")]
