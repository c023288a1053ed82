#include "cpp/kernels/util/channel_affine.h"

#include "cpp/kernels/util/gemm_f4.h"

namespace tri {
namespace {

float affine_clamp(float x, float s, float t, float lo, float hi) {
  return f4_lane_min(f4_lane_max(t + x * s, lo), hi);
}

// n contiguous floats of one channel, first to last: safe when y <= x even
// if they overlap (each store lands on values already loaded).
void plane(const float* x, float* y, size_t n, float s, float t, float lo, float hi) {
  const F4 vs = f4_splat(s), vt = f4_splat(t), vlo = f4_splat(lo), vhi = f4_splat(hi);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) f4_store(y + i, f4_clamp(f4_madd(vt, f4_load(x + i), vs), vlo, vhi));
  for (; i < n; ++i) y[i] = affine_clamp(x[i], s, t, lo, hi);
}

// The same last to first: safe when y > x.
void plane_backward(const float* x, float* y, size_t n, float s, float t, float lo, float hi) {
  const F4 vs = f4_splat(s), vt = f4_splat(t), vlo = f4_splat(lo), vhi = f4_splat(hi);
  size_t i = n;
  for (; i % 4 != 0; --i) y[i - 1] = affine_clamp(x[i - 1], s, t, lo, hi);
  for (; i >= 4; i -= 4) {
    f4_store(y + i - 4, f4_clamp(f4_madd(vt, f4_load(x + i - 4), vs), vlo, vhi));
  }
}

// One pixel's c contiguous channels (channels-last).
void pixel(const float* x, float* y, size_t c, const float* s, const float* t, float lo, float hi) {
  const F4 vlo = f4_splat(lo), vhi = f4_splat(hi);
  size_t i = 0;
  for (; i + 4 <= c; i += 4) {
    f4_store(y + i, f4_clamp(f4_madd(f4_load(t + i), f4_load(x + i), f4_load(s + i)), vlo, vhi));
  }
  for (; i < c; ++i) y[i] = affine_clamp(x[i], s[i], t[i], lo, hi);
}

}  // namespace

void channel_affine_clamp(const Tensor& t, Tensor& dst, const float* scale, const float* shift,
                          float lo, float hi) {
  const int32_t rank = t.dim();
  if (rank < 2 || t.numel() == 0) return;
  const float* data = static_cast<const float*>(t.data());
  float* out = static_cast<float*>(dst.mutable_data());
  const size_t batch = static_cast<size_t>(t.size(0));
  const size_t channels = static_cast<size_t>(t.size(1));
  size_t spatial = 1;
  for (int32_t d = 2; d < rank; ++d) spatial *= static_cast<size_t>(t.size(d));
  const Span<const StridesType> st = t.strides();
  if (t.is_contiguous()) {
    // A memory plan may place out partly over the input (it is dead after
    // this op): walk like memmove, towards the side the output lies on.
    const size_t planes = batch * channels;
    if (out <= data) {
      for (size_t q = 0; q < planes; ++q) {
        plane(data + q * spatial, out + q * spatial, spatial, scale[q % channels],
              shift[q % channels], lo, hi);
      }
    } else {
      for (size_t q = planes; q-- > 0;) {
        plane_backward(data + q * spatial, out + q * spatial, spatial, scale[q % channels],
                       shift[q % channels], lo, hi);
      }
    }
    return;
  }
  // Channels innermost and pixels packed (channels-last).
  bool channels_last = st[1] == 1;
  size_t expect = channels;
  for (int32_t d = rank - 1; d >= 2 && channels_last; --d) {
    channels_last = t.size(d) == 1 || static_cast<size_t>(st[d]) == expect;
    expect *= static_cast<size_t>(t.size(d));
  }
  if (channels_last && (batch == 1 || static_cast<size_t>(st[0]) == expect)) {
    for (size_t p = 0; p < batch * spatial; ++p) {
      pixel(data + p * channels, out + p * channels, channels, scale, shift, lo, hi);
    }
    return;
  }
  // Any other order: element by element through the strides.
  size_t index[kTensorDimLimit] = {};
  for (size_t e = 0; e < t.numel(); ++e) {
    size_t offset = 0;
    for (int32_t d = 0; d < rank; ++d) offset += index[d] * static_cast<size_t>(st[d]);
    const size_t c = index[1];
    out[offset] = affine_clamp(data[offset], scale[c], shift[c], lo, hi);
    for (int32_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < static_cast<size_t>(t.size(d))) break;
      index[d] = 0;
    }
  }
}

}  // namespace tri
