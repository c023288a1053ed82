#include "cpp/kernels/util/channel_affine.h"

#include "cpp/kernels/util/gemm_f4.h"

namespace tri {
namespace {

// t + x * s, mul then add like the f32x4 lanes (and the unfused batch norm).
float affine_clamp(float x, float s, float t, float lo, float hi) {
  return f4_lane_min(f4_lane_max(t + x * s, lo), hi);
}

void add_bias(float* x, size_t n, float b) {
  const F4 vb = f4_splat(b);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) f4_store(x + i, f4_add(f4_load(x + i), vb));
  for (; i < n; ++i) x[i] += b;
}

}  // namespace

void affine_clamp_run(const ChannelAffine& a, size_t c, float* x, size_t n) {
  const float s = a.scale[c], t = a.shift[c];
  const F4 vs = f4_splat(s), vt = f4_splat(t), vlo = f4_splat(a.lo), vhi = f4_splat(a.hi);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) f4_store(x + i, f4_clamp(f4_madd(vt, f4_load(x + i), vs), vlo, vhi));
  for (; i < n; ++i) x[i] = affine_clamp(x[i], s, t, a.lo, a.hi);
}

void affine_clamp_pixel(const ChannelAffine& a, float* x, size_t channels) {
  const F4 vlo = f4_splat(a.lo), vhi = f4_splat(a.hi);
  size_t i = 0;
  for (; i + 4 <= channels; i += 4) {
    f4_store(x + i, f4_clamp(f4_madd(f4_load(a.shift + i), f4_load(x + i), f4_load(a.scale + i)),
                             vlo, vhi));
  }
  for (; i < channels; ++i) x[i] = affine_clamp(x[i], a.scale[i], a.shift[i], a.lo, a.hi);
}

void finish_row(const RowEpilogue& e, size_t r, float* x, size_t n) {
  // Two sweeps over a row that is in L1, rounding exactly like the unfused
  // convolution (bias added) followed by the batch norm.
  if (e.bias != nullptr) add_bias(x, n, e.bias[r]);
  if (e.affine.active()) affine_clamp_run(e.affine, r, x, n);
}

}  // namespace tri
