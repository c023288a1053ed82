// mm-style products on Tensors: checks, sizing and dispatch to gemm.h.
#pragma once

#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri {

// Checks that a [m, k] and b [k, n] are 2-D and have out's dtype, and
// resizes out to [m, n].
Error check_matmul(const Tensor& a, const Tensor& b, Tensor& out);

// out = a @ b (after check_matmul). May use context.temp to pack a
// non-row-major b; falls back to the reference kernel without it.
void matmul_into(KernelContext& context, const Tensor& a, const Tensor& b, Tensor& out);

}  // namespace tri
