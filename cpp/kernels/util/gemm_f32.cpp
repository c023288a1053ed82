#include "cpp/kernels/util/gemm_f32.h"

#include <cstddef>

#include "cpp/kernels/simd/f32_gemm_minmax.h"
#include "cpp/kernels/util/gemm_f4.h"

namespace tri {
namespace {

constexpr size_t kNr = kF32GemmNr;
constexpr size_t kKc = kF32PanelKc;

// panel: a zero row (the tile's starting values), then panel[(p + 1) * 16 + j]
// = b(p, j) for j < nc, 0 beyond.
void pack_panel(const float* b, size_t ldb, size_t kc, size_t nc, float* panel) {
  for (size_t j = 0; j < kNr; j += 4) f4_store(panel + j, f4_zero());
  float* dst = panel + kNr;
  if (nc == kNr) {
    for (size_t p = 0; p < kc; ++p, dst += kNr) {
      const float* src = b + p * ldb;
      for (size_t j = 0; j < kNr; j += 4) f4_store(dst + j, f4_load(src + j));
    }
    return;
  }
  for (size_t p = 0; p < kc; ++p, dst += kNr) {
    const float* src = b + p * ldb;
    size_t j = 0;
    for (; j < nc; ++j) dst[j] = src[j];
    for (; j < kNr; ++j) dst[j] = 0.0f;
  }
}

}  // namespace

void gemm_f32_packed(int64_t m64, int64_t n64, int64_t k64, MatView<float> a, MatView<float> b,
                     float* c, int64_t ldc64) {
  // size_t indices: int64 arithmetic is slower in wasm32's loops.
  const size_t m = static_cast<size_t>(m64), n = static_cast<size_t>(n64);
  const size_t k = static_cast<size_t>(k64), ldc = static_cast<size_t>(ldc64);
  const size_t ldb = static_cast<size_t>(b.rs);
  if (k == 0) {
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) c[i * ldc + j] = 0.0f;
    }
    return;
  }
  alignas(16) float panel[kNr * (kKc + 1)];
  // The tile reads rows of A as contiguous runs: a strided A is copied,
  // two rows at a time, per panel.
  const bool a_rows_contiguous = a.cs == 1;
  alignas(16) float a_rows[kF32GemmMr * kKc];
  for (size_t p0 = 0; p0 < k; p0 += kKc) {
    const size_t kc = k - p0 < kKc ? k - p0 : kKc;
    for (size_t j0 = 0; j0 < n; j0 += kNr) {
      const size_t nc = n - j0 < kNr ? n - j0 : kNr;
      pack_panel(b.data + p0 * ldb + j0, ldb, kc, nc, panel);
      if (a_rows_contiguous) {
        f32_gemm_panel(m, nc, kc, a.data + p0, static_cast<size_t>(a.rs), panel, c + j0, ldc,
                       p0 > 0);
        continue;
      }
      for (size_t i = 0; i < m; i += kF32GemmMr) {
        const size_t rows = m - i < kF32GemmMr ? m - i : kF32GemmMr;
        for (size_t r = 0; r < rows; ++r) {
          for (size_t p = 0; p < kc; ++p) {
            a_rows[r * kKc + p] = a.data[static_cast<int64_t>(i + r) * a.rs +
                                         static_cast<int64_t>(p0 + p) * a.cs];
          }
        }
        f32_gemm_panel(rows, nc, kc, a_rows, kKc, panel, c + i * ldc + j0, ldc, p0 > 0);
      }
    }
  }
}

}  // namespace tri
