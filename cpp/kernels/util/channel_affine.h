// The per-channel tail a float32 convolution may carry, fused at load from a
// batch norm in its eval form and a clamping activation:
// y = clamp(shift[c] + x * scale[c], lo, hi). Kernels apply it to each
// output value as they finish it, while it is still in cache, rather than
// in a second pass over the whole output.
#pragma once

#include <cmath>
#include <cstddef>

namespace tri {

struct ChannelAffine {
  const float* scale = nullptr;  // null: no tail at all
  const float* shift = nullptr;
  float lo = -INFINITY;
  float hi = INFINITY;

  bool active() const { return scale != nullptr; }
  // The same tail for channels c0 onwards (one group of a convolution).
  ChannelAffine from(size_t c0) const {
    ChannelAffine a = *this;
    if (active()) {
      a.scale += c0;
      a.shift += c0;
    }
    return a;
  }
};

// What a gemm whose rows are output channels does to row r once it is
// complete: add bias[r] (when bias is set), then apply the affine tail.
struct RowEpilogue {
  const float* bias = nullptr;
  ChannelAffine affine;

  bool active() const { return bias != nullptr || affine.active(); }
  // The same for rows r0 onwards.
  RowEpilogue from(size_t r0) const {
    RowEpilogue e = *this;
    if (bias != nullptr) e.bias += r0;
    e.affine = affine.from(r0);
    return e;
  }
};

// x[0, n) of channel c, in place (contiguous).
void affine_clamp_run(const ChannelAffine& a, size_t c, float* x, size_t n);

// x[0, channels) of one pixel, channel j at x[j], in place (channels-last).
void affine_clamp_pixel(const ChannelAffine& a, float* x, size_t channels);

// Row r of a gemm's C, x[0, n), in place.
void finish_row(const RowEpilogue& e, size_t r, float* x, size_t n);

}  // namespace tri
