// A 4-lane float vector for the SIMD kernels (gemm, depthwise conv, pooling,
// the NHWC microkernels of cpp/kernels/simd):
// wasm_simd128's f32x4 where it exists, a plain struct elsewhere, so native
// tests run the vector paths' logic too. mul then add (no fused multiply-add),
// so lanes round exactly like the scalar reference.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/kernels/util/simd.h"

namespace tri {

// One lane of wasm's f32x4.max/min: NaN in either operand gives NaN.
inline float f4_lane_max(float a, float b) { return a != a || b != b ? a + b : (a > b ? a : b); }
inline float f4_lane_min(float a, float b) { return a != a || b != b ? a + b : (a < b ? a : b); }

#if TRI_WASM_SIMD
using F4 = v128_t;
inline F4 f4_zero() { return wasm_f32x4_splat(0.0f); }
inline F4 f4_load(const float* p) { return wasm_v128_load(p); }
inline F4 f4_splat(float x) { return wasm_f32x4_splat(x); }
// One float from memory in every lane: a single vbroadcastss in V8, where
// f4_splat of a loaded scalar is a load and a shuffle.
inline F4 f4_load_splat(const float* p) { return wasm_v128_load32_splat(p); }
// The first n (< 4) lanes from p, the rest 0; lane inserts rather than a
// stack buffer, so microkernels using it keep no stack frame.
inline F4 f4_load_partial(const float* p, size_t n) {
  F4 v = wasm_f32x4_splat(0.0f);
  if (n > 0) v = wasm_f32x4_replace_lane(v, 0, p[0]);
  if (n > 1) v = wasm_f32x4_replace_lane(v, 1, p[1]);
  if (n > 2) v = wasm_f32x4_replace_lane(v, 2, p[2]);
  return v;
}
// Lanes 0 and 2 of a then of b; lanes 1 and 3 (stride-2 windows).
inline F4 f4_even(F4 a, F4 b) { return wasm_i32x4_shuffle(a, b, 0, 2, 4, 6); }
inline F4 f4_odd(F4 a, F4 b) { return wasm_i32x4_shuffle(a, b, 1, 3, 5, 7); }
// a0 b0 a1 b1 and a2 b2 a3 b3 (pairs back to a row).
inline F4 f4_zip_lo(F4 a, F4 b) { return wasm_i32x4_shuffle(a, b, 0, 4, 1, 5); }
inline F4 f4_zip_hi(F4 a, F4 b) { return wasm_i32x4_shuffle(a, b, 2, 6, 3, 7); }
inline void f4_store_partial(float* p, size_t n, F4 v) {
  if (n > 0) p[0] = wasm_f32x4_extract_lane(v, 0);
  if (n > 1) p[1] = wasm_f32x4_extract_lane(v, 1);
  if (n > 2) p[2] = wasm_f32x4_extract_lane(v, 2);
}
inline F4 f4_madd(F4 acc, F4 a, F4 b) { return wasm_f32x4_add(acc, wasm_f32x4_mul(a, b)); }
// The lane sums of a, b, c and d, as lanes 0-3: (x0 + x2) + (x1 + x3) each.
inline F4 f4_sum_lanes4(F4 a, F4 b, F4 c, F4 d) {
  const F4 ab = wasm_f32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
  const F4 cd = wasm_f32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
  return wasm_f32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
}
inline F4 f4_add(F4 a, F4 b) { return wasm_f32x4_add(a, b); }
inline void f4_store(float* p, F4 v) { wasm_v128_store(p, v); }
inline F4 f4_div(F4 a, F4 b) { return wasm_f32x4_div(a, b); }
inline F4 f4_sub(F4 a, F4 b) { return wasm_f32x4_sub(a, b); }
inline F4 f4_mul(F4 a, F4 b) { return wasm_f32x4_mul(a, b); }
// IEEE-style: NaN in either lane gives NaN (ATen's and XNNPACK's clamps).
inline F4 f4_max(F4 a, F4 b) { return wasm_f32x4_max(a, b); }
inline F4 f4_min(F4 a, F4 b) { return wasm_f32x4_min(a, b); }
// The lane-wise clamp of fused activations: max then min, as XNNPACK does.
inline F4 f4_clamp(F4 v, F4 lo, F4 hi) { return wasm_f32x4_min(wasm_f32x4_max(v, lo), hi); }
// best/index of a max scan: lanes where v > best or v is NaN take v and i.
inline void f4_max_index(F4& best, v128_t& index, F4 v, int32_t i) {
  const v128_t take = wasm_v128_or(wasm_f32x4_gt(v, best), wasm_f32x4_ne(v, v));
  best = wasm_v128_bitselect(v, best, take);
  index = wasm_v128_bitselect(wasm_i32x4_splat(i), index, take);
}
using I4 = v128_t;
inline I4 i4_splat(int32_t x) { return wasm_i32x4_splat(x); }
inline I4 i4_make(int32_t a, int32_t b, int32_t c, int32_t d) { return wasm_i32x4_make(a, b, c, d); }
inline I4 i4_add(I4 a, I4 b) { return wasm_i32x4_add(a, b); }
inline void i4_store(int32_t* p, I4 v) { wasm_v128_store(p, v); }
inline F4 f4_make(float a, float b, float c, float d) { return wasm_f32x4_make(a, b, c, d); }
// f4_max_index with an index per lane.
inline void f4_max_index4(F4& best, I4& index, F4 v, I4 i) {
  const v128_t take = wasm_v128_or(wasm_f32x4_gt(v, best), wasm_f32x4_ne(v, v));
  best = wasm_v128_bitselect(v, best, take);
  index = wasm_v128_bitselect(i, index, take);
}
#else
struct F4 {
  float v[4];
};
inline F4 f4_zero() { return F4{{0, 0, 0, 0}}; }
inline F4 f4_load(const float* p) { return F4{{p[0], p[1], p[2], p[3]}}; }
inline F4 f4_splat(float x) { return F4{{x, x, x, x}}; }
inline F4 f4_load_splat(const float* p) { return f4_splat(*p); }
inline F4 f4_load_partial(const float* p, size_t n) {
  F4 v = f4_zero();
  for (size_t l = 0; l < n && l < 4; ++l) v.v[l] = p[l];
  return v;
}
inline void f4_store_partial(float* p, size_t n, F4 v) {
  for (size_t l = 0; l < n && l < 4; ++l) p[l] = v.v[l];
}
inline F4 f4_even(F4 a, F4 b) { return F4{{a.v[0], a.v[2], b.v[0], b.v[2]}}; }
inline F4 f4_odd(F4 a, F4 b) { return F4{{a.v[1], a.v[3], b.v[1], b.v[3]}}; }
inline F4 f4_zip_lo(F4 a, F4 b) { return F4{{a.v[0], b.v[0], a.v[1], b.v[1]}}; }
inline F4 f4_zip_hi(F4 a, F4 b) { return F4{{a.v[2], b.v[2], a.v[3], b.v[3]}}; }
inline F4 f4_madd(F4 acc, F4 a, F4 b) {
  for (int l = 0; l < 4; ++l) acc.v[l] += a.v[l] * b.v[l];
  return acc;
}
inline F4 f4_add(F4 a, F4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] += b.v[l];
  return a;
}
inline F4 f4_sum_lanes4(F4 a, F4 b, F4 c, F4 d) {
  const F4* in[4] = {&a, &b, &c, &d};
  F4 r;
  for (int l = 0; l < 4; ++l) r.v[l] = (in[l]->v[0] + in[l]->v[2]) + (in[l]->v[1] + in[l]->v[3]);
  return r;
}
inline void f4_store(float* p, F4 v) {
  for (int l = 0; l < 4; ++l) p[l] = v.v[l];
}
inline F4 f4_div(F4 a, F4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] /= b.v[l];
  return a;
}
inline F4 f4_sub(F4 a, F4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] -= b.v[l];
  return a;
}
inline F4 f4_mul(F4 a, F4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] *= b.v[l];
  return a;
}
inline F4 f4_max(F4 a, F4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] = f4_lane_max(a.v[l], b.v[l]);
  return a;
}
inline F4 f4_min(F4 a, F4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] = f4_lane_min(a.v[l], b.v[l]);
  return a;
}
inline F4 f4_clamp(F4 v, F4 lo, F4 hi) { return f4_min(f4_max(v, lo), hi); }
struct I4 {
  int32_t v[4];
};
inline I4 i4_splat(int32_t x) { return I4{{x, x, x, x}}; }
inline I4 i4_make(int32_t a, int32_t b, int32_t c, int32_t d) { return I4{{a, b, c, d}}; }
inline I4 i4_add(I4 a, I4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] += b.v[l];
  return a;
}
inline void i4_store(int32_t* p, I4 v) {
  for (int l = 0; l < 4; ++l) p[l] = v.v[l];
}
inline F4 f4_make(float a, float b, float c, float d) { return F4{{a, b, c, d}}; }
inline void f4_max_index4(F4& best, I4& index, F4 v, I4 i) {
  for (int l = 0; l < 4; ++l) {
    if (v.v[l] > best.v[l] || v.v[l] != v.v[l]) {
      best.v[l] = v.v[l];
      index.v[l] = i.v[l];
    }
  }
}
inline void f4_max_index(F4& best, I4& index, F4 v, int32_t i) {
  for (int l = 0; l < 4; ++l) {
    if (v.v[l] > best.v[l] || v.v[l] != v.v[l]) {
      best.v[l] = v.v[l];
      index.v[l] = i;
    }
  }
}
#endif

}  // namespace tri
