// The float32 gemm behind mm, addmm, bmm, linear and convolution when SIMD
// is on: B is packed kc x 16 panel by panel (zero-padded at the right edge)
// and the 2x16 microkernel of cpp/kernels/simd/f32_gemm_minmax runs over
// each panel. Natively the f32x4 type is emulated, so tests check the
// packing and edge logic against gemm_reference.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/channel_affine.h"
#include "cpp/kernels/util/gemm.h"

namespace tri {

// c[i * ldc + j] = row_start[j] + sum_p a(i, p) * b(p, j) (row_start null:
// 0); b is row-major (b.cs == 1) or column-major (b.rs == 1), packed panel
// by panel either way. The starting row (addmm's and linear's bias) is the
// tiles' starting values, not a pass over c. With an epilogue, the
// microkernel finishes each row with it in the last K block, before the
// tile is stored.
void gemm_f32_packed(int64_t m, int64_t n, int64_t k, MatView<float> a, MatView<float> b,
                     float* c, int64_t ldc, const RowEpilogue* epilogue = nullptr,
                     const float* row_start = nullptr);

}  // namespace tri
