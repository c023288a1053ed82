// Matrix multiply C = A @ B for mm and addmm.
// - gemm_reference: the plain triple loop over any strides and dtypes; it is
//   the scalar reference that the blocked (and later SIMD) kernels are tested
//   against (tests only: matmul.cpp does not instantiate it).
// - gemm_blocked: float32, float64 and uint64 (the wrapping int64 compute
//   type; matmul.cpp converts other dtypes) with B's rows contiguous; C is computed in
//   tiles of 4 rows x kGemmNc columns over kGemmKc-deep slices of K, so a
//   slice of B stays in cache and each B row load feeds four rows of C. One
//   call of the tile function per tile keeps hot loops in frequently-called
//   functions (V8 tiering).
#pragma once

#include <cstdint>

#include "cpp/kernels/util/cast.h"
#include "cpp/kernels/util/channel_affine.h"

namespace tri {

// A strided matrix: element (i, j) is data[i * rs + j * cs].
template <typename T>
struct MatView {
  const T* data;
  int64_t rs;
  int64_t cs;
};

constexpr int64_t kGemmNc = 256;
constexpr int64_t kGemmKc = 256;

// c[i * ldc + j] = sum_p a(i, p) * b(p, j), accumulated in ComputeType<T>
// (integers wrap).
template <typename T>
void gemm_reference(int64_t m, int64_t n, int64_t k, MatView<T> a, MatView<T> b, T* c,
                    int64_t ldc) {
  using C = ComputeType<T>;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      C acc = C(0);
      for (int64_t p = 0; p < k; ++p) {
        const C x = cast_value<C>(a.data[i * a.rs + p * a.cs]);
        const C y = cast_value<C>(b.data[p * b.rs + j * b.cs]);
        if constexpr (std::is_integral<C>::value) {
          acc = static_cast<C>(static_cast<std::make_unsigned_t<C>>(acc) +
                               static_cast<std::make_unsigned_t<C>>(x) *
                                   static_cast<std::make_unsigned_t<C>>(y));
        } else {
          acc += x * y;
        }
      }
      c[i * ldc + j] = cast_value<T>(acc);
    }
  }
}

// Requires b.cs == 1. T is float, double or uint64_t.
template <typename T>
void gemm_blocked(int64_t m, int64_t n, int64_t k, MatView<T> a, MatView<T> b, T* c,
                  int64_t ldc);

// gemm_blocked<float>, with row i of C then finished by e's row i: inside
// the SIMD gemm's tiles while they are in cache, else in a pass after it.
void gemm_blocked_epilogue(int64_t m, int64_t n, int64_t k, MatView<float> a, MatView<float> b,
                           float* c, int64_t ldc, const RowEpilogue& e);

extern template void gemm_blocked<float>(int64_t, int64_t, int64_t, MatView<float>,
                                         MatView<float>, float*, int64_t);
extern template void gemm_blocked<double>(int64_t, int64_t, int64_t, MatView<double>,
                                          MatView<double>, double*, int64_t);
extern template void gemm_blocked<uint64_t>(int64_t, int64_t, int64_t, MatView<uint64_t>,
                                            MatView<uint64_t>, uint64_t*, int64_t);

}  // namespace tri
