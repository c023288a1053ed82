"""dim_order_ops:: (ExecuTorch's own ops; torch 1.13 lacks them, so each case
gives the schema and a reference)."""
import torch

from oplib import T, case

TO_DIM_ORDER = ("dim_order_ops::_to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, "
                "int[]? dim_order=None, Tensor(a!) out) -> Tensor(a!)")
CLONE_DIM_ORDER = ("dim_order_ops::_clone_dim_order.out(Tensor self, *, bool non_blocking=False, "
                   "int[]? dim_order=None, Tensor(a!) out) -> Tensor(a!)")


def to_layout(dtype=None):
    def ref(x, non_blocking=False, dim_order=None):
        # dim_order None preserves self's dim order (clone and .to keep the
        # strides of a dense tensor).
        y = x.to(dtype) if dtype is not None else x.clone()
        if dim_order is None:
            return y
        inverse = [list(dim_order).index(d) for d in range(len(dim_order))]
        return y.permute(list(dim_order)).contiguous().permute(inverse)
    return ref


CASES = [
    case("dim_order_ops::_to_dim_order_copy.out", T([2, 3, 4, 5]), dim_order=[0, 2, 3, 1],
         schema=TO_DIM_ORDER, ref=to_layout()),
    case("dim_order_ops::_to_dim_order_copy.out", T([2, 3, 4, 5], channels_last=True),
         dim_order=[0, 1, 2, 3], schema=TO_DIM_ORDER, ref=to_layout()),
    case("dim_order_ops::_to_dim_order_copy.out", T([3, 4], "int32"), schema=TO_DIM_ORDER,
         ref=to_layout(torch.float32)),
    case("dim_order_ops::_to_dim_order_copy.out", T([2, 3]), schema=TO_DIM_ORDER,
         ref=to_layout(torch.float16)),
    case("dim_order_ops::_to_dim_order_copy.out", T([2, 3], "bfloat16"), schema=TO_DIM_ORDER,
         ref=to_layout(torch.float64)),
    case("dim_order_ops::_to_dim_order_copy.out", T([0, 3], "bool"), schema=TO_DIM_ORDER,
         ref=to_layout(torch.int64)),
    case("dim_order_ops::_to_dim_order_copy.out", T([], "float64"), dim_order=[],
         schema=TO_DIM_ORDER, ref=to_layout(torch.int8)),
    case("dim_order_ops::_clone_dim_order.out", T([1, 3, 2, 2]), dim_order=[0, 2, 3, 1],
         schema=CLONE_DIM_ORDER, ref=to_layout()),
    case("dim_order_ops::_clone_dim_order.out", T([2, 2, 2, 3], "int16", channels_last=True),
         schema=CLONE_DIM_ORDER, ref=to_layout()),
]

EMPTY_DIM_ORDER = ("dim_order_ops::_empty_dim_order.out(int[] size, *, int[]? dim_order=None, "
                   "Tensor(a!) out) -> Tensor(a!)")


def empty_ref(dtype=torch.float32):
    def ref(size, dim_order=None):
        order = list(dim_order) if dim_order is not None else list(range(len(size)))
        inverse = [order.index(d) for d in range(len(order))]
        return torch.zeros([size[d] for d in order], dtype=dtype).permute(inverse)
    return ref


CASES += [case("dim_order_ops::_empty_dim_order.out", [2, 3], out_dtype=name, check="shape",
               schema=EMPTY_DIM_ORDER, ref=empty_ref(dt))
          for name, dt in [("float32", torch.float32), ("int64", torch.int64), ("bool", torch.bool)]]
CASES += [case("dim_order_ops::_empty_dim_order.out", [2, 3, 4, 5], dim_order=[0, 2, 3, 1],
               check="shape", schema=EMPTY_DIM_ORDER, ref=empty_ref()),
          case("dim_order_ops::_empty_dim_order.out", [2, 3], dim_order=[0, 1], check="shape",
               schema=EMPTY_DIM_ORDER, ref=empty_ref()),
          case("dim_order_ops::_empty_dim_order.out", [0, 4], check="shape",
               schema=EMPTY_DIM_ORDER, ref=empty_ref())]
