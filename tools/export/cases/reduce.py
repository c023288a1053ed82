# Op cases of the reduction, scan, sort and softmax family
# (cpp/kernels/tables/reduce.inc).
#
# torch 1.13 lacks CPU float16 kernels for prod, logsumexp, cumsum/cumprod,
# topk and softmax: those float16 cases use `ref=` computing in float32 and
# rounding, as the kernels (and newer ATen) do. Ops missing in 1.13
# (any/all.dims_out, mean.dtype_out) give schema= and ref=.
from oplib import case, T

import torch

A = torch.ops.aten
FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int8", "int16", "int32", "int64", "uint8"]
REAL = FLOATS + INTS
ALL = REAL + ["bool"]
NAN, INF = float("nan"), float("inf")


def in_float(fn):
    """A reference for float16 inputs: computed in float32, floating
    results rounded back to the input's dtype (indices stay Long)."""
    def ref(x, *a, **k):
        r = fn(x.float(), *a, **k)
        rs = r if isinstance(r, tuple) else (r,)
        rs = tuple(t.to(x.dtype) if t.is_floating_point() else t for t in rs)
        return rs if isinstance(r, tuple) else rs[0]
    return ref


def layouts(op, args, dtype="float32", unique=False, nonempty=False, **kw):
    """Dims lists given as a function of the rank: a middle dim, a negative
    dim, keepdim, all dims, channels-last, size 1 and size 0."""
    cs = [
        case(op, T([3, 5], dtype, unique=unique), *args(1), **kw),
        case(op, T([2, 3, 4], dtype, unique=unique), *args(-1), **kw),
        case(op, T([4, 6, 9], dtype, unique=unique), *args(0), **kw),   # column path
        case(op, T([2, 3, 4, 5], dtype, channels_last=True, unique=unique), *args(1), **kw),
        case(op, T([2, 3, 4, 5], dtype, channels_last=True, unique=unique), *args(-1), **kw),
        case(op, T([1], dtype), *args(0), **kw),
        case(op, T([], dtype), *args(0), **kw),
        case(op, T([9, 37], dtype, unique=unique), *args(-1), **kw),      # SIMD tails
    ]
    if not nonempty:
        cs.append(case(op, T([2, 0], dtype), *args(1), **kw))
        cs.append(case(op, T([0, 3], dtype), *args(1), **kw))
    else:
        cs.append(case(op, T([0, 3], dtype), *args(1), **kw))  # empty kept dim
    return cs


CASES = []

# sum / mean / prod --------------------------------------------------------------
for dt in ALL:
    CASES += [
        case("aten::sum.IntList_out", T([3, 5], dt), [1]),
        case("aten::sum.out", T([2, 3], dt)),
    ]
CASES += layouts("aten::sum.IntList_out", lambda d: ([d], d == 1))
CASES += [
    case("aten::sum.IntList_out", T([2, 3, 4]), [0, 1]),
    case("aten::sum.IntList_out", T([2, 3, 4]), [0, 2], True),
    case("aten::sum.IntList_out", T([2, 3, 4]), None),
    case("aten::sum.IntList_out", T([2, 3, 4]), []),
    case("aten::sum.IntList_out", T([2, 3]), [1], dtype=torch.float64),
    case("aten::sum.IntList_out", T([2, 3], "int8", low=100, high=127), [1], dtype=torch.int8),
    case("aten::sum.IntList_out", T([4, 16, 33]), [0, 1]),
    case("aten::sum.out", T([0, 3])),
    case("aten::sum.out", T([2, 3]), dtype=torch.float64),
]
for dt in FLOATS:
    CASES.append(case("aten::mean.out", T([3, 5], dt), [1]))
    CASES.append(case("aten::mean.dtype_out", T([3, 5], dt),
                      schema="mean.dtype_out(Tensor self, *, ScalarType? dtype=None, "
                             "Tensor(a!) out) -> Tensor(a!)",
                      ref=lambda x, dtype=None: torch.mean(x, dtype=dtype)))
CASES += layouts("aten::mean.out", lambda d: ([d], d == -1))
CASES += [
    case("aten::mean.out", T([2, 3, 4]), None),
    case("aten::mean.out", T([2, 3], "int32"), [1], dtype=torch.float32),
    case("aten::mean.dtype_out", T([4], "int64"), dtype=torch.float64,
         schema="mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
         ref=lambda x, dtype=None: torch.mean(x, dtype=dtype)),
]
for dt in ALL:
    if dt in ("float16", "bfloat16"):
        CASES.append(case("aten::prod.int_out", T([3, 4], dt, low=0.5, high=1.5), 1,
                          ref=in_float(lambda x, d, keepdim=False, dtype=None: torch.prod(x, d, keepdim))))
        CASES.append(case("aten::prod.out", T([2, 3], dt, low=0.5, high=1.5),
                          ref=in_float(lambda x, dtype=None: torch.prod(x))))
    else:
        CASES.append(case("aten::prod.int_out", T([3, 4], dt, low=-3, high=4), 1))
        CASES.append(case("aten::prod.out", T([2, 3], dt, low=-3, high=4)))
CASES += [
    case("aten::prod.int_out", T([2, 3, 4]), -1, True),
    case("aten::prod.int_out", T([4, 6, 5]), 0),
    case("aten::prod.int_out", T([2, 3, 4, 5], channels_last=True), 1),
    case("aten::prod.int_out", T([2, 0]), 1),
    case("aten::prod.int_out", T([]), 0),
    case("aten::prod.int_out", T([3, 4], "int8", low=5, high=10), 1, dtype=torch.int8),
    case("aten::prod.out", T([0, 2])),
    case("aten::prod.out", T([5], "int32"), dtype=torch.int64),
]

# amax / amin / max / min / argmax / argmin ------------------------------------------
WITH_NAN = T([3, 4], values=[1, NAN, 3, 2, 5, 6, 7, 8, NAN, 0, NAN, -1])
for op in ("aten::amax.out", "aten::amin.out"):
    for dt in ALL:
        CASES.append(case(op, T([3, 5], dt), [1]))
    CASES += layouts(op, lambda d: ([d], d == 1), nonempty=True)
    CASES += [
        case(op, T([2, 3, 4]), [0, 2], True),
        case(op, T([2, 3, 4]), []),
        case(op, WITH_NAN, [1]),
        case(op, WITH_NAN, [0]),
        case(op, T([2, 0]), [0]),
    ]
for op in ("aten::max.unary_out", "aten::min.unary_out"):
    name = op.split("::")[1].split(".")[0]
    ref = getattr(torch, name)
    for dt in ALL:
        CASES.append(case(op, T([3, 5], dt), schema=f"{name}.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
                          ref=lambda x, f=ref: f(x)))
    for t in (T([2, 3, 4, 5], channels_last=True), T([]), T([1037]), WITH_NAN):
        CASES.append(case(op, t, schema=f"{name}.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
                          ref=lambda x, f=ref: f(x)))
for op in ("aten::max.dim_max", "aten::min.dim_min"):
    for dt in ALL:
        CASES.append(case(op, T([3, 5], dt, unique=dt != "bool"), 1))
    CASES += layouts(op, lambda d: (d, d == 1), unique=True, nonempty=True)
    CASES += [case(op, WITH_NAN, 1), case(op, WITH_NAN, 0, True)]
for op in ("aten::argmax.out", "aten::argmin.out"):
    for dt in REAL:
        CASES.append(case(op, T([3, 5], dt, unique=True), 1))
    CASES += layouts(op, lambda d: (d, d == 1), unique=True, nonempty=True)
    CASES += [
        case(op, T([2, 3, 4], unique=True), None),
        case(op, T([2, 3, 4], unique=True), None, True),
        case(op, WITH_NAN, 1),
        case(op, WITH_NAN, None),
    ]

# any / all ----------------------------------------------------------------------
MOSTLY_ZERO = T([3, 4], values=[0, 0, 0, 0, 0, 2, 0, 0, 1, 1, 1, 1])
for name in ("any", "all"):
    dims_schema = (f"{name}.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *, "
                   f"Tensor(a!) out) -> Tensor(a!)")

    def dims_ref(x, dim=None, keepdim=False, f=getattr(torch, name)):
        dims = list(range(x.dim())) if not dim else [d % max(x.dim(), 1) for d in dim]
        r = x
        for d in sorted(dims, reverse=True):
            r = f(r, d, keepdim) if x.dim() > 0 else f(r)
        return r if x.dim() > 0 else f(x)

    for dt in ALL:
        CASES.append(case(f"aten::{name}.out", T([3, 5], dt, low=0, high=2), 1))
        CASES.append(case(f"aten::{name}.all_out", T([2, 3], dt, low=0, high=2)))
        CASES.append(case(f"aten::{name}.dims_out", T([2, 3, 4], dt, low=0, high=2), [0, 2],
                          schema=dims_schema, ref=dims_ref))
    CASES += layouts(f"aten::{name}.out", lambda d: (d, d == 1))
    CASES += [
        case(f"aten::{name}.out", MOSTLY_ZERO, 1),
        case(f"aten::{name}.out", MOSTLY_ZERO, 0, True),
        case(f"aten::{name}.out", T([3], values=[0, NAN, 0]), 0),
        case(f"aten::{name}.all_out", T([0, 3])),
        case(f"aten::{name}.all_out", MOSTLY_ZERO),
        case(f"aten::{name}.dims_out", MOSTLY_ZERO, [-1], True, schema=dims_schema, ref=dims_ref),
        case(f"aten::{name}.dims_out", MOSTLY_ZERO, None, schema=dims_schema, ref=dims_ref),
        case(f"aten::{name}.dims_out", T([2, 0]), [1], schema=dims_schema, ref=dims_ref),
        case(f"aten::{name}.dims_out", T([2, 3, 4, 5], "int32", channels_last=True, low=0, high=2), [1, 3],
             schema=dims_schema, ref=dims_ref),
    ]

# var / std ----------------------------------------------------------------------
for op in ("aten::var.correction_out", "aten::std.correction_out"):
    for dt in FLOATS:
        CASES.append(case(op, T([3, 5], dt), [1]))
    CASES += layouts(op, lambda d: ([d],), keepdim=True)
    CASES += [
        case(op, T([2, 3, 4]), None),
        case(op, T([2, 3, 4]), [0, 2], correction=0),
        case(op, T([2, 3, 4]), [1], correction=3),
        case(op, T([1, 4]), [0]),
    ]
for op in ("aten::var.out", "aten::std.out"):
    for dt in FLOATS:
        CASES.append(case(op, T([3, 5], dt), [1], False))
    CASES += [
        case(op, T([2, 3, 4]), [-1], True, True),
        case(op, T([2, 3, 4]), None),
        case(op, T([2, 3, 4, 5], channels_last=True), [1, 2], False, False),
        case(op, T([0, 3]), [0]),
    ]

# logsumexp ----------------------------------------------------------------------
for dt in REAL + ["bool"]:
    if dt == "float16":
        CASES.append(case("aten::logsumexp.out", T([3, 5], dt), [1],
                          ref=in_float(lambda x, d, keepdim=False: torch.logsumexp(x, d, keepdim))))
    else:
        CASES.append(case("aten::logsumexp.out", T([3, 5], dt), [1]))
CASES += [c for c in layouts("aten::logsumexp.out", lambda d: ([d], d == 1))
          if c.args[0].shape != []]
CASES += [
    case("aten::logsumexp.out", T([2, 3, 4]), [0, 2]),
    case("aten::logsumexp.out", T([2, 3], values=[-INF, -INF, 1, INF, 2, 3]), [1]),
    case("aten::logsumexp.out", T([2, 3], values=[NAN, 0, 1, 2, 3, 4]), [1]),
    # ATen computes in float32 and converts; the kernel computes in double.
    case("aten::logsumexp.out", T([2, 3]), [1], out_dtype="float64", rtol=1e-6, atol=1e-7),
]

# cumsum / cumprod ----------------------------------------------------------------
for name in ("cumsum", "cumprod"):
    op = f"aten::{name}.out"
    f = getattr(torch, name)
    for dt in ALL:
        if dt == "float16":
            CASES.append(case(op, T([3, 5], dt, low=0.5, high=1.5), 1,
                              ref=in_float(lambda x, d, dtype=None, f=f: f(x, d))))
        else:
            CASES.append(case(op, T([3, 5], dt, low=-2, high=3), 1))
    CASES += [
        case(op, T([2, 3, 4]), -1),
        case(op, T([4, 6, 5]), 0),
        case(op, T([2, 3, 4, 5], channels_last=True), 1),
        case(op, T([2, 0]), 1),
        case(op, T([1]), 0),
        case(op, T([]), 0),
        case(op, T([300]), 0),
        case(op, T([3, 4], "int8", low=5, high=10), 1, dtype=torch.int8),
        case(op, T([3, 4], "int32"), 1, dtype=torch.float32),
        case(op, T([2, 3]), 1, out_dtype="float64"),
    ]

# sort / topk ----------------------------------------------------------------------
STABLE = "sort.values_stable"
for dt in ALL:
    CASES.append(case("aten::sort.values", T([3, 5], dt, unique=dt != "bool"), 1))
    CASES.append(case("aten::sort.values", T([3, 5], dt, unique=dt != "bool"), 0, True))
    CASES.append(case("aten::sort.values_stable", T([3, 6], dt, low=0, high=3), stable=True, dim=1))
    CASES.append(case("aten::sort.values_stable", T([3, 6], dt, low=0, high=3), stable=True, dim=-1,
                      descending=True))
CASES += layouts("aten::sort.values", lambda d: (d, d == 1), unique=True)
CASES += [
    case("aten::sort.values", T([300], unique=True)),                # merge passes, temp
    case("aten::sort.values", T([2, 40], "int32", unique=True), -1, True),
    case("aten::sort.values", T([5], values=[3, NAN, 1, NAN, -INF])),
    case("aten::sort.values", T([5], values=[3, NAN, 1, NAN, -INF]), 0, True),
    case("aten::sort.values_stable", T([2, 3, 4, 5], "int8", low=0, high=2, channels_last=True),
         stable=True, dim=1),
]
for dt in REAL:
    if dt == "float16":
        CASES.append(case("aten::topk.values", T([3, 6], dt, unique=True), 2,
                          ref=in_float(lambda x, k, dim=-1, largest=True, s=True: torch.topk(x, k, dim, largest, s))))
    else:
        CASES.append(case("aten::topk.values", T([3, 6], dt, unique=True), 2))
        CASES.append(case("aten::topk.values", T([3, 6], dt, unique=True), 3, 0, False))
CASES += [
    case("aten::topk.values", T([2, 3, 4, 5], channels_last=True, unique=True), 2, 1),
    case("aten::topk.values", T([2, 3, 4], unique=True), 4, -1),
    case("aten::topk.values", T([2, 3, 4], unique=True), 0, -1),
    case("aten::topk.values", T([0, 3]), 2, 1),
    case("aten::topk.values", T([]), 1, 0),
    case("aten::topk.values", T([1000], unique=True), 10),
    case("aten::topk.values", T([5], values=[3, NAN, 1, 7, -INF]), 2),
    case("aten::topk.values", T([5], values=[3, NAN, 1, 7, -INF]), 2, 0, False),
]

# softmax / log_softmax --------------------------------------------------------------
for name in ("_softmax", "_log_softmax"):
    op = f"aten::{name}.out"
    fn = getattr(A, name)
    CASES += [
        case(op, T([3, 5]), 1, False),
        case(op, T([3, 5], "float64"), 0, False),
        case(op, T([3, 5], "bfloat16"), 1, False),
        case(op, T([3, 5], "float16"), 1, False,
             ref=in_float(lambda x, d, h, fn=fn: fn(x, d, h))),
        case(op, T([2, 3, 4]), -1, False),
        case(op, T([2, 3, 4]), 1, False),         # lanes over a middle dim
        case(op, T([3, 5, 7]), 0, False),
        case(op, T([2, 3, 300]), 1, False),       # more lanes than one block
        case(op, T([2, 261]), -1, False),         # SIMD tails
        case(op, T([2, 3, 4, 5], channels_last=True), 1, False),
        case(op, T([2, 3, 4, 5], channels_last=True), -1, False),
        case(op, T([0, 3]), 1, False),
        case(op, T([1]), 0, False),
        case(op, T([]), 0, False),
        case(op, T([2, 4], values=[1, NAN, 3, -INF, -INF, 2, 0, -INF]), 1, False),
        case(op, T([2, 4], values=[1, NAN, 3, -INF, -INF, 2, 0, -INF]), 0, False),
        case(op, T([2, 3], values=[80, 90, 100, -100, -200, -300]), 1, False),
    ]

# var_mean.correction_out: (var, mean) of the same reduction.
VAR_MEAN = ("var_mean.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
            "bool keepdim=False, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))")


def var_mean_ref(x, dim=None, correction=None, keepdim=False):
    return torch.var_mean(x, dim, correction=1 if correction is None else correction, keepdim=keepdim)


for dt in FLOATS:
    CASES.append(case("aten::var_mean.correction_out", T([3, 5], dt), [1], schema=VAR_MEAN,
                      ref=var_mean_ref))
CASES += [case("aten::var_mean.correction_out", T([2, 3, 4]), None, schema=VAR_MEAN, ref=var_mean_ref),
          case("aten::var_mean.correction_out", T([2, 3, 4]), [0, 2], correction=0, keepdim=True,
               schema=VAR_MEAN, ref=var_mean_ref),
          case("aten::var_mean.correction_out", T([2, 3, 4, 5], channels_last=True), [1], keepdim=True,
               schema=VAR_MEAN, ref=var_mean_ref),
          case("aten::var_mean.correction_out", T([1, 4]), [0], schema=VAR_MEAN, ref=var_mean_ref)]
