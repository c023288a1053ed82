# Op cases of the binary elementwise family (cpp/kernels/tables/binary.inc).
# Integer divisors are drawn from ranges without 0 (ATen raises on them).
import torch

from oplib import case, T

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int8", "int16", "int32", "int64", "uint8"]
REAL = FLOATS + INTS
ALL = REAL + ["bool"]

# Pairs of dtypes that promote: (self, other, note).
PROMOTE = [("int32", "float32"), ("uint8", "int8"), ("float16", "bfloat16"),
           ("bool", "int32"), ("int64", "float64"), ("int16", "int64"), ("bool", "float16")]


def positive(shape, dtype="float32", **kw):
    """A divisor / exponent tensor without zeros."""
    if dtype in FLOATS:
        return T(shape, dtype, low=0.5, high=3.0, **kw)
    return T(shape, dtype, low=1, high=8, **kw)


def R(shape, dtype, low, high, **kw):
    """Integer values in [low, high) (uint8: from 0)."""
    return T(shape, dtype, low=max(low, 0) if dtype == "uint8" else low, high=high, **kw)


def layouts(op, dtype="float32", make_other=T, **kw):
    """Shapes every binary op must handle: same shape, broadcasting both ways,
    row vector over rows ([N,C] + [C]), per-row scalar ([N,C,H,W] + [C,1,1]),
    size 0, size 1, 0-dim, channels-last, odd lengths (SIMD tails)."""
    return [
        case(op, T([2, 3], dtype), make_other([2, 3], dtype), **kw),
        case(op, T([4, 1, 3], dtype), make_other([2, 1], dtype), **kw),
        case(op, T([5, 7], dtype), make_other([7], dtype), **kw),
        case(op, T([2, 3, 4, 5], dtype), make_other([3, 1, 1], dtype), **kw),
        case(op, T([2, 3, 4, 5], dtype, channels_last=True),
             make_other([2, 3, 4, 5], dtype, channels_last=True), **kw),
        case(op, T([2, 3, 4, 5], dtype, channels_last=True), make_other([5], dtype), **kw),
        case(op, T([2, 3, 4, 5], dtype), make_other([2, 3, 4, 5], dtype, channels_last=True),
             **kw),
        case(op, T([0, 3], dtype), make_other([3], dtype), **kw),
        case(op, T([1], dtype), make_other([2, 3], dtype), **kw),
        case(op, T([], dtype), make_other([3, 2], dtype), **kw),
        case(op, T([3, 2], dtype), make_other([], dtype), **kw),
        case(op, T([], dtype), make_other([], dtype), **kw),
        case(op, T([1037], dtype), make_other([1037], dtype), **kw),
        case(op, T([9, 13], dtype), make_other([9, 1], dtype), **kw),
    ]


def per_dtype(op, dtypes, make_other=T, **kw):
    return [case(op, T([3, 5], dt), make_other([3, 5], dt), **kw) for dt in dtypes]


def promoted(op, pairs=PROMOTE, make_other=T, **kw):
    cases = []
    for a, b in pairs:
        cases.append(case(op, T([2, 3], a), make_other([2, 3], b), **kw))
        # A 0-dim tensor of a higher category still promotes; of the same
        # category it does not.
        cases.append(case(op, T([2, 3], a), make_other([], b), **kw))
    return cases


def scalar_cases(op, dtypes, scalars, **kw):
    return [case(op, T([2, 3], dt), s, **kw) for dt in dtypes for s in scalars]


CASES = []

# add / sub / rsub (with alpha), mul, div: the SIMD ops.
for op, dtypes in [("aten::add.out", ALL), ("aten::sub.out", REAL), ("aten::mul.out", ALL)]:
    alpha = {"alpha": 2} if op != "aten::mul.out" else {}
    CASES += layouts(op, **alpha)
    CASES += per_dtype(op, dtypes, **alpha)
    CASES += promoted(op, [p for p in PROMOTE if op != "aten::sub.out" or p[0] != "bool"])
    CASES += layouts(op, "int32")
    CASES += layouts(op, "float16")[:4]
CASES += [
    case("aten::add.out", T([2, 3]), T([2, 3]), alpha=0.5),
    case("aten::add.out", T([2, 3], "int8"), T([2, 3], "int8"), alpha=-3),
    case("aten::add.out", T([2, 3], "bool"), T([2, 3], "bool"), alpha=True),
    case("aten::add.out", T([2, 3], "int8", low=60, high=120), T([2, 3], "int8", low=60, high=120),
         out_dtype="int64", name="wraps_in_int8"),
    case("aten::add.out", T([2, 3], "int32"), T([2, 3], "int32"), out_dtype="float32"),
    case("aten::sub.out", T([5, 7]), T([7]), alpha=-1.5),
    case("aten::mul.out", T([2, 3], "uint8"), T([2, 3], "uint8"), out_dtype="int16"),
    case("aten::mul.out", T([2, 3], "float16"), T([2, 3], "float16"), out_dtype="float32"),
]
for op, dtypes in [("aten::add.Scalar_out", ALL), ("aten::sub.Scalar_out", REAL),
                   ("aten::mul.Scalar_out", ALL)]:
    alpha = {"alpha": 2} if op != "aten::mul.Scalar_out" else {}
    CASES += scalar_cases(op, dtypes, [3, -2.5], **alpha)
    CASES += [case(op, T([5, 7]), 1.5, **alpha), case(op, T([1037]), -0.25, **alpha),
              case(op, T([0, 3]), 2, **alpha), case(op, T([]), 2, **alpha),
              case(op, T([2, 3, 4, 5], channels_last=True), 0.5, **alpha),
              case(op, T([3], "uint8"), -1, **alpha)]
# A Bool Scalar keeps a Bool tensor Bool (ATen's C++ semantics; torch.ops
# turns a Python bool Scalar into an Int, so the reference is torch.add/mul).
CASES += [case("aten::add.Scalar_out", T([2, 3], "bool"), True,
               ref=lambda s, o, alpha=1: torch.add(s, o, alpha=alpha)),
          case("aten::mul.Scalar_out", T([2, 3], "bool"), False, ref=lambda s, o: torch.mul(s, o)),
          case("aten::add.Scalar_out", T([2, 3]), 1.0, alpha=-0.5)]

CASES += layouts("aten::rsub.Tensor_out", alpha=2)
CASES += per_dtype("aten::rsub.Tensor_out", REAL)
CASES += promoted("aten::rsub.Tensor_out", [p for p in PROMOTE if p[0] != "bool"])
CASES += scalar_cases("aten::rsub.Scalar_out", REAL, [3, -2.5], alpha=2)
CASES += [case("aten::rsub.Scalar_out", T([5, 7]), 1.5),
          case("aten::rsub.Scalar_out", T([0, 2]), 1.5),
          case("aten::rsub.Scalar_out", T([2, 3, 4, 5], channels_last=True), 1.0, alpha=0.5)]

# True division: integers compute in Float.
CASES += layouts("aten::div.out", make_other=positive)
CASES += per_dtype("aten::div.out", REAL, make_other=positive)
CASES += promoted("aten::div.out", make_other=positive)
CASES += [case("aten::div.out", T([2, 3], "bool"), T([2, 3], "bool")),
          case("aten::div.out", T([2, 3], "int32"), positive([2, 3], "int32"), out_dtype="float64"),
          case("aten::div.out", T([4]), T([4], values=[0.0, 0.0, 1.0, -1.0]), name="by_zero")]
CASES += scalar_cases("aten::div.Scalar_out", REAL, [3, -2.5, 0.0])
CASES += [case("aten::div.Scalar_out", T([5, 7]), 1.5), case("aten::div.Scalar_out", T([0, 3]), 2),
          case("aten::div.Scalar_out", T([2, 3, 4, 5], channels_last=True), 0.5)]
CASES += [case("aten::div.Scalar_out", T([2, 3], "bool"), s) for s in [2, 0.5]]
for mode in [None, "trunc", "floor"]:
    CASES += per_dtype("aten::div.out_mode", REAL, make_other=positive, rounding_mode=mode)
    CASES += [case("aten::div.out_mode", T([2, 3], dt),
                   T([2, 3], dt, values=[-3, -2, 1, 2, 3, 5]), rounding_mode=mode)
              for dt in ["int8", "int32", "int64", "float32"]]
    CASES += [case("aten::div.out_mode", T([4, 1, 3]), positive([2, 1]), rounding_mode=mode),
              case("aten::div.out_mode", T([0, 3]), positive([3]), rounding_mode=mode),
              case("aten::div.out_mode", T([2, 3], "int32"), positive([], "float64"),
                   rounding_mode=mode),
              case("aten::div.out_mode", T([2, 3, 4, 5], channels_last=True), positive([3, 1, 1]),
                   rounding_mode=mode)]
    CASES += [case("aten::div.Scalar_mode_out", T([2, 3], dt), s, rounding_mode=mode)
              for dt in REAL for s in [3, -2]]
    CASES += [case("aten::div.Scalar_mode_out", T([2, 3], "int32"), 2.5, rounding_mode=mode),
              case("aten::div.Scalar_mode_out", T([0]), 2.5, rounding_mode=mode)]
    # Bool promotes to float (true division) or to the scalar's type;
    # ATen has no bool tensor-by-tensor trunc or floor division.
    CASES += [case("aten::div.Scalar_mode_out", T([2, 3], "bool"), 2, rounding_mode=mode)]
    if mode is None:
        CASES += [case("aten::div.out_mode", T([2, 3], "bool"), T([2, 3], "bool", values=[1] * 6),
                       rounding_mode=mode)]

# pow: integer exponents kept small and non-negative for integers.
CASES += [case("aten::pow.Tensor_Tensor_out", T([3, 4], dt, low=0.5, high=2.0) if dt in FLOATS
               else R([3, 4], dt, -4, 5), T([3, 4], dt, low=0, high=4)) for dt in REAL]
CASES += [case("aten::pow.Tensor_Tensor_out", T([4, 1, 3], low=0.5, high=2), T([2, 1])),
          case("aten::pow.Tensor_Tensor_out", T([2, 3], "int32", low=0, high=4), T([3], low=-1, high=2)),
          case("aten::pow.Tensor_Tensor_out", T([0, 3]), T([3])),
          case("aten::pow.Tensor_Tensor_out", T([2, 3, 4, 5], channels_last=True, low=0.5, high=2),
               T([3, 1, 1])),
          case("aten::pow.Tensor_Tensor_out", T([3], "int64", values=[2, -1, 1]),
               T([3], "int64", values=[-1, -3, -2]), name="negative_exponents")]
CASES += [case("aten::pow.Tensor_Scalar_out", R([2, 3], dt, -4, 5), e)
          for dt in REAL for e in [2, 3, 0]]
CASES += [case("aten::pow.Tensor_Scalar_out", T([2, 3], dt, low=0.5, high=2.0), e)
          for dt in FLOATS for e in [0.5, -1, 2.5, -0.5]]
CASES += [case("aten::pow.Tensor_Scalar_out", T([2, 3], "int32", low=0, high=4), 0.5),
          case("aten::pow.Tensor_Scalar_out", T([0, 2]), 2),
          case("aten::pow.Tensor_Scalar_out", T([]), 3)]
CASES += [case("aten::pow.Scalar_out", s, T([2, 3], dt, low=0, high=4))
          for dt in REAL for s in [2, 1.5]]
CASES += [case("aten::pow.Scalar_out", 2, T([0, 3])), case("aten::pow.Scalar_out", 2.0, T([]))]
CASES += [case("aten::pow.Tensor_Scalar_out", T([2, 3], "bool"), e) for e in [2, 0, 1.5]]
CASES += [case("aten::pow.Scalar_out", s, T([2, 3], "bool")) for s in [3, 2.5]]

# Comparisons: small integer-valued operands so that ties happen.
for name in ["eq", "ne", "lt", "le", "gt", "ge"]:
    op = f"aten::{name}.Tensor_out"
    CASES += [case(op, T([3, 5], dt, low=0, high=3) if dt != "bool" else T([3, 5], dt),
                   T([3, 5], dt, low=0, high=3) if dt != "bool" else T([3, 5], dt))
              for dt in ALL]
    CASES += [case(op, T([4, 1, 3], low=0, high=3), T([2, 1], "int32", low=0, high=3)),
              case(op, T([5, 7]), T([7])),
              case(op, T([2, 3, 4, 5], channels_last=True, low=0, high=2), T([3, 1, 1], low=0, high=2)),
              case(op, T([0, 3]), T([3])), case(op, T([]), T([2, 2])),
              case(op, T([2, 3], "int32", low=0, high=3), T([], "float64", values=[1.0])),
              case(op, T([2, 3], "uint8"), T([2, 3], "int8")),
              case(op, T([4], values=[float("nan"), 1.0, float("nan"), 0.0]),
                   T([4], values=[float("nan"), float("nan"), 1.0, -0.0]), name="nan"),
              case(op, T([2, 3], low=0, high=3), T([2, 3], low=0, high=3), out_dtype="float32")]
    op = f"aten::{name}.Scalar_out"
    CASES += [case(op, T([3, 5], dt, low=0, high=3) if dt != "bool" else T([3, 5], dt), s)
              for dt in ALL for s in [1, 1.5]]
    CASES += [case(op, T([3], "uint8", values=[255, 0, 1]), -1),
              case(op, T([0, 2]), 1.0), case(op, T([]), 0),
              case(op, T([2, 3], "bool"), True),
              case(op, T([2, 3, 4, 5], channels_last=True), 0.0)]

CASES += [case("aten::where.self_out", T([2, 3], "bool"), T([2, 3], dt), T([2, 3], dt)) for dt in ALL]
CASES += [case("aten::where.self_out", T([4, 1, 3], "bool"), T([2, 1]), T([3])),
          case("aten::where.self_out", T([2, 3], "bool"), T([2, 3], "int32"), T([2, 3])),
          case("aten::where.self_out", T([2, 3], "bool"), T([2, 3], "uint8"), T([], "float64")),
          case("aten::where.self_out", T([], "bool"), T([2, 3]), T([2, 3])),
          case("aten::where.self_out", T([0, 3], "bool"), T([3]), T([1])),
          case("aten::where.self_out", T([2, 3, 4, 5], "bool", channels_last=True),
               T([2, 3, 4, 5], channels_last=True), T([3, 1, 1]))]

# maximum / minimum (SIMD), NaN propagates.
for op in ["aten::maximum.out", "aten::minimum.out"]:
    CASES += layouts(op)
    CASES += per_dtype(op, ALL)
    CASES += promoted(op)
    CASES += [case(op, T([5], values=[float("nan"), 1.0, 2.0, float("nan"), -1.0]),
                   T([5], values=[1.0, float("nan"), 3.0, float("nan"), -2.0]), name="nan"),
              case(op, T([9], values=[float("nan")] * 9), T([9]), name="nan_rows")]

# Float ops: integers compute in Float.
CASES += layouts("aten::atan2.out")
CASES += per_dtype("aten::atan2.out", [d for d in ALL if d != "float16"])
CASES += promoted("aten::atan2.out", [p for p in PROMOTE if "float16" not in p])
CASES += [case("aten::atan2.out", T([3], values=[0.0, -0.0, 1.0]), T([3], values=[-0.0, -1.0, 0.0]),
               name="signed_zero")]
CASES += layouts("aten::hypot.out")
CASES += per_dtype("aten::hypot.out", ["float32", "float64", "bfloat16"])
CASES += [case("aten::hypot.out", T([2, 3], "float32"), T([2, 3], "float64")),
          case("aten::hypot.out", T([2, 3], "float64"), T([], "float32"))]
CASES += layouts("aten::copysign.out")
CASES += per_dtype("aten::copysign.out", ALL)
CASES += promoted("aten::copysign.out")
CASES += [case("aten::copysign.out", T([4], values=[1.0, 2.0, -3.0, 0.0]),
               T([4], values=[-0.0, 0.0, float("nan"), -1.0]), name="signed_zero")]
# A -0.0 Scalar is not cased: the .pte writer loses its sign (flatc drops a
# double_val equal to the default 0.0); the C++ test covers it.
CASES += scalar_cases("aten::copysign.Scalar_out", ALL, [-1, 2.5])
CASES += [case("aten::copysign.Scalar_out", T([0, 3]), -1.0),
          case("aten::copysign.Scalar_out", T([2, 3, 4, 5], channels_last=True), -1.0)]

# Modulo and floor division.
for op in ["aten::fmod.Tensor_out", "aten::remainder.Tensor_out", "aten::floor_divide.out"]:
    CASES += layouts(op, make_other=positive)
    CASES += per_dtype(op, REAL, make_other=positive)
    CASES += promoted(op, [p for p in PROMOTE if p[0] != "bool"], make_other=positive)
    CASES += [case(op, T([2, 3], dt, values=[-7, 7, -7, 7, 0, 5]),
                   T([2, 3], dt, values=[3, 3, -3, -3, -2, 5])) for dt in ["int8", "int64", "float32"]]
    CASES += [case(op, T([3], values=[1.0, -1.0, 0.0]), T([3], values=[0.0, 0.0, 0.0]),
                   name="float_by_zero")]
for op in ["aten::fmod.Scalar_out", "aten::remainder.Scalar_out"]:
    CASES += scalar_cases(op, REAL, [3, -3, 2.5])
    CASES += [case(op, T([0, 3], "int32"), 2), case(op, T([]), -1.5),
              case(op, T([2, 3, 4, 5], channels_last=True), 0.75),
              case(op, T([3], "uint8"), -1), case(op, T([2, 3], "bool"), 2),
              case(op, T([2, 3], "bool"), 1.5)]
CASES += [case("aten::remainder.Scalar_Tensor_out", s, positive([2, 3], dt))
          for dt in REAL for s in [5, -2.5]]
CASES += [case("aten::remainder.Scalar_Tensor_out", 3, T([2, 3], "int32", values=[-3, -2, 1, 2, 3, 5])),
          case("aten::remainder.Scalar_Tensor_out", 3, T([0, 2]))]

# Bitwise: integral and Bool only.
BITS = INTS + ["bool"]
for name in ["and", "or", "xor"]:
    op = f"aten::bitwise_{name}.Tensor_out"
    CASES += per_dtype(op, BITS)
    CASES += [case(op, T([4, 1, 3], "int32"), T([2, 1], "int32")),
              case(op, T([2, 3], "uint8"), T([2, 3], "int8")),
              case(op, T([2, 3], "bool"), T([2, 3], "int16")),
              case(op, T([2, 3], "int8"), T([], "int64")),
              case(op, T([0, 3], "int64"), T([3], "int64")),
              case(op, T([2, 3, 4, 5], "int32", channels_last=True), T([3, 1, 1], "int32")),
              case(op, T([2, 3], "int16"), T([2, 3], "int16"), out_dtype="int64")]
    op = f"aten::bitwise_{name}.Scalar_out"
    CASES += scalar_cases(op, INTS, [3, -1, 300])
    CASES += [case(op, T([2, 3], "bool"), True), case(op, T([2, 3], "bool"), 6),
              case(op, T([0], "int32"), 1), case(op, T([], "int64"), 5)]

# Logical: any dtypes, out of any dtype.
for name in ["and", "or", "xor"]:
    op = f"aten::logical_{name}.out"
    CASES += [case(op, T([3, 5], dt, low=0, high=2) if dt != "bool" else T([3, 5], dt),
                   T([3, 5], dt, low=0, high=2) if dt != "bool" else T([3, 5], dt)) for dt in ALL]
    CASES += [case(op, T([4, 1, 3], "int32", low=0, high=2), T([2, 1], low=0, high=2)),
              case(op, T([2, 3], "bool"), T([2, 3], "float64", low=0, high=2)),
              case(op, T([0, 3], "bool"), T([3], "bool")),
              case(op, T([], "bool"), T([2, 2], "bool")),
              case(op, T([2, 3, 4, 5], "bool", channels_last=True), T([3, 1, 1], "bool")),
              case(op, T([3], values=[float("nan"), 0.0, -0.0]), T([3], "bool"), name="nan"),
              case(op, T([2, 3], "int8", low=0, high=2), T([2, 3], "bool"), out_dtype="float32")]

# masked_fill: self and mask broadcast together; value in self's dtype.
CASES += [case("aten::masked_fill.Scalar_out", T([2, 3], dt), T([2, 3], "bool"), v)
          for dt in REAL for v in [3, 1.5 if dt == "uint8" else -1.5]]
CASES += [case("aten::masked_fill.Scalar_out", T([2, 3], "bool"), T([2, 3], "bool"), False),
          case("aten::masked_fill.Scalar_out", T([3], "uint8"), T([3], "bool"), -1),
          case("aten::masked_fill.Scalar_out", T([2, 3]), T([3], "bool"), float("-inf")),
          case("aten::masked_fill.Scalar_out", T([3]), T([2, 1], "bool"), 2.0),
          case("aten::masked_fill.Scalar_out", T([2, 3, 4, 5], channels_last=True),
               T([4, 5], "bool"), 0.0),
          case("aten::masked_fill.Scalar_out", T([0, 3]), T([3], "bool"), 1.0),
          case("aten::masked_fill.Scalar_out", T([]), T([], "bool"), 1.0),
          case("aten::masked_fill.Scalar_out", T([2, 3], "int32"), T([2, 3], "bool"), 7,
               out_dtype="float64")]

# Bitwise shifts: integers shift in their own width (a shift past it gives 0,
# or the sign fill to the right). Integral dtypes only, as in ATen. torch
# 1.13 leaves out-of-range shifts to the CPU (x86 takes the count modulo the
# width); current ATen defines them as above, so those cases have a reference
# written from that rule.
SHIFT_NUMS = INTS


def shift_ref(left):
    def ref(a, b):
        b = b if isinstance(b, torch.Tensor) else torch.tensor(b)
        dtype = torch.result_type(a, b)
        a, b = torch.broadcast_tensors(a.to(dtype), b.to(dtype))
        bits = torch.iinfo(dtype).bits
        signed = dtype != torch.uint8

        def wrap(v):
            v %= 1 << bits
            return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v

        def one(x, n):
            if not signed and n > 127:
                n -= 256  # the shift is read as int8, as ATen does
            if left:
                return 0 if n < 0 or n >= bits else wrap(x << n)
            return x >> (bits - 1 if n < 0 or n >= bits - 1 else n)

        r = [one(int(x), int(n)) for x, n in zip(a.flatten().tolist(), b.flatten().tolist())]
        return torch.tensor(r, dtype=torch.int64).reshape(a.shape).to(dtype)
    return ref
for name in ["left", "right"]:
    op = f"aten::bitwise_{name}_shift.Tensor_out"
    CASES += [case(op, T([3, 5], dt), T([3, 5], dt, low=0, high=6)) for dt in SHIFT_NUMS]
    CASES += [case(op, T([8], "int8", values=[1, -1, 64, -128, 3, 5, 127, -7]),
                   T([8], "int8", values=[0, 1, 1, 1, 7, 8, 100, -1]), name="edges8", ref=shift_ref(name == "left")),
              case(op, T([6], "int32", values=[1, -1, 3, -5, 1 << 30, 7]),
                   T([6], "int32", values=[31, 31, 32, 33, 1, -2]), name="edges32", ref=shift_ref(name == "left")),
              case(op, T([5], "int64", values=[1, -1, 3, -5, 7]),
                   T([5], "int64", values=[63, 63, 64, 65, -1]), name="edges64", ref=shift_ref(name == "left")),
              case(op, T([6], "uint8", values=[1, 255, 128, 3, 200, 9]),
                   T([6], "uint8", values=[7, 1, 8, 200, 3, 0]), name="edgesu8", ref=shift_ref(name == "left")),
              case(op, T([4, 1, 3], "int32"), T([2, 1], "int32", low=0, high=4)),
              case(op, T([2, 3], "uint8"), T([2, 3], "int8", low=0, high=4)),
              case(op, T([0, 3], "int64"), T([3], "int64", low=0, high=4)),
              case(op, T([2, 3, 4, 5], "int32", channels_last=True), T([3, 1, 1], "int32", low=0, high=4)),
              case(op, T([2, 3], "int16"), T([2, 3], "int16", low=0, high=4), out_dtype="int64")]
    op = f"aten::bitwise_{name}_shift.Tensor_Scalar_out"
    CASES += [case(op, T([3, 5], dt), 2) for dt in SHIFT_NUMS]
    CASES += [case(op, T([2, 3], "int32"), 40, ref=shift_ref(name == "left")),
              case(op, T([2, 3], "int8"), -1, ref=shift_ref(name == "left")),
              case(op, T([0], "int32"), 1), case(op, T([], "int64"), 5)]
