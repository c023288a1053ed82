#include "cpp/kernels/util/reduce_simd.h"

#include <cmath>

#include "cpp/kernels/util/simd.h"

namespace tri {
namespace {

inline float pick(float acc, float v, bool is_max) {
  // NaN wins: once acc is NaN it stays; a NaN v replaces acc.
  if (acc != acc) return acc;
  if (v != v) return v;
  return is_max ? (v > acc ? v : acc) : (v < acc ? v : acc);
}

#if TRI_WASM_SIMD
// exp(x) for f32x4: x = k*ln2 + r with |r| <= ln2/2, e^r by a degree-6
// polynomial (Cephes' expf coefficients), times 2^k through the exponent
// bits. Below -87.3 the result is 0 (exp(-inf) = 0; subnormal results
// flush to 0), above log(FLT_MAX) it is inf; NaN stays NaN.
inline v128_t exp_f32x4(v128_t x) {
  const v128_t hi = wasm_f32x4_splat(88.72283905206835f);
  const v128_t lo = wasm_f32x4_splat(-87.3365478515625f);
  const v128_t under = wasm_f32x4_lt(x, lo);
  const v128_t over = wasm_f32x4_gt(x, hi);
  x = wasm_f32x4_min(x, hi);  // keeps NaN
  x = wasm_f32x4_max(x, lo);
  v128_t k = wasm_f32x4_nearest(wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504088896341f)));
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(k, wasm_f32x4_splat(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(k, wasm_f32x4_splat(-2.12194440e-4f)));
  v128_t p = wasm_f32x4_splat(1.9875691500e-4f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.3981999507e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(8.3334519073e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(4.1665795894e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.6666665459e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(5.0000001201e-1f));
  const v128_t r2 = wasm_f32x4_mul(r, r);
  p = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(p, r2), r), wasm_f32x4_splat(1.0f));
  // k is in [-126, 128] here; 2^k = (k + 127) << 23, split in two factors so
  // that k = 128 does not overflow the exponent field.
  const v128_t ki = wasm_i32x4_trunc_sat_f32x4(k);
  const v128_t half = wasm_i32x4_shr(ki, 1);
  const v128_t s1 = wasm_i32x4_shl(wasm_i32x4_add(half, wasm_i32x4_splat(127)), 23);
  const v128_t s2 =
      wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_sub(ki, half), wasm_i32x4_splat(127)), 23);
  p = wasm_f32x4_mul(wasm_f32x4_mul(p, s1), s2);
  p = wasm_v128_bitselect(wasm_f32x4_splat(INFINITY), p, over);
  return wasm_v128_andnot(p, under);
}

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
      const v128_t e = exp_f32x4(wasm_f32x4_sub(wasm_v128_load(x + i), s));
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
      const v128_t e = exp_f32x4(wasm_f32x4_sub(wasm_v128_load(x + i), wasm_v128_load(shift + i)));
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
