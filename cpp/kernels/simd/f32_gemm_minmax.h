// float32 GEMM microkernels over weights packed once, XNNPACK style:
// c = clamp(a @ w + bias, min, max), in tiles of up to 6 rows by 8 output
// channels (12 f32x4 accumulators). Two entry points share one tile loop:
// - gemm: the rows of `a` are strided in memory (fully connected layers,
//   1x1 convolutions over NHWC data);
// - igemm ("indirect"): each row of `a` is gathered from `ks` pointers of
//   `kc` floats (a convolution's window: one pointer per kernel tap, to an
//   NHWC input pixel, or to a zero row for padding).
// The packed layout, per block of 8 output channels (zero-padded): 8 bias
// values, then for each of the ks*kc reduction steps the 8 weights.
// Natively the f32x4 type is emulated, so the tests run the same tile logic
// against the scalar reference.
#pragma once

#include <cstddef>

namespace tri {

constexpr size_t kF32GemmMr = 6;
constexpr size_t kF32GemmNr = 8;

// Floats of packed weights for `nc` output channels and `k` reduction steps.
size_t f32_gemm_packed_floats(size_t nc, size_t k);

// Packs weights where element (output channel j, reduction step p) is
// weights[j * n_stride + p * k_stride]: [nc][k] row-major (PyTorch linear
// and OHWI convolution filters) is (k, 1); [k][nc] (XNNPACK's transposed
// fully connected filter, one group of a depthwise filter) is (1, row
// length). `bias` may be nullptr (zeros).
void f32_gemm_pack(size_t nc, size_t k, const float* weights, size_t n_stride, size_t k_stride,
                   const float* bias, float* packed);

// mr (<= 6) rows of c, nc columns (looped 8 at a time). Row r of a is
// a + r * a_stride (in floats), k long; c rows are c_stride floats apart.
void f32_gemm_minmax_6x8(size_t mr, size_t nc, size_t k, const float* a, size_t a_stride,
                         const float* packed, float* c, size_t c_stride, float min, float max);

// mr (<= 6) rows, each the concatenation over ks steps of kc floats at
// a[s * 6 + r] (s < ks, r < 6: rows at and past mr must still point at
// readable floats, e.g. repeat a valid row; they are computed, not stored).
void f32_igemm_minmax_6x8(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
                          const float* packed, float* c, size_t c_stride, float min, float max);

// The scalar references the tiles are tested against (same packed weights).
void f32_igemm_minmax_reference(size_t mr, size_t nc, size_t kc, size_t ks,
                                const float* const* a, const float* packed, float* c,
                                size_t c_stride, float min, float max);
void f32_gemm_minmax_reference(size_t mr, size_t nc, size_t k, const float* a, size_t a_stride,
                               const float* packed, float* c, size_t c_stride, float min,
                               float max);

// What kernels call: the 6x8 tiles when SIMD is on (simd_enabled()), the
// references otherwise.
void f32_gemm_minmax(size_t mr, size_t nc, size_t k, const float* a, size_t a_stride,
                     const float* packed, float* c, size_t c_stride, float min, float max);
void f32_igemm_minmax(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
                      const float* packed, float* c, size_t c_stride, float min, float max);

}  // namespace tri
