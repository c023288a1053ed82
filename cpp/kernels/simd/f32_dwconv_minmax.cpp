#include "cpp/kernels/simd/f32_dwconv_minmax.h"

#include "cpp/kernels/util/gemm_f4.h"
#include "cpp/kernels/util/simd.h"

namespace tri {
namespace {

constexpr size_t kC = 4;

float clamp_scalar(float v, float lo, float hi) { return f4_lane_min(f4_lane_max(v, lo), hi); }

// One output pixel; called per pixel so that V8 tiers the loop up.
void pixel(size_t channels, size_t ks, const float* const* a, const float* w, float* out,
           F4 vmin, F4 vmax, float min, float max) {
  const size_t block = kC * (1 + ks);
  size_t c = 0;
  // Two blocks (8 channels) at a time: two independent accumulators.
  for (; c + 2 * kC <= channels; c += 2 * kC) {
    const float* w0 = w + (c / kC) * block;
    const float* w1 = w0 + block;
    F4 acc0 = f4_load(w0);
    F4 acc1 = f4_load(w1);
    w0 += kC;
    w1 += kC;
    for (size_t t = 0; t < ks; ++t) {
      const float* in = a[t] + c;
      acc0 = f4_madd(acc0, f4_load(in), f4_load(w0 + t * kC));
      acc1 = f4_madd(acc1, f4_load(in + kC), f4_load(w1 + t * kC));
    }
    f4_store(out + c, f4_clamp(acc0, vmin, vmax));
    f4_store(out + c + kC, f4_clamp(acc1, vmin, vmax));
  }
  for (; c + kC <= channels; c += kC) {
    const float* w0 = w + (c / kC) * block;
    F4 acc = f4_load(w0);
    w0 += kC;
    for (size_t t = 0; t < ks; ++t) acc = f4_madd(acc, f4_load(a[t] + c), f4_load(w0 + t * kC));
    f4_store(out + c, f4_clamp(acc, vmin, vmax));
  }
  // The last 1-3 channels: scalar, so no load reads past the pixel.
  if (c < channels) {
    const float* w0 = w + (c / kC) * block;
    for (size_t lane = 0; c + lane < channels; ++lane) {
      float acc = w0[lane];
      for (size_t t = 0; t < ks; ++t) acc += a[t][c + lane] * w0[kC + t * kC + lane];
      out[c + lane] = clamp_scalar(acc, min, max);
    }
  }
}

}  // namespace

size_t f32_dwconv_packed_floats(size_t channels, size_t ks) {
  return (channels + kC - 1) / kC * kC * (1 + ks);
}

void f32_dwconv_pack(size_t channels, size_t ks, const float* weights, const float* bias,
                     float* packed) {
  for (size_t c0 = 0; c0 < channels; c0 += kC) {
    for (size_t l = 0; l < kC; ++l) {
      packed[l] = c0 + l < channels && bias != nullptr ? bias[c0 + l] : 0.0f;
    }
    packed += kC;
    for (size_t t = 0; t < ks; ++t) {
      for (size_t l = 0; l < kC; ++l) {
        packed[l] = c0 + l < channels ? weights[t * channels + c0 + l] : 0.0f;
      }
      packed += kC;
    }
  }
}

void f32_dwconv_minmax_4c(size_t channels, size_t width, size_t ks, const float* const* a,
                          const float* packed, float* out, size_t out_stride, float min,
                          float max) {
  const F4 vmin = f4_splat(min);
  const F4 vmax = f4_splat(max);
  for (size_t x = 0; x < width; ++x) {
    pixel(channels, ks, a + x * ks, packed, out + x * out_stride, vmin, vmax, min, max);
  }
}

void f32_dwconv_minmax_reference(size_t channels, size_t width, size_t ks,
                                 const float* const* a, const float* packed, float* out,
                                 size_t out_stride, float min, float max) {
  const size_t block = kC * (1 + ks);
  for (size_t x = 0; x < width; ++x) {
    for (size_t c = 0; c < channels; ++c) {
      const float* w = packed + (c / kC) * block;
      const size_t lane = c % kC;
      float acc = w[lane];
      for (size_t t = 0; t < ks; ++t) acc += a[x * ks + t][c] * w[kC + t * kC + lane];
      out[x * out_stride + c] = clamp_scalar(acc, min, max);
    }
  }
}

void f32_dwconv_minmax(size_t channels, size_t width, size_t ks, const float* const* a,
                       const float* packed, float* out, size_t out_stride, float min, float max) {
  if (simd_enabled()) {
    f32_dwconv_minmax_4c(channels, width, ks, a, packed, out, out_stride, min, max);
  } else {
    f32_dwconv_minmax_reference(channels, width, ks, a, packed, out, out_stride, min, max);
  }
}

}  // namespace tri
