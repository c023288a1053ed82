#include "cpp/kernels/util/binary_simd.h"

#if TRI_WASM_SIMD

namespace tri {
namespace {

// f32x4.max/min propagate NaN as ATen's maximum/minimum do.
template <SimdBinOp kOp>
inline v128_t apply(v128_t x, v128_t y, v128_t alpha) {
  switch (kOp) {
    case SimdBinOp::Add:
      return wasm_f32x4_add(x, wasm_f32x4_mul(alpha, y));
    case SimdBinOp::Sub:
      return wasm_f32x4_sub(x, wasm_f32x4_mul(alpha, y));
    case SimdBinOp::Mul:
      return wasm_f32x4_mul(x, y);
    case SimdBinOp::Div:
      return wasm_f32x4_div(x, y);
    case SimdBinOp::Max:
      return wasm_f32x4_max(x, y);
    default:
      return wasm_f32x4_min(x, y);
  }
}

// The rows: kA / kB say whether a / b advance (false: one repeated value).
// The tail goes through the same vector instruction on one lane, so every
// element of a row gets identical results.
template <SimdBinOp kOp, bool kA, bool kB>
void row(float* out, const float* a, const float* b, int64_t n, float alpha_value) {
  const v128_t alpha = wasm_f32x4_splat(alpha_value);
  // A repeated operand's value (not read for an advancing one: n may be 0).
  const v128_t av = kA ? wasm_f32x4_const_splat(0.0f) : wasm_f32x4_splat(*a);
  const v128_t bv = kB ? wasm_f32x4_const_splat(0.0f) : wasm_f32x4_splat(*b);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t x0 = kA ? wasm_v128_load(a + i) : av;
    const v128_t x1 = kA ? wasm_v128_load(a + i + 4) : av;
    const v128_t y0 = kB ? wasm_v128_load(b + i) : bv;
    const v128_t y1 = kB ? wasm_v128_load(b + i + 4) : bv;
    wasm_v128_store(out + i, apply<kOp>(x0, y0, alpha));
    wasm_v128_store(out + i + 4, apply<kOp>(x1, y1, alpha));
  }
  if (i + 4 <= n) {
    const v128_t x = kA ? wasm_v128_load(a + i) : av;
    const v128_t y = kB ? wasm_v128_load(b + i) : bv;
    wasm_v128_store(out + i, apply<kOp>(x, y, alpha));
    i += 4;
  }
  for (; i < n; ++i) {
    const v128_t x = kA ? wasm_f32x4_splat(a[i]) : av;
    const v128_t y = kB ? wasm_f32x4_splat(b[i]) : bv;
    out[i] = wasm_f32x4_extract_lane(apply<kOp>(x, y, alpha), 0);
  }
}

template <SimdBinOp kOp>
void rows(float* out, const float* a, const float* b, const bool* scalar, int64_t n, float alpha) {
  if (!scalar[0] && !scalar[1]) {
    row<kOp, true, true>(out, a, b, n, alpha);
  } else if (!scalar[0]) {
    row<kOp, true, false>(out, a, b, n, alpha);
  } else if (!scalar[1]) {
    row<kOp, false, true>(out, a, b, n, alpha);
  } else {
    row<kOp, false, false>(out, a, b, n, alpha);
  }
}

}  // namespace

void simd_binary_chunk(const void* op, float* out, const float* const* in, const bool* scalar,
                       int64_t n) {
  const SimdBinary& s = *static_cast<const SimdBinary*>(op);
  switch (s.op) {
    case SimdBinOp::Add:
      return rows<SimdBinOp::Add>(out, in[0], in[1], scalar, n, s.alpha);
    case SimdBinOp::Sub:
      return rows<SimdBinOp::Sub>(out, in[0], in[1], scalar, n, s.alpha);
    case SimdBinOp::Mul:
      return rows<SimdBinOp::Mul>(out, in[0], in[1], scalar, n, s.alpha);
    case SimdBinOp::Div:
      return rows<SimdBinOp::Div>(out, in[0], in[1], scalar, n, s.alpha);
    case SimdBinOp::Max:
      return rows<SimdBinOp::Max>(out, in[0], in[1], scalar, n, s.alpha);
    case SimdBinOp::Min:
      return rows<SimdBinOp::Min>(out, in[0], in[1], scalar, n, s.alpha);
  }
}

}  // namespace tri

#endif  // TRI_WASM_SIMD
