# Op cases of the views/copies, concatenation/splitting, padding, indexing,
# scatter, factory and random family (cpp/kernels/tables/shape_index.inc).
#
# Random ops (rand, randn, randperm, native_dropout in training) draw from
# the runtime's own generator, so they are checked by shape only. Index
# tensors are drawn in range with low=/high= (ATen raises otherwise).
from oplib import case, T

import torch

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int8", "int16", "int32", "int64", "uint8"]
REAL = FLOATS + INTS
ALL = REAL + ["bool"]


def I(shape, high, low=0):
    """An int64 index tensor with values in [low, high)."""
    return T(shape, "int64", low=low, high=high)


def per_dtype(op, make, dtypes=ALL):
    return [case(op, *make(dt)) for dt in dtypes]


CASES = []

# -- views and copies -----------------------------------------------------------
for op in ["aten::alias_copy.out", "aten::detach_copy.out", "aten::lift_fresh_copy.out"]:
    CASES += per_dtype(op, lambda dt: (T([2, 3], dt),))
    CASES += [case(op, T([0, 3])), case(op, T([])), case(op, T([2, 3, 4, 5], channels_last=True))]

CASES += per_dtype("aten::permute_copy.out", lambda dt: (T([2, 3, 4], dt), [2, 0, -2]))
CASES += [case("aten::permute_copy.out", T([2, 3, 4, 5], channels_last=True), [0, 3, 1, 2]),
          case("aten::permute_copy.out", T([0, 3]), [1, 0]),
          case("aten::permute_copy.out", T([]), [])]

CASES += per_dtype("aten::view_copy.out", lambda dt: (T([2, 3, 4], dt), [4, -1]))
CASES += [case("aten::view_copy.out", T([2, 3, 4, 5], channels_last=True), [6, 20]),
          case("aten::view_copy.out", T([0, 3]), [3, 0]),
          case("aten::view_copy.out", T([1]), [])]

CASES += per_dtype("aten::unsqueeze_copy.out", lambda dt: (T([2, 3], dt), -1))
CASES += [case("aten::unsqueeze_copy.out", T([]), 0),
          case("aten::unsqueeze_copy.out", T([2, 3, 4, 5], channels_last=True), 2)]

CASES += per_dtype("aten::squeeze_copy.out", lambda dt: (T([2, 1, 3, 1], dt),))
CASES += per_dtype("aten::squeeze_copy.dim_out", lambda dt: (T([2, 1, 3], dt), -2))
CASES += [case("aten::squeeze_copy.dim_out", T([2, 3]), 0),
          case("aten::squeeze_copy.out", T([1, 1])),
          case("aten::squeeze_copy.out", T([0, 1]))]
_squeeze_dims = dict(schema="squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)")


def _squeeze_ref(x, dims):
    for d in sorted([d % max(x.dim(), 1) for d in dims], reverse=True):
        if x.dim() > 0 and x.shape[d] == 1:
            x = x.squeeze(d)
    return x.clone()


CASES += [case("aten::squeeze_copy.dims_out", T([2, 1, 3, 1], dt), [1, -1], ref=_squeeze_ref, **_squeeze_dims)
          for dt in ["float32", "int64", "bool"]]
CASES += [case("aten::squeeze_copy.dims_out", T([1, 3]), [0, 1], ref=_squeeze_ref, **_squeeze_dims)]

CASES += per_dtype("aten::slice_copy.Tensor_out", lambda dt: (T([4, 5], dt), 1, 1, 4, 2))
CASES += [case("aten::slice_copy.Tensor_out", T([4, 5]), -2, -3, None, 1),
          case("aten::slice_copy.Tensor_out", T([4, 5]), 0, 10, 20, 1),   # empty
          case("aten::slice_copy.Tensor_out", T([4, 5]), 1, None, None, 7),
          case("aten::slice_copy.Tensor_out", T([2, 3, 4, 5], channels_last=True), 1, 1, 3, 1)]

CASES += per_dtype("aten::select_copy.int_out", lambda dt: (T([3, 4], dt), 1, -1))
CASES += [case("aten::select_copy.int_out", T([3]), 0, 2),
          case("aten::select_copy.int_out", T([2, 3, 4, 5], channels_last=True), 1, 2)]

CASES += per_dtype("aten::expand_copy.out", lambda dt: (T([3, 1], dt), [2, 3, 4]))
CASES += [case("aten::expand_copy.out", T([3, 1]), [-1, 0]),
          case("aten::expand_copy.out", T([]), [2, 2]),
          case("aten::expand_copy.out", T([1, 3, 1, 1], channels_last=True), [2, 3, 2, 2])]

CASES += per_dtype("aten::clone.out", lambda dt: (T([2, 3], dt),))
CASES += [case("aten::clone.out", T([2, 3, 4, 5], channels_last=True)),
          case("aten::clone.out", T([2, 3, 4, 5], channels_last=True), memory_format=torch.contiguous_format),
          case("aten::clone.out", T([0, 2]))]

CASES += [case("aten::_to_copy.out", T([2, 3], a), out_dtype=b) for a, b in
          [("float32", "int32"), ("float32", "float16"), ("float64", "bfloat16"), ("int64", "float32"),
           ("uint8", "int8"), ("bool", "float32"), ("float32", "bool"), ("int32", "int64"), ("float16", "float64")]]
CASES += [case("aten::_to_copy.out", T([2, 3, 4, 5], channels_last=True), out_dtype="float64"),
          case("aten::_to_copy.out", T([0]), out_dtype="int64")]

CASES += per_dtype("aten::transpose_copy.int_out", lambda dt: (T([2, 3, 4], dt), 0, -1))
CASES += [case("aten::transpose_copy.int_out", T([]), 0, -1),
          case("aten::transpose_copy.int_out", T([0, 3]), 0, 1),
          case("aten::transpose_copy.int_out", T([2, 3, 4, 5], channels_last=True), 1, 2)]

CASES += per_dtype("aten::t_copy.out", lambda dt: (T([2, 3], dt),))
CASES += [case("aten::t_copy.out", T([3])), case("aten::t_copy.out", T([])), case("aten::t_copy.out", T([0, 2]))]

CASES += per_dtype("aten::diagonal_copy.out", lambda dt: (T([3, 4], dt), 1))
CASES += [case("aten::diagonal_copy.out", T([2, 3, 4]), -1, -1, 0),
          case("aten::diagonal_copy.out", T([3, 4]), 5),
          case("aten::diagonal_copy.out", T([3, 4]), -2, 1, 0),
          case("aten::diagonal_copy.out", T([2, 3, 4, 5], channels_last=True), 0, 1, 3)]

CASES += per_dtype("aten::as_strided_copy.out", lambda dt: (T([9], dt), [2, 2], [3, 1], 1))
CASES += [case("aten::as_strided_copy.out", T([3, 3]), [3, 3], [1, 3]),
          case("aten::as_strided_copy.out", T([4]), [2, 3], [0, 1]),
          case("aten::as_strided_copy.out", T([4]), [0, 5], [1, 1])]

CASES += per_dtype("aten::narrow_copy.out", lambda dt: (T([4, 5], dt), 1, -3, 2))
CASES += [case("aten::narrow_copy.out", T([4, 5]), 0, 4, 0),
          case("aten::narrow_copy.out", T([2, 3, 4, 5], channels_last=True), 1, 1, 2)]

CASES += per_dtype("aten::unfold_copy.out", lambda dt: (T([7], dt), 0, 3, 2))
CASES += [case("aten::unfold_copy.out", T([2, 6]), -1, 2, 3),
          case("aten::unfold_copy.out", T([]), 0, 1, 1),
          case("aten::unfold_copy.out", T([3, 4]), 0, 0, 1),
          case("aten::unfold_copy.out", T([2, 3, 4, 5], channels_last=True), 2, 2, 1)]

# -- concatenation and splitting -------------------------------------------------
CASES += per_dtype("aten::cat.out", lambda dt: ([T([2, 3], dt), T([1, 3], dt)], 0))
CASES += [case("aten::cat.out", [T([2, 3]), T([2, 1]), T([2, 0])], -1),
          case("aten::cat.out", [T([2, 3], "int32"), T([1, 3], "float32")]),      # promotion
          case("aten::cat.out", [T([2, 3], "uint8"), T([2, 3], "int8")], 1),
          case("aten::cat.out", [T([2, 3]), T([0])]),                           # legacy empty
          case("aten::cat.out", [T([0]), T([0])]),
          case("aten::cat.out", [T([2, 3, 4, 5], channels_last=True), T([2, 3, 4, 5])], 1),
          case("aten::cat.out", [T([2, 3], "int32"), T([1, 3], "int32")], out_dtype="float32")]

CASES += per_dtype("aten::stack.out", lambda dt: ([T([2, 3], dt), T([2, 3], dt)], 1))
CASES += [case("aten::stack.out", [T([2, 3]), T([2, 3]), T([2, 3])], -1),
          case("aten::stack.out", [T([]), T([])]),
          case("aten::stack.out", [T([0, 3])]),
          case("aten::stack.out", [T([2, 3], "int64"), T([2, 3], "float64")], 0)]

CASES += per_dtype("aten::split_copy.Tensor_out", lambda dt: (T([5, 3], dt), 2))
CASES += [case("aten::split_copy.Tensor_out", T([2, 7]), 3, -1),
          case("aten::split_copy.Tensor_out", T([0, 3]), 0),
          case("aten::split_copy.Tensor_out", T([2, 4, 4, 5], channels_last=True), 2, 1)]

CASES += per_dtype("aten::split_with_sizes_copy.out", lambda dt: (T([5, 3], dt), [1, 0, 4]))
CASES += [case("aten::split_with_sizes_copy.out", T([2, 7]), [3, 4], -1),
          case("aten::split_with_sizes_copy.out", T([2, 4, 4, 5], channels_last=True), [1, 3], 1)]

CASES += per_dtype("aten::unbind_copy.int_out", lambda dt: (T([3, 2], dt),))
CASES += [case("aten::unbind_copy.int_out", T([2, 3, 2]), -1),
          case("aten::unbind_copy.int_out", T([2, 0]), 0)]

CASES += per_dtype("aten::repeat.out", lambda dt: (T([2, 3], dt), [2, 2]))
CASES += [case("aten::repeat.out", T([3, 1]), [2, 1, 2]),
          case("aten::repeat.out", T([2, 3]), [0, 1]),
          case("aten::repeat.out", T([]), [3]),
          case("aten::repeat.out", T([1, 3, 2, 2], channels_last=True), [2, 1, 1, 2])]

CASES += per_dtype("aten::flip.out", lambda dt: (T([2, 3, 4], dt), [0, -1]))
CASES += [case("aten::flip.out", T([2, 3]), []),
          case("aten::flip.out", T([0, 3]), [0]),
          case("aten::flip.out", T([2, 3, 4, 5], channels_last=True), [1, 2])]

CASES += per_dtype("aten::roll.out", lambda dt: (T([2, 3, 4], dt), [1, -5], [0, 2]))
CASES += [case("aten::roll.out", T([2, 3]), [7]),
          case("aten::roll.out", T([2, 3, 4, 5], channels_last=True), [3]),
          case("aten::roll.out", T([2, 3, 4, 5], channels_last=True), [1, 2], [1, -1]),
          case("aten::roll.out", T([0, 3]), [1], [1]),
          case("aten::roll.out", T([3]), [-1], [0])]

CASES += per_dtype("aten::tril.out", lambda dt: (T([3, 4], dt),))
CASES += per_dtype("aten::triu.out", lambda dt: (T([3, 4], dt),))
for op in ["aten::tril.out", "aten::triu.out"]:
    CASES += [case(op, T([2, 3, 4]), -1), case(op, T([4, 3]), 2), case(op, T([3, 4]), 100),
              case(op, T([3, 4]), -100), case(op, T([0, 3])),
              case(op, T([2, 3, 4, 5], channels_last=True), 1)]

# -- padding ---------------------------------------------------------------------
CASES += per_dtype("aten::constant_pad_nd.out", lambda dt: (T([2, 3], dt), [1, 2], 1))
CASES += [case("aten::constant_pad_nd.out", T([2, 3]), [1, -1, 0, 1], -1.5),
          case("aten::constant_pad_nd.out", T([2, 3, 4, 5], channels_last=True), [1, 1, 2, 0]),
          case("aten::constant_pad_nd.out", T([0, 3]), [1, 1]),
          case("aten::constant_pad_nd.out", T([3]), [-3, 0]),
          case("aten::constant_pad_nd.out", T([2, 3]), [])]
for n in (1, 2, 3):
    pads = [[1, 2], [1, 2, 2, 0], [1, 0, 2, 1, 1, 1]][n - 1]
    for kind in ("reflection", "replication"):
        op = f"aten::{kind}_pad{n}d.out"
        dts = ["float32", "float64"] + (["float16", "bfloat16"] if kind == "reflection" and n == 3 else [])
        CASES += [case(op, T([2, 2] + [3] * n, dt), pads) for dt in dts]
        CASES += [case(op, T([2] + [3] * n), pads),                 # unbatched
                  case(op, T([1, 2] + [4] * n), [-1, 1] * n),
                  case(op, T([0, 2] + [3] * n), pads)]              # empty batch
        if n == 2:
            CASES += [case(op, T([2, 3, 4, 5], channels_last=True), [1, 1, 2, 2])]

# -- indexing and scatter ------------------------------------------------------------
CASES += per_dtype("aten::index.Tensor_out", lambda dt: (T([4, 5], dt), [I([3], 4)]))
CASES += [case("aten::index.Tensor_out", T([4, 5, 6]), [None, I([2, 3], 5, low=-5)]),
          case("aten::index.Tensor_out", T([4, 5, 6]), [I([2], 4), None, I([2], 6)]),      # split: B first
          case("aten::index.Tensor_out", T([4, 5]), [T([4, 5], "bool")]),
          case("aten::index.Tensor_out", T([4, 5]), [T([4], "bool"), I([1], 5)]),
          case("aten::index.Tensor_out", T([4, 5]), [I([0], 4)]),
          case("aten::index.Tensor_out", T([2, 3, 4, 5], channels_last=True), [None, I([2], 3)])]

CASES += per_dtype("aten::index_put.out", lambda dt: (T([4, 5], dt), [I([3], 4)], T([5], dt)))
CASES += [case("aten::index_put.out", T([4, 5]), [I([3], 4, low=-4)], T([3, 5]), True),
          case("aten::index_put.out", T([4, 5]), [I([6], 4), I([6], 5)], T([]), True),
          case("aten::index_put.out", T([4, 5], "int32"), [None, I([2], 5)], T([4, 1], "int32"), True),
          case("aten::index_put.out", T([4, 5]), [T([4, 5], "bool")], T([1])),
          case("aten::index_put.out", T([4, 5, 6]), [I([2], 4), None, I([2], 6)], T([5])),
          case("aten::index_put.out", T([4, 5]), [I([0], 4)], T([5])),
          case("aten::index_put.out", T([2, 3, 4, 5], channels_last=True), [None, I([2], 3)], T([4, 5]))]

CASES += per_dtype("aten::index_select.out", lambda dt: (T([4, 5], dt), 1, I([3], 5)))
CASES += [case("aten::index_select.out", T([4, 5]), -2, I([0], 4)),
          case("aten::index_select.out", T([]), 0, I([1], 1)),    # newer ATen refuses more than one
          case("aten::index_select.out", T([2, 3, 4, 5], channels_last=True), 1, I([4], 3))]

CASES += per_dtype("aten::gather.out", lambda dt: (T([3, 4], dt), 1, I([3, 2], 4)))
CASES += [case("aten::gather.out", T([3, 4]), -2, I([5, 4], 3)),
          case("aten::gather.out", T([3, 4]), 0, I([0, 4], 3)),
          case("aten::gather.out", T([2, 3, 4, 5], channels_last=True), 1, I([2, 3, 4, 5], 3))]

CASES += per_dtype("aten::scatter.src_out", lambda dt: (T([3, 4], dt), 0, I([2, 4], 3), T([2, 4], dt)))
CASES += per_dtype("aten::scatter.value_out", lambda dt: (T([3, 4], dt), 1, I([3, 2], 4), 1))
CASES += [case("aten::scatter.value_out", T([3, 4]), -1, I([3, 2], 4), 2.5),
          case("aten::scatter.src_out", T([3, 4]), 1, I([0, 2], 4), T([0, 2]))]

# Unique destination indices (a permutation per column) keep repeated
# floating sums independent of order.
_perm = T([3, 4], "int64", values=[0, 2, 1, 1, 2, 0, 0, 2, 1, 1, 2, 0])
CASES += per_dtype("aten::scatter_add.out", lambda dt: (T([3, 4], dt), 0, I([2, 4], 3), T([2, 4], dt)), REAL)
CASES += [case("aten::scatter_add.out", T([3, 4]), -1, I([3, 6], 4), T([3, 6])),
          case("aten::scatter_add.out", T([3, 4]), 0, I([0, 4], 3), T([2, 4])),
          case("aten::scatter_add.out", T([2, 3, 4, 5], channels_last=True), 1, I([2, 3, 4, 5], 3),
               T([2, 3, 4, 5]))]
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for dt in ["float32", "float64", "int32", "int8"]:
        for inc in ((True, False) if dt in ("float32", "int32") else (True,)):
            CASES.append(case("aten::scatter_reduce.two_out", T([3, 4], dt), 0, I([3, 4], 3), T([3, 4], dt),
                              reduce, include_self=inc))
CASES += [case("aten::scatter_reduce.two_out", T([3, 4], "float16"), 0, _perm, T([3, 4], "float16"), "amax"),
          case("aten::scatter_reduce.two_out", T([3, 4], "bfloat16"), 1, _perm, T([3, 4], "bfloat16"), "sum"),
          case("aten::scatter_reduce.two_out", T([3, 4], "uint8"), 0, _perm, T([3, 4], "uint8"), "amin")]
CASES += [case("aten::scatter_reduce.two_out", T([3, 4], "int64"), 0, I([3, 4], 3), T([3, 4], "int64"),
               reduce) for reduce in ["sum", "amax", "mean"]]
# Bool: sum is logical or, prod logical and (ATen has no bool mean).
CASES += [case("aten::scatter_add.out", T([3, 4], "bool"), 0, I([3, 4], 3), T([3, 4], "bool"))]
CASES += [case("aten::scatter_reduce.two_out", T([3, 4], "bool"), 0, I([3, 4], 3), T([3, 4], "bool"),
               reduce, include_self=inc)
          for reduce in ["sum", "prod", "amax", "amin"] for inc in (True, False)]

CASES += per_dtype("aten::select_scatter.out", lambda dt: (T([3, 4], dt), T([4], dt), 0, -1))
CASES += [case("aten::select_scatter.out", T([3, 4]), T([3], "int32"), 1, 2),
          case("aten::select_scatter.out", T([2, 3, 4, 5], channels_last=True), T([2, 4, 5]), 1, 0)]

CASES += per_dtype("aten::slice_scatter.out", lambda dt: (T([4, 5], dt), T([4, 2], dt), 1, 1, None, 2))
CASES += [case("aten::slice_scatter.out", T([4, 5]), T([2, 5]), 0, -2),
          case("aten::slice_scatter.out", T([4, 5]), T([0, 5]), 0, 9, 12),
          case("aten::slice_scatter.out", T([2, 3, 4, 5], channels_last=True), T([2, 3, 2, 5]), 2, 1, 3)]

CASES += per_dtype("aten::masked_select.out", lambda dt: (T([3, 4], dt), T([3, 4], "bool")))
CASES += [case("aten::masked_select.out", T([3, 4]), T([4], "bool")),
          case("aten::masked_select.out", T([3, 1]), T([2, 3, 4], "bool")),
          case("aten::masked_select.out", T([0, 4]), T([4], "bool")),
          case("aten::masked_select.out", T([2, 3, 4, 5], channels_last=True), T([4, 5], "bool"))]

CASES += per_dtype("aten::masked_scatter.out", lambda dt: (T([3, 4], dt), T([3, 4], "bool"), T([12], dt)))
CASES += [case("aten::masked_scatter.out", T([3, 4]), T([3, 1], "bool"), T([4, 5])),
          case("aten::masked_scatter.out", T([4]), T([2, 4], "bool"), T([8])),
          case("aten::masked_scatter.out", T([2, 3, 4, 5], channels_last=True), T([4, 5], "bool"),
               T([2, 3, 4, 5]))]

CASES += per_dtype("aten::nonzero.out", lambda dt: (T([3, 4], dt, low=0, high=2) if dt not in ("bool",) else T([3, 4], dt),))
CASES += [case("aten::nonzero.out", T([2, 3], values=[0.0, float("nan"), -0.0, 1.0, 0.0, 2.0])),
          case("aten::nonzero.out", T([])),
          case("aten::nonzero.out", T([0, 3])),
          case("aten::nonzero.out", T([2, 3, 4, 5], "int32", low=0, high=2, channels_last=True))]

# -- factories ---------------------------------------------------------------------
CASES += [case("aten::full.out", [2, 3], 1.5, out_dtype=dt) for dt in FLOATS]
CASES += [case("aten::full.out", [2, 3], 7, out_dtype=dt) for dt in INTS]
CASES += [case("aten::full.out", [2], True, out_dtype="bool"),
          case("aten::full.out", [0, 3], 1.0),
          case("aten::full.out", [], -2.0)]
for op in ["aten::zeros.out", "aten::ones.out"]:
    CASES += [case(op, [2, 3], out_dtype=dt) for dt in ALL]
    CASES += [case(op, [0]), case(op, [])]
CASES += [case("aten::empty.out", [2, 3], out_dtype=dt, check="shape") for dt in ["float32", "int64", "bool"]]
CASES += [case("aten::empty.out", [0], check="shape")]
CASES += [case("aten::empty_strided.out", [2, 3], [3, 1], out_dtype=dt, check="shape")
          for dt in ["float32", "int64", "bool", "float16"]]
CASES += [case("aten::empty_strided.out", [2, 3, 4, 5], [60, 1, 15, 3], check="shape"),  # channels-last
          case("aten::empty_strided.out", [0, 4], [4, 1], check="shape"),
          case("aten::empty_strided.out", [3, 1], [1, 7], check="shape")]

CASES += per_dtype("aten::full_like.out", lambda dt: (T([2, 3], dt), 1))
CASES += [case("aten::full_like.out", T([2, 3, 4, 5], channels_last=True), -0.5),
          case("aten::full_like.out", T([0, 2]), 3.0)]

CASES += [case("aten::scalar_tensor.out", 2.5, out_dtype=dt) for dt in FLOATS]
CASES += [case("aten::scalar_tensor.out", 3, out_dtype=dt) for dt in INTS + ["bool"]]

CASES += [case("aten::arange.out", 5, out_dtype=dt) for dt in REAL]
CASES += [case("aten::arange.out", 0, out_dtype="int64"), case("aten::arange.out", 2.5)]
CASES += [case("aten::arange.start_out", 1, 10, 3, out_dtype=dt) for dt in REAL]
CASES += [case("aten::arange.start_out", -1.0, 1.0, 0.25), case("aten::arange.start_out", 5, 0, -2, out_dtype="int64"),
          case("aten::arange.start_out", 0.0, 1.0, 0.1, out_dtype="float64")]

CASES += [case("aten::copy.out", T([2, 3], a), T([3], b)) for a, b in
          [("float32", "float32"), ("int32", "float32"), ("float64", "float16"), ("bool", "int64"),
           ("uint8", "int8"), ("bfloat16", "float32"), ("int64", "bool"), ("float16", "int32"),
           ("int64", "int64"), ("bool", "bool")]]
CASES += [case("aten::copy.out", T([2, 3]), T([])),
          case("aten::copy.out", T([0, 3]), T([3])),
          case("aten::copy.out", T([2, 3, 4, 5], channels_last=True), T([2, 3, 4, 5])),
          case("aten::copy.out", T([2, 3], "int32"), T([2, 3]), out_dtype="float32")]

# -- random ------------------------------------------------------------------------
# Values are the runtime's own draws: check their properties, not PyTorch's.
CASES += [case("aten::rand.out", [2, 3], out_dtype=dt, check="range:0:1") for dt in FLOATS]
CASES += [case("aten::rand.out", [0], check="range:0:1")]
CASES += [case("aten::randn.out", [2, 3], out_dtype=dt, check="range:-1000:1000") for dt in FLOATS]
CASES += [case("aten::randn.out", [], check="range:-1000:1000")]
CASES += [case("aten::randperm.out", 10, out_dtype=dt, check="permutation") for dt in REAL]
CASES += [case("aten::randperm.out", 0, out_dtype="int64", check="permutation")]
CASES += [case("aten::native_dropout.out", T([4, 5], dt), 0.3, True, check="shape") for dt in FLOATS]
CASES += [case("aten::native_dropout.out", T([4, 5], dt), 0.3, False) for dt in FLOATS]
CASES += [case("aten::native_dropout.out", T([0, 2]), 0.5, True, check="shape"),
          case("aten::native_dropout.out", T([2, 3]), 1.0, True),      # everything dropped
          case("aten::native_dropout.out", T([2, 3, 4, 5], channels_last=True), 0.5, False)]

# empty_permuted (torch 2.1+): out's memory holds the dims in physical_layout.
EMPTY_PERMUTED = ("empty_permuted.out(SymInt[] size, int[] physical_layout, *, Tensor(a!) out) "
                  "-> Tensor(a!)")


def empty_permuted_ref(dtype="float32"):
    def ref(size, layout):
        inverse = [list(layout).index(d) for d in range(len(layout))]
        return torch.zeros([size[d] for d in layout], dtype=DTYPE[dtype]).permute(inverse)
    return ref


DTYPE = {"float32": torch.float32, "int64": torch.int64, "bool": torch.bool}
CASES += [case("aten::empty_permuted.out", [2, 3], [0, 1], out_dtype=dt, check="shape",
               schema=EMPTY_PERMUTED, ref=empty_permuted_ref(dt)) for dt in DTYPE]
CASES += [case("aten::empty_permuted.out", [2, 3, 4, 5], [0, 2, 3, 1], check="shape",
               schema=EMPTY_PERMUTED, ref=empty_permuted_ref()),
          case("aten::empty_permuted.out", [3, 4], [1, 0], check="shape",
               schema=EMPTY_PERMUTED, ref=empty_permuted_ref())]

# repeat_interleave.Tensor_out (torch 2.x has the out overload; 1.13's
# functional one is the reference).
REPEAT_INTERLEAVE = ("repeat_interleave.Tensor_out(Tensor repeats, *, SymInt? output_size=None, "
                     "Tensor(a!) out) -> Tensor(a!)")


def repeat_interleave_ref(repeats, output_size=None):
    return torch.repeat_interleave(repeats)


CASES += [case("aten::repeat_interleave.Tensor_out", T([5], dt, low=0, high=4),
               schema=REPEAT_INTERLEAVE, ref=repeat_interleave_ref) for dt in ["int32", "int64"]]
CASES += [case("aten::repeat_interleave.Tensor_out", T([4], "int64", values=[2, 0, 3, 1]),
               output_size=6, schema=REPEAT_INTERLEAVE, ref=repeat_interleave_ref),
          case("aten::repeat_interleave.Tensor_out", T([3], "int64", values=[0, 0, 0]),
               schema=REPEAT_INTERLEAVE, ref=repeat_interleave_ref),
          case("aten::repeat_interleave.Tensor_out", T([0], "int32"),
               schema=REPEAT_INTERLEAVE, ref=repeat_interleave_ref)]

# In-place ops, as ExecuTorch writes buffer mutations back (copy_) and KV
# caches (index_put_): the case's output is the call's returned value.
CASES += [case("aten::copy_", T([2, 3], a), T([3], b)) for a, b in
          [("float32", "float32"), ("int32", "float32"), ("float64", "float16"), ("bool", "int64"),
           ("uint8", "int8"), ("bfloat16", "float32"), ("int64", "bool"), ("int64", "int64"),
           ("bool", "bool")]]
CASES += [case("aten::copy_", T([2, 3]), T([])),
          case("aten::copy_", T([0, 3]), T([3])),
          case("aten::copy_", T([2, 3, 4, 5], channels_last=True), T([2, 3, 4, 5])),
          case("aten::copy_", T([1, 4, 2, 8]), T([1, 4, 1, 8]))]
CASES += per_dtype("aten::index_put_", lambda dt: (T([4, 5], dt), [I([3], 4)], T([5], dt)))
CASES += [case("aten::index_put_", T([4, 5]), [I([3], 4, low=-4)], T([3, 5]), True),
          case("aten::index_put_", T([4, 5]), [I([6], 4), I([6], 5)], T([]), True),
          case("aten::index_put_", T([4, 5], "int32"), [None, I([2], 5)], T([4, 1], "int32"), True),
          case("aten::index_put_", T([4, 5]), [T([4, 5], "bool")], T([1])),
          # A KV cache [B, H, S, D] written at two decoding positions.
          case("aten::index_put_", T([1, 2, 8, 4]), [None, None, I([2], 8)], T([1, 2, 2, 4]))]

# et_copy:: host/device copies (ExecuTorch's own; same memory here).
for name in ["_h2d_copy", "_d2h_copy"]:
    schema = f"et_copy::{name}.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"
    CASES += [case(f"et_copy::{name}.out", T([2, 3], dt), schema=schema, ref=lambda x: x.clone())
              for dt in ["float32", "int64", "bool", "float16"]]
    CASES += [case(f"et_copy::{name}.out", T([2, 3, 4, 5], channels_last=True), schema=schema,
                   ref=lambda x: x.clone()),
              case(f"et_copy::{name}.out", T([0, 3]), schema=schema, ref=lambda x: x.clone())]
