// The `int[]? dim_order` argument of the dim-order ops: when given it must be
// a permutation naming out's dim order; when None, out keeps self's.
#pragma once

#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

Error check_out_dim_order(KernelArgs& args, size_t index, const Tensor& self,
                          const Tensor& out);

}  // namespace tri
