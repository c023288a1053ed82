// float32 depthwise convolution microkernel over NHWC data: each output
// pixel is clamp(bias + sum over the ks kernel taps of input * weight), per
// channel, with the channels in f32x4 lanes. Input pixels come through
// pointers (one per tap; a zero row for padding), so any kernel size,
// stride, dilation and padding reduce to the same loop.
// Packed layout, per block of 4 channels (zero-padded): 4 bias values, then
// the ks taps' 4 weights.
#pragma once

#include <cstddef>

namespace tri {

size_t f32_dwconv_packed_floats(size_t channels, size_t ks);

// `weights` is [ks][channels] (XNNPACK's 1HWO depthwise filter); `bias` may
// be nullptr.
void f32_dwconv_pack(size_t channels, size_t ks, const float* weights, const float* bias,
                     float* packed);

// `width` output pixels; pixel x reads tap t at a[x * ks + t] (channels
// floats) and writes channels floats at out + x * out_stride; channels in
// f32x4 lanes.
void f32_dwconv_minmax_4c(size_t channels, size_t width, size_t ks, const float* const* a,
                          const float* packed, float* out, size_t out_stride, float min,
                          float max);

// What kernels call: the f32x4 path when SIMD is on, the reference otherwise.
void f32_dwconv_minmax(size_t channels, size_t width, size_t ks, const float* const* a,
                       const float* packed, float* out, size_t out_stride, float min, float max);

void f32_dwconv_minmax_reference(size_t channels, size_t width, size_t ks,
                                 const float* const* a, const float* packed, float* out,
                                 size_t out_stride, float min, float max);

}  // namespace tri
