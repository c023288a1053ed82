#include "cpp/kernels/util/reduce_simd.h"

#include <cmath>

#include "cpp/kernels/util/simd.h"
#include "cpp/kernels/util/simd_math.h"

namespace tri {
namespace {

inline float pick(float acc, float v, bool is_max) {
  // NaN wins: once acc is NaN it stays; a NaN v replaces acc.
  if (acc != acc) return acc;
  if (v != v) return v;
  return is_max ? (v > acc ? v : acc) : (v < acc ? v : acc);
}

#if TRI_WASM_SIMD
// NaN-propagating max / min of f32x4 (wasm's f32x4.max/min propagate NaN).
inline v128_t vpick(v128_t acc, v128_t v, bool is_max) {
  return is_max ? wasm_f32x4_max(acc, v) : wasm_f32x4_min(acc, v);
}
#endif

}  // namespace

double sum_f32(const float* x, int64_t n) {
  int64_t i = 0;
  double acc = 0;
#if TRI_WASM_SIMD
  if (simd_enabled() && n >= 8) {
    v128_t a0 = wasm_f64x2_splat(0), a1 = wasm_f64x2_splat(0);
    v128_t a2 = wasm_f64x2_splat(0), a3 = wasm_f64x2_splat(0);
    for (; i + 8 <= n; i += 8) {
      const v128_t v0 = wasm_v128_load(x + i);
      const v128_t v1 = wasm_v128_load(x + i + 4);
      a0 = wasm_f64x2_add(a0, wasm_f64x2_promote_low_f32x4(v0));
      a1 = wasm_f64x2_add(a1, wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v0, v0, 2, 3, 0, 1)));
      a2 = wasm_f64x2_add(a2, wasm_f64x2_promote_low_f32x4(v1));
      a3 = wasm_f64x2_add(a3, wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v1, v1, 2, 3, 0, 1)));
    }
    const v128_t s = wasm_f64x2_add(wasm_f64x2_add(a0, a1), wasm_f64x2_add(a2, a3));
    acc = wasm_f64x2_extract_lane(s, 0) + wasm_f64x2_extract_lane(s, 1);
  }
#endif
  for (; i < n; ++i) acc += static_cast<double>(x[i]);
  return acc;
}

void add_f32_rows(double* acc, const float* x, int64_t m) {
  int64_t i = 0;
#if TRI_WASM_SIMD
  if (simd_enabled()) {
    for (; i + 4 <= m; i += 4) {
      const v128_t v = wasm_v128_load(x + i);
      const v128_t lo = wasm_f64x2_promote_low_f32x4(v);
      const v128_t hi = wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
      wasm_v128_store(acc + i, wasm_f64x2_add(wasm_v128_load(acc + i), lo));
      wasm_v128_store(acc + i + 2, wasm_f64x2_add(wasm_v128_load(acc + i + 2), hi));
    }
  }
#endif
  for (; i < m; ++i) acc[i] += static_cast<double>(x[i]);
}

float extreme_f32(const float* x, int64_t n, float init, bool is_max) {
  int64_t i = 0;
  float acc = init;
#if TRI_WASM_SIMD
  if (simd_enabled() && n >= 8) {
    v128_t a0 = wasm_f32x4_splat(init), a1 = a0;
    for (; i + 8 <= n; i += 8) {
      a0 = vpick(a0, wasm_v128_load(x + i), is_max);
      a1 = vpick(a1, wasm_v128_load(x + i + 4), is_max);
    }
    float lane[4];
    wasm_v128_store(lane, vpick(a0, a1, is_max));
    for (int l = 0; l < 4; ++l) acc = pick(acc, lane[l], is_max);
  }
#endif
  for (; i < n; ++i) acc = pick(acc, x[i], is_max);
  return acc;
}

void extreme_f32_rows(float* acc, const float* x, int64_t m, bool is_max) {
  int64_t i = 0;
#if TRI_WASM_SIMD
  if (simd_enabled()) {
    for (; i + 4 <= m; i += 4) {
      wasm_v128_store(acc + i, vpick(wasm_v128_load(acc + i), wasm_v128_load(x + i), is_max));
    }
  }
#endif
  for (; i < m; ++i) acc[i] = pick(acc[i], x[i], is_max);
}

float exp_sum_f32(const float* x, float shift, float* y, int64_t n) {
  int64_t i = 0;
  float sum = 0;
#if TRI_WASM_SIMD
  if (simd_enabled() && n >= 4) {
    const v128_t s = wasm_f32x4_splat(shift);
    v128_t acc = wasm_f32x4_splat(0);
    for (; i + 4 <= n; i += 4) {
      const v128_t e = simd_math::exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(x + i), s));
      if (y != nullptr) wasm_v128_store(y + i, e);
      acc = wasm_f32x4_add(acc, e);
    }
    sum = (wasm_f32x4_extract_lane(acc, 0) + wasm_f32x4_extract_lane(acc, 1)) +
          (wasm_f32x4_extract_lane(acc, 2) + wasm_f32x4_extract_lane(acc, 3));
  }
#endif
  for (; i < n; ++i) {
    const float e = std::exp(x[i] - shift);
    if (y != nullptr) y[i] = e;
    sum += e;
  }
  return sum;
}

void scale_f32(const float* x, float s, float* y, int64_t n) {
  int64_t i = 0;
#if TRI_WASM_SIMD
  if (simd_enabled()) {
    const v128_t v = wasm_f32x4_splat(s);
    for (; i + 4 <= n; i += 4) wasm_v128_store(y + i, wasm_f32x4_mul(wasm_v128_load(x + i), v));
  }
#endif
  for (; i < n; ++i) y[i] = x[i] * s;
}

void sub_f32(const float* x, float s, float* y, int64_t n) {
  int64_t i = 0;
#if TRI_WASM_SIMD
  if (simd_enabled()) {
    const v128_t v = wasm_f32x4_splat(s);
    for (; i + 4 <= n; i += 4) wasm_v128_store(y + i, wasm_f32x4_sub(wasm_v128_load(x + i), v));
  }
#endif
  for (; i < n; ++i) y[i] = x[i] - s;
}

void exp_sum_f32_rows(const float* x, const float* shift, float* y, float* sum, int64_t m) {
  int64_t i = 0;
#if TRI_WASM_SIMD
  if (simd_enabled()) {
    for (; i + 4 <= m; i += 4) {
      const v128_t e = simd_math::exp_nonpositive(
          wasm_f32x4_sub(wasm_v128_load(x + i), wasm_v128_load(shift + i)));
      wasm_v128_store(y + i, e);
      wasm_v128_store(sum + i, wasm_f32x4_add(wasm_v128_load(sum + i), e));
    }
  }
#endif
  for (; i < m; ++i) {
    y[i] = std::exp(x[i] - shift[i]);
    sum[i] += y[i];
  }
}

void mul_f32_rows(const float* x, const float* s, float* y, int64_t m) {
  int64_t i = 0;
#if TRI_WASM_SIMD
  if (simd_enabled()) {
    for (; i + 4 <= m; i += 4) {
      wasm_v128_store(y + i, wasm_f32x4_mul(wasm_v128_load(x + i), wasm_v128_load(s + i)));
    }
  }
#endif
  for (; i < m; ++i) y[i] = x[i] * s[i];
}

void sub_f32_rows(const float* x, const float* s, float* y, int64_t m) {
  int64_t i = 0;
#if TRI_WASM_SIMD
  if (simd_enabled()) {
    for (; i + 4 <= m; i += 4) {
      wasm_v128_store(y + i, wasm_f32x4_sub(wasm_v128_load(x + i), wasm_v128_load(s + i)));
    }
  }
#endif
  for (; i < m; ++i) y[i] = x[i] - s[i];
}

}  // namespace tri
