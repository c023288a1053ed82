// int8 dot products for the quantized gemm, convolution and depthwise
// nodes, and XNNPACK's requantization of their int32 sums. With wasm SIMD
// the dots run 8 products per step (i32x4.dot_i16x8_s on sign-extended
// halves); the scalar loops are the reference and the native path.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace tri {

// int32 arithmetic that wraps (as the SIMD lanes do) instead of overflowing:
// hostile graphs can make sums of any size.
inline int32_t wrap_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrap_mul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

// sum over i < n of a[i] * b[i] (wrapping).
int32_t qs8_dot(const int8_t* a, const int8_t* b, size_t n);

// Four dots sharing `a`: out[j] += sum a[i] * b_j[i] (b_j = b + j * ldb).
void qs8_dot4(const int8_t* a, const int8_t* b, size_t ldb, size_t n, int32_t* out);

int32_t qs8_dot_reference(const int8_t* a, const int8_t* b, size_t n);

// XNNPACK's fp32 requantization: the sum scaled in float, rounded to
// nearest even, offset by the zero point and clamped.
inline int32_t requantize(int32_t acc, float scale, int32_t zero_point, int32_t qmin,
                          int32_t qmax) {
  const float scaled = static_cast<float>(acc) * scale;
  // 0 * inf from degenerate scales: no information, the zero point.
  if (scaled != scaled) return zero_point;
  const float lo = static_cast<float>(qmin - zero_point);
  const float hi = static_cast<float>(qmax - zero_point);
  const float clamped = scaled < lo ? lo : (scaled > hi ? hi : scaled);
  return static_cast<int32_t>(std::nearbyint(clamped)) + zero_point;
}

// round(x / scale) + zero point, clamped to [qmin, qmax]; NaN gives the zero
// point.
inline int32_t quantize_value(float x, float inv_scale, int32_t zero_point, int32_t qmin,
                              int32_t qmax) {
  const float scaled = x * inv_scale;
  if (scaled != scaled) return zero_point;
  const float lo = static_cast<float>(qmin - zero_point);
  const float hi = static_cast<float>(qmax - zero_point);
  const float clamped = scaled < lo ? lo : (scaled > hi ? hi : scaled);
  return static_cast<int32_t>(std::nearbyint(clamped)) + zero_point;
}

}  // namespace tri
