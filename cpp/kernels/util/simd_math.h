// Vectorized float32 exp, tanh, sigmoid and erfc for wasm SIMD128 paths.
// Accuracy (checked against the scalar libm path by the op cases, which run
// with SIMD on and off): exp, tanh and sigmoid within a few ulp (relative
// 1e-6); erfc within 1.5e-7 absolute (Abramowitz & Stegun 7.1.26), which
// keeps gelu inside the float32 tolerance (atol 1e-6, rtol 1e-5).
// NaN inputs give NaN; exp overflows to inf and underflows to 0 (no
// subnormal results: at most 1.2e-38 off).
#pragma once

#include "cpp/kernels/util/simd.h"

#if TRI_WASM_SIMD

namespace tri {
namespace simd_math {

inline v128_t splat(float v) { return wasm_f32x4_splat(v); }

// The reduction both exps share, for a clamped xc: xc = n ln2 + r with
// |r| <= ln2/2, exp(r) by Cephes' expf polynomial (returned), and t = the
// float 1.5 * 2^23 + n, whose bits are those of 1.5 * 2^23 plus n (|n| <=
// 128). n is rounded, and made an integer, by that addition, rounding to
// nearest even as f32x4.nearest does: V8 emits i32x4.trunc_sat_f32x4 as a
// sequence of 6-10 instructions.
inline v128_t exp_reduced(v128_t xc, v128_t* t) {
  const v128_t magic = splat(12582912.0f);
  *t = wasm_f32x4_add(wasm_f32x4_mul(xc, splat(1.44269504088896341f)), magic);
  const v128_t n = wasm_f32x4_sub(*t, magic);
  v128_t r = wasm_f32x4_sub(xc, wasm_f32x4_mul(n, splat(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, splat(-2.12194440e-4f)));
  v128_t p = splat(1.9875691500e-4f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), splat(1.3981999507e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), splat(8.3334519073e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), splat(4.1665795894e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), splat(1.6666665459e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), splat(5.0000001201e-1f));
  return wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, r), r), r), splat(1.0f));
}

// exp(x), 2^n built in two halves so that n = 128 or -126 never forms an
// out-of-range exponent. V8 emits f32x4.min/max (NaN-propagating) as
// sequences of instructions; here the clamp is pmin/pmax (one each; a NaN x
// passes through both).
inline v128_t exp(v128_t x) {
  const v128_t hi = splat(88.72283935546875f);  // above: inf
  const v128_t lo = splat(-87.33654022216797f);  // below: 0
  v128_t t;
  const v128_t p = exp_reduced(wasm_f32x4_pmax(wasm_f32x4_pmin(x, hi), lo), &t);
  const v128_t ni = wasm_i32x4_sub(t, wasm_i32x4_splat(0x4B400000));
  const v128_t n1 = wasm_i32x4_shr(ni, 1);
  const v128_t n2 = wasm_i32x4_sub(ni, n1);
  const v128_t bias = wasm_i32x4_splat(127);
  const v128_t s1 = wasm_i32x4_shl(wasm_i32x4_add(n1, bias), 23);
  const v128_t s2 = wasm_i32x4_shl(wasm_i32x4_add(n2, bias), 23);
  v128_t y = wasm_f32x4_mul(wasm_f32x4_mul(p, s1), s2);
  y = wasm_v128_bitselect(splat(__builtin_inff()), y, wasm_f32x4_gt(x, hi));
  return wasm_v128_andnot(y, wasm_f32x4_lt(x, lo));
}

// exp(x) for x <= 0 or NaN (softmax's x - max), the same bits as exp()
// there: n is in [-126, 0], so 2^n is one exponent field, (n + 127) << 23,
// and nothing overflows. A third fewer instructions than exp(), whose two
// halves of 2^n and infinity select serve x up to 88.7: softmax's exp pass
// over 64K values went 121 -> 85 us.
inline v128_t exp_nonpositive(v128_t x) {
  const v128_t lo = splat(-87.33654022216797f);  // below: 0
  v128_t t;
  const v128_t p = exp_reduced(wasm_f32x4_pmax(x, lo), &t);
  const v128_t scale = wasm_i32x4_shl(wasm_i32x4_sub(t, wasm_i32x4_splat(0x4B400000 - 127)), 23);
  return wasm_v128_andnot(wasm_f32x4_mul(p, scale), wasm_f32x4_lt(x, lo));
}

// 1 / (1 + exp(-x)).
inline v128_t sigmoid(v128_t x) {
  const v128_t one = splat(1.0f);
  return wasm_f32x4_div(one, wasm_f32x4_add(one, exp(wasm_f32x4_neg(x))));
}

// tanh(x): an odd polynomial (Cephes' tanhf) below |x| = 0.625, where
// 1 - 2 / (exp(2|x|) + 1) would lose digits; that formula above.
inline v128_t tanh(v128_t x) {
  const v128_t ax = wasm_f32x4_abs(x);
  const v128_t z = wasm_f32x4_mul(x, x);
  v128_t p = splat(-5.70498872745e-3f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), splat(2.06390887954e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), splat(-5.37397155531e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), splat(1.33314422036e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), splat(-3.33332819422e-1f));
  const v128_t small = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, z), x), x);
  const v128_t e = exp(wasm_f32x4_add(ax, ax));
  v128_t big = wasm_f32x4_sub(splat(1.0f), wasm_f32x4_div(splat(2.0f), wasm_f32x4_add(e, splat(1.0f))));
  // Copy x's sign onto |tanh|.
  const v128_t sign = wasm_v128_and(x, wasm_i32x4_splat(INT32_MIN));
  big = wasm_v128_or(big, sign);
  return wasm_v128_bitselect(small, big, wasm_f32x4_lt(ax, splat(0.625f)));
}

// erfc(|z|) for z = |x| (A&S 7.1.26): t P(t) exp(-z^2), t = 1 / (1 + p z).
inline v128_t erfc_abs(v128_t z) {
  const v128_t t = wasm_f32x4_div(splat(1.0f),
                                  wasm_f32x4_add(splat(1.0f), wasm_f32x4_mul(splat(0.3275911f), z)));
  v128_t p = splat(1.061405429f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), splat(-1.453152027f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), splat(1.421413741f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), splat(-0.284496736f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), splat(0.254829592f));
  p = wasm_f32x4_mul(p, t);
  return wasm_f32x4_mul(p, exp(wasm_f32x4_neg(wasm_f32x4_mul(z, z))));
}

}  // namespace simd_math
}  // namespace tri

#endif  // TRI_WASM_SIMD
