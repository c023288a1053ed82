#include "cpp/kernels/simd/f32_gemm_minmax.h"

#include <cstring>

#include "cpp/kernels/util/gemm_f4.h"
#include "cpp/kernels/util/simd.h"

namespace tri {
namespace {

constexpr size_t kMr = kF32GemmMr;
constexpr size_t kNr = kF32GemmNr;

float clamp_scalar(float v, float lo, float hi) { return f4_lane_min(f4_lane_max(v, lo), hi); }

// One 6x8 tile over one packed block: rows come from `a` (ks * 6 pointers,
// step-major). Kept as a function called per tile, so V8 tiers it up.
void tile(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a, const float* w,
          float* c, size_t c_stride, F4 vmin, F4 vmax) {
  F4 acc[kMr][2];
  const F4 b0 = f4_load(w);
  const F4 b1 = f4_load(w + 4);
  for (size_t r = 0; r < kMr; ++r) {
    acc[r][0] = b0;
    acc[r][1] = b1;
  }
  w += kNr;
  for (size_t s = 0; s < ks; ++s) {
    const float* rows[kMr];
    for (size_t r = 0; r < kMr; ++r) rows[r] = a[s * kMr + r];
    for (size_t p = 0; p < kc; ++p) {
      const F4 w0 = f4_load(w);
      const F4 w1 = f4_load(w + 4);
      w += kNr;
      // A constant trip count: the compiler unrolls it into 12 accumulators.
      for (size_t r = 0; r < kMr; ++r) {
        const F4 v = f4_splat(rows[r][p]);
        acc[r][0] = f4_madd(acc[r][0], v, w0);
        acc[r][1] = f4_madd(acc[r][1], v, w1);
      }
    }
  }
  for (size_t r = 0; r < mr; ++r) {
    float* row = c + r * c_stride;
    const F4 lo = f4_clamp(acc[r][0], vmin, vmax);
    const F4 hi = f4_clamp(acc[r][1], vmin, vmax);
    if (nc == kNr) {
      f4_store(row, lo);
      f4_store(row + 4, hi);
    } else {
      alignas(16) float tmp[kNr];
      f4_store(tmp, lo);
      f4_store(tmp + 4, hi);
      memcpy(row, tmp, nc * sizeof(float));
    }
  }
}

void run_tiles(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
               const float* packed, float* c, size_t c_stride, float min, float max) {
  const F4 vmin = f4_splat(min);
  const F4 vmax = f4_splat(max);
  const size_t block = kNr * (1 + ks * kc);
  for (size_t j = 0; j < nc; j += kNr) {
    tile(mr, nc - j < kNr ? nc - j : kNr, kc, ks, a, packed, c + j, c_stride, vmin, vmax);
    packed += block;
  }
}

}  // namespace

size_t f32_gemm_packed_floats(size_t nc, size_t k) {
  return (nc + kNr - 1) / kNr * kNr * (k + 1);
}

void f32_gemm_pack(size_t nc, size_t k, const float* weights, size_t n_stride, size_t k_stride,
                   const float* bias, float* packed) {
  for (size_t j0 = 0; j0 < nc; j0 += kNr) {
    for (size_t j = 0; j < kNr; ++j) {
      packed[j] = j0 + j < nc && bias != nullptr ? bias[j0 + j] : 0.0f;
    }
    packed += kNr;
    for (size_t p = 0; p < k; ++p) {
      for (size_t j = 0; j < kNr; ++j) {
        packed[j] = j0 + j < nc ? weights[(j0 + j) * n_stride + p * k_stride] : 0.0f;
      }
      packed += kNr;
    }
  }
}

void f32_gemm_minmax_6x8(size_t mr, size_t nc, size_t k, const float* a, size_t a_stride,
                         const float* packed, float* c, size_t c_stride, float min, float max) {
  // Rows past mr repeat the last one: computed, never stored.
  const float* rows[kMr];
  for (size_t r = 0; r < kMr; ++r) rows[r] = a + (r < mr ? r : mr - 1) * a_stride;
  run_tiles(mr, nc, k, 1, rows, packed, c, c_stride, min, max);
}

void f32_igemm_minmax_6x8(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
                          const float* packed, float* c, size_t c_stride, float min, float max) {
  run_tiles(mr, nc, kc, ks, a, packed, c, c_stride, min, max);
}

void f32_igemm_minmax_reference(size_t mr, size_t nc, size_t kc, size_t ks,
                                const float* const* a, const float* packed, float* c,
                                size_t c_stride, float min, float max) {
  const size_t block = kNr * (1 + ks * kc);
  for (size_t r = 0; r < mr; ++r) {
    for (size_t j = 0; j < nc; ++j) {
      const float* w = packed + (j / kNr) * block;
      const size_t lane = j % kNr;
      float acc = w[lane];
      w += kNr;
      for (size_t s = 0; s < ks; ++s) {
        const float* row = a[s * kMr + r];
        for (size_t p = 0; p < kc; ++p) {
          acc += row[p] * w[(s * kc + p) * kNr + lane];
        }
      }
      c[r * c_stride + j] = clamp_scalar(acc, min, max);
    }
  }
}

}  // namespace tri

namespace tri {

void f32_gemm_minmax_reference(size_t mr, size_t nc, size_t k, const float* a, size_t a_stride,
                               const float* packed, float* c, size_t c_stride, float min,
                               float max) {
  const float* rows[kF32GemmMr];
  for (size_t r = 0; r < kF32GemmMr; ++r) rows[r] = a + (r < mr ? r : mr - 1) * a_stride;
  f32_igemm_minmax_reference(mr, nc, k, 1, rows, packed, c, c_stride, min, max);
}

void f32_gemm_minmax(size_t mr, size_t nc, size_t k, const float* a, size_t a_stride,
                     const float* packed, float* c, size_t c_stride, float min, float max) {
  if (simd_enabled()) {
    f32_gemm_minmax_6x8(mr, nc, k, a, a_stride, packed, c, c_stride, min, max);
  } else {
    f32_gemm_minmax_reference(mr, nc, k, a, a_stride, packed, c, c_stride, min, max);
  }
}

void f32_igemm_minmax(size_t mr, size_t nc, size_t kc, size_t ks, const float* const* a,
                      const float* packed, float* c, size_t c_stride, float min, float max) {
  if (simd_enabled()) {
    f32_igemm_minmax_6x8(mr, nc, kc, ks, a, packed, c, c_stride, min, max);
  } else {
    f32_igemm_minmax_reference(mr, nc, kc, ks, a, packed, c, c_stride, min, max);
  }
}

}  // namespace tri
