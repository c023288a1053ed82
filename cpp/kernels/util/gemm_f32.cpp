#include "cpp/kernels/util/gemm_f32.h"

#include "cpp/kernels/util/gemm_f4.h"

namespace tri {
namespace {

constexpr int64_t kNr = 8;
constexpr int64_t kMr = 6;

// R rows of c, nc (<= 8) columns, over one packed kc x 8 panel. `first`
// overwrites c, later K slices add to it. One call per tile keeps the hot
// loop in a function V8 tiers up.
template <int R>
void micro_tile(const float* a, int64_t a_rs, int64_t a_cs, const float* panel, int64_t kc,
                float* c, int64_t ldc, int64_t nc, bool first) {
  F4 acc[R][2];
  for (int r = 0; r < R; ++r) {
    acc[r][0] = f4_zero();
    acc[r][1] = f4_zero();
  }
  for (int64_t p = 0; p < kc; ++p) {
    const F4 b0 = f4_load(panel + p * kNr);
    const F4 b1 = f4_load(panel + p * kNr + 4);
    for (int r = 0; r < R; ++r) {
      const F4 av = f4_splat(a[r * a_rs + p * a_cs]);
      acc[r][0] = f4_madd(acc[r][0], av, b0);
      acc[r][1] = f4_madd(acc[r][1], av, b1);
    }
  }
  for (int r = 0; r < R; ++r) {
    float* row = c + r * ldc;
    if (nc == kNr) {
      if (!first) {
        acc[r][0] = f4_add(acc[r][0], f4_load(row));
        acc[r][1] = f4_add(acc[r][1], f4_load(row + 4));
      }
      f4_store(row, acc[r][0]);
      f4_store(row + 4, acc[r][1]);
    } else {
      float tmp[kNr];
      f4_store(tmp, acc[r][0]);
      f4_store(tmp + 4, acc[r][1]);
      for (int64_t j = 0; j < nc; ++j) row[j] = first ? tmp[j] : row[j] + tmp[j];
    }
  }
}

using TileFn = void (*)(const float*, int64_t, int64_t, const float*, int64_t, float*, int64_t,
                        int64_t, bool);
constexpr TileFn kTiles[kMr + 1] = {nullptr,        micro_tile<1>, micro_tile<2>, micro_tile<3>,
                                    micro_tile<4>, micro_tile<5>, micro_tile<6>};

// panel[p * 8 + j] = b(p, j) for j < nc, 0 beyond.
void pack_panel(const float* b, int64_t ldb, int64_t kc, int64_t nc, float* panel) {
  if (nc == kNr) {
    for (int64_t p = 0; p < kc; ++p) {
      f4_store(panel + p * kNr, f4_load(b + p * ldb));
      f4_store(panel + p * kNr + 4, f4_load(b + p * ldb + 4));
    }
    return;
  }
  for (int64_t p = 0; p < kc; ++p) {
    const float* src = b + p * ldb;
    float* dst = panel + p * kNr;
    int64_t j = 0;
    for (; j < nc; ++j) dst[j] = src[j];
    for (; j < kNr; ++j) dst[j] = 0.0f;
  }
}

}  // namespace

void gemm_f32_packed(int64_t m, int64_t n, int64_t k, MatView<float> a, MatView<float> b,
                     float* c, int64_t ldc) {
  if (k == 0) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = 0.0f;
    }
    return;
  }
  alignas(16) float panel[kGemmKc * kNr];
  for (int64_t p0 = 0; p0 < k; p0 += kGemmKc) {
    const int64_t kc = k - p0 < kGemmKc ? k - p0 : kGemmKc;
    for (int64_t j0 = 0; j0 < n; j0 += kNr) {
      const int64_t nc = n - j0 < kNr ? n - j0 : kNr;
      pack_panel(b.data + p0 * b.rs + j0, b.rs, kc, nc, panel);
      for (int64_t i = 0; i < m; i += kMr) {
        const int64_t rows = m - i < kMr ? m - i : kMr;
        kTiles[rows](a.data + i * a.rs + p0 * a.cs, a.rs, a.cs, panel, kc, c + i * ldc + j0, ldc,
                     nc, p0 == 0);
      }
    }
  }
}

}  // namespace tri
