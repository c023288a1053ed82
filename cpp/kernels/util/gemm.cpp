#include "cpp/kernels/util/gemm.h"

#include <type_traits>

#include "cpp/kernels/util/gemm_f32.h"
#include "cpp/kernels/util/simd.h"

namespace tri {
namespace {

// c[r][0, nc) (+)= sum_{p < kc} a[r](p) * b[p][0, nc) for four rows r.
template <typename T>
void gemm_tile_4(const T* const a[4], int64_t a_cs, const T* b, int64_t ldb, int64_t kc,
                 T* const c[4], int64_t nc, bool first) {
  T* c0 = c[0];
  T* c1 = c[1];
  T* c2 = c[2];
  T* c3 = c[3];
  if (first) {
    for (int64_t j = 0; j < nc; ++j) {
      c0[j] = T(0);
      c1[j] = T(0);
      c2[j] = T(0);
      c3[j] = T(0);
    }
  }
  for (int64_t p = 0; p < kc; ++p) {
    const T a0 = a[0][p * a_cs];
    const T a1 = a[1][p * a_cs];
    const T a2 = a[2][p * a_cs];
    const T a3 = a[3][p * a_cs];
    const T* brow = b + p * ldb;
    for (int64_t j = 0; j < nc; ++j) {
      const T bj = brow[j];
      c0[j] += a0 * bj;
      c1[j] += a1 * bj;
      c2[j] += a2 * bj;
      c3[j] += a3 * bj;
    }
  }
}

// The same for one row (the remainder rows, and vector-matrix products).
template <typename T>
void gemm_tile_1(const T* a, int64_t a_cs, const T* b, int64_t ldb, int64_t kc, T* c,
                 int64_t nc, bool first) {
  if (first) {
    for (int64_t j = 0; j < nc; ++j) c[j] = T(0);
  }
  for (int64_t p = 0; p < kc; ++p) {
    const T ap = a[p * a_cs];
    const T* brow = b + p * ldb;
    for (int64_t j = 0; j < nc; ++j) c[j] += ap * brow[j];
  }
}

}  // namespace

template <typename T>
void gemm_blocked(int64_t m, int64_t n, int64_t k, MatView<T> a, MatView<T> b, T* c,
                  int64_t ldc) {
  if constexpr (std::is_same<T, float>::value) {
    if (simd_enabled()) {
      gemm_f32_packed(m, n, k, a, b, c, ldc);
      return;
    }
  }
  if (k == 0) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = T(0);
    }
    return;
  }
  for (int64_t j0 = 0; j0 < n; j0 += kGemmNc) {
    const int64_t nc = n - j0 < kGemmNc ? n - j0 : kGemmNc;
    for (int64_t p0 = 0; p0 < k; p0 += kGemmKc) {
      const int64_t kc = k - p0 < kGemmKc ? k - p0 : kGemmKc;
      const T* bslice = b.data + p0 * b.rs + j0;
      int64_t i = 0;
      for (; i + 4 <= m; i += 4) {
        const T* arows[4];
        T* crows[4];
        for (int r = 0; r < 4; ++r) {
          arows[r] = a.data + (i + r) * a.rs + p0 * a.cs;
          crows[r] = c + (i + r) * ldc + j0;
        }
        gemm_tile_4(arows, a.cs, bslice, b.rs, kc, crows, nc, p0 == 0);
      }
      for (; i < m; ++i) {
        gemm_tile_1(a.data + i * a.rs + p0 * a.cs, a.cs, bslice, b.rs, kc, c + i * ldc + j0,
                    nc, p0 == 0);
      }
    }
  }
}

void gemm_blocked_epilogue(int64_t m, int64_t n, int64_t k, MatView<float> a, MatView<float> b,
                           float* c, int64_t ldc, const RowEpilogue& e) {
  if (simd_enabled()) {
    gemm_f32_packed(m, n, k, a, b, c, ldc, &e);
    return;
  }
  gemm_blocked<float>(m, n, k, a, b, c, ldc);
  if (!e.active()) return;
  for (int64_t i = 0; i < m; ++i) {
    finish_row(e, static_cast<size_t>(i), c + i * ldc, static_cast<size_t>(n));
  }
}

template void gemm_blocked<float>(int64_t, int64_t, int64_t, MatView<float>, MatView<float>,
                                  float*, int64_t);
template void gemm_blocked<double>(int64_t, int64_t, int64_t, MatView<double>,
                                   MatView<double>, double*, int64_t);
template void gemm_blocked<uint64_t>(int64_t, int64_t, int64_t, MatView<uint64_t>,
                                     MatView<uint64_t>, uint64_t*, int64_t);

}  // namespace tri
