// mm-style products on Tensors: checks, sizing and dispatch to gemm.h.
#pragma once

#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri {

// A strided matrix of any dtype; strides in bytes.
struct AnyMat {
  char* data;
  ScalarType type;
  int64_t rs;
  int64_t cs;
};

// Row i, column j of a 2-D tensor (or of dims d0, d1 of any tensor).
AnyMat any_mat(const Tensor& t, int32_t d0 = 0, int32_t d1 = 1);

// c = a @ b for [m, k] @ [k, n]; a, b and c share one dtype. Packs or
// converts through context.temp; works (slower) without it.
void matmul_any(KernelContext& context, int64_t m, int64_t n, int64_t k, const AnyMat& a,
                const AnyMat& b, const AnyMat& c);

// c = row + a @ b for float32 a, b and c, row[n] added to every row of c
// (addmm's and linear's bias), or c = a @ b when row is null: matmul_any's
// float32 path. Where the packed gemm runs, the row is its tiles' starting
// values instead of a second pass over c.
void matmul_add_row_f32(KernelContext& context, int64_t m, int64_t n, int64_t k, const AnyMat& a,
                        const AnyMat& b, const AnyMat& c, const float* row);

// bias's data when it is one float32 row of n values (shape [n], or ones
// then n), which broadcasts to every row of a product with n
// columns; null otherwise.
const float* f32_bias_row(const Tensor& bias, int64_t n);

// The temp matmul_any takes for a [m, k] @ [k, n] product of `type` on its
// fast path: a packed copy of b (or of a, for a column-major out), or a, b
// and c converted to the compute type.
size_t matmul_scratch(ScalarType type, int64_t m, int64_t n, int64_t k);

// The same, for a kernel that hands matmul_any the rest of temp through
// carve_rest.
size_t carved_matmul_scratch(ScalarType type, int64_t m, int64_t n, int64_t k);

// A bump allocator over all of temp's remaining space, so a kernel can
// reset() it between iterations (temp itself only resets between calls).
MemoryAllocator carve_rest(MemoryAllocator* temp);

// Checks that a [m, k] and b [k, n] are 2-D and have out's dtype, and
// resizes out to [m, n].
Error check_matmul(const Tensor& a, const Tensor& b, Tensor& out);

// out = a @ b (after check_matmul). May use context.temp to pack a
// non-row-major b; falls back to the reference kernel without it.
void matmul_into(KernelContext& context, const Tensor& a, const Tensor& b, Tensor& out);

// out = row + a @ b, as matmul_add_row_f32 (after check_matmul, float32).
void matmul_add_row_into(KernelContext& context, const Tensor& a, const Tensor& b,
                         const float* row, Tensor& out);

}  // namespace tri
