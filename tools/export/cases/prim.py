"""The symbolic-shape queries (aten::sym_*) and _local_scalar_dense: they
return one scalar, in ExecuTorch's prim layout [*args, result]."""
import torch

from oplib import T, case

IS_CONTIGUOUS = ("aten::sym_is_contiguous(Tensor self, "
                 "MemoryFormat memory_format=contiguous_format) -> bool")  # SymBool today


FORMATS = {0: torch.contiguous_format, 2: torch.channels_last, 3: torch.channels_last_3d}


def is_contiguous(x, memory_format=torch.contiguous_format):
    # A schema default arrives as its c10 number.
    return x.is_contiguous(memory_format=FORMATS.get(memory_format, memory_format))


# torch 1.13's sym_size.int / sym_stride.int misread negative dims (sym_size(x, -1)
# of a [2, 3, 4] tensor gives 3); Tensor.size/stride give the defined answer.
def size(x, dim):
    return x.size(dim)


def stride(x, dim):
    return x.stride(dim)


CASES = [
    case("aten::sym_size.int", T([2, 3, 4]), 1, ref=size),
    case("aten::sym_size.int", T([2, 3, 4]), -1, ref=size),
    case("aten::sym_size.int", T([0, 5], "int64"), 0, ref=size),
    case("aten::sym_stride.int", T([2, 3, 4]), 0, ref=stride),
    case("aten::sym_stride.int", T([2, 3, 4, 5], channels_last=True), 1, ref=stride),
    case("aten::sym_stride.int", T([2, 3, 4, 5], "uint8", channels_last=True), -1, ref=stride),
    case("aten::sym_numel", T([2, 3, 4])),
    case("aten::sym_numel", T([], "bool")),
    case("aten::sym_numel", T([3, 0])),
    case("aten::sym_size.int", T([4, 1], "bool"), 0, ref=size),
    case("aten::sym_stride.int", T([2, 3], "int64"), 0, ref=stride),
    case("aten::sym_stride.int", T([2, 3], "bool"), 1, ref=stride),
    case("aten::sym_numel", T([2, 5], "int64")),
    case("aten::sym_storage_offset", T([2, 3])),
    case("aten::sym_storage_offset", T([2, 3], "int64")),
    case("aten::sym_storage_offset", T([4], "bool")),
    case("aten::sym_is_contiguous", T([2, 3, 4, 5]), schema=IS_CONTIGUOUS, ref=is_contiguous),
    case("aten::sym_is_contiguous", T([2, 3, 4, 5], channels_last=True), schema=IS_CONTIGUOUS,
         ref=is_contiguous),
    case("aten::sym_is_contiguous", T([2, 3, 4, 5], channels_last=True), torch.channels_last,
         schema=IS_CONTIGUOUS, ref=is_contiguous),
    case("aten::sym_is_contiguous", T([2, 3, 4, 5]), torch.channels_last, schema=IS_CONTIGUOUS,
         ref=is_contiguous),
    case("aten::sym_is_contiguous", T([1, 3, 1, 1]), torch.channels_last, schema=IS_CONTIGUOUS,
         ref=is_contiguous),
    case("aten::_local_scalar_dense", T([], "float32", values=[2.5])),
    case("aten::_local_scalar_dense", T([1], "int64", values=[-7])),
    case("aten::_local_scalar_dense", T([], "bool", values=[1])),
    case("aten::_local_scalar_dense", T([], "float16", values=[0.25])),
]
