#include "cpp/kernels/util/pool_max_plane.h"

#include <limits>

#include "cpp/kernels/util/gemm_f4.h"
#include "cpp/kernels/util/pool_window.h"

namespace tri {
namespace {

void max_scalar(const WindowGeom& g, const MaxPlane& pl, const PoolSpan& th, int64_t oh, int64_t ow) {
  const PoolSpan tw = max_window_taps(g, 2, ow);
  float best = -std::numeric_limits<float>::infinity();
  int64_t best_i = th.b * g.img[2] + tw.b;
  for (int64_t h = th.b; h < th.e; h += g.d[1]) {
    const float* row = pl.in + h * pl.in_row;
    for (int64_t w = tw.b; w < tw.e; w += g.d[2]) {
      const float v = row[w * pl.in_col];
      if (v > best || v != v) {
        best = v;
        best_i = h * g.img[2] + w;
      }
    }
  }
  pl.out[oh * pl.out_row + ow * pl.out_col] = best;
  pl.idx[oh * pl.idx_row + ow * pl.idx_col] = best_i;
}

// Four lanes of window taps: columns w, w + s, w + 2s, w + 3s of a row.
inline F4 load_strided(const float* p, int64_t s) {
  if (s == 1) return f4_load(p);
  if (s == 2) return f4_even(f4_load(p), f4_load(p + 4));
  return f4_make(p[0], p[s], p[2 * s], p[3 * s]);
}

// Output columns [ow, ow + 4) of row oh, whose windows lie inside the row
// (no padding or clipping); the caller checked the loads stay in it.
void max_vector4(const WindowGeom& g, const MaxPlane& pl, const PoolSpan& th, int64_t oh, int64_t ow) {
  const int64_t s = g.s[2];
  const int64_t w0 = ow * s - g.p[2];
  F4 best = f4_splat(-std::numeric_limits<float>::infinity());
  const I4 lanes = i4_make(0, static_cast<int32_t>(s), static_cast<int32_t>(2 * s),
                           static_cast<int32_t>(3 * s));
  I4 index = i4_add(lanes, i4_splat(static_cast<int32_t>(th.b * g.img[2] + w0)));
  for (int64_t h = th.b; h < th.e; h += g.d[1]) {
    const float* row = pl.in + h * pl.in_row;
    for (int64_t kw = 0; kw < g.k[2]; ++kw) {
      const int64_t w = w0 + kw * g.d[2];
      const I4 at = i4_add(lanes, i4_splat(static_cast<int32_t>(h * g.img[2] + w)));
      f4_max_index4(best, index, load_strided(row + w, s), at);
    }
  }
  alignas(16) float values[4];
  alignas(16) int32_t where[4];
  f4_store(values, best);
  i4_store(where, index);
  for (int l = 0; l < 4; ++l) {
    pl.out[oh * pl.out_row + (ow + l) * pl.out_col] = values[l];
    pl.idx[oh * pl.idx_row + (ow + l) * pl.idx_col] = where[l];
  }
}

}  // namespace

void max_plane_f32_2d(const WindowGeom& g, const MaxPlane& pl, bool vector) {
  // Vector columns: windows inside the row, loads (8 floats for stride 2)
  // inside it too, and flat indices that fit the int32 lanes.
  const int64_t s = g.s[2];
  const int64_t reach = s == 2 ? 8 : (s == 1 ? 4 : 3 * s + 1);
  int64_t v_begin = 0;
  while (v_begin * s - g.p[2] < 0) ++v_begin;
  const bool can = vector && pl.in_col == 1 && g.img[1] * g.img[2] < (int64_t{1} << 31);
  for (int64_t oh = 0; oh < g.grid[1]; ++oh) {
    const PoolSpan th = max_window_taps(g, 1, oh);
    int64_t ow = 0;
    for (; ow < g.grid[2] && (!can || ow < v_begin); ++ow) max_scalar(g, pl, th, oh, ow);
    if (can) {
      // The last tap of lane 3 starts at (ow + 3) s - p + (k - 1) d; its load reaches further.
      for (; ow + 4 <= g.grid[2]; ow += 4) {
        const int64_t last = (ow + 3) * s - g.p[2] + (g.k[2] - 1) * g.d[2];
        const int64_t load_end = ow * s - g.p[2] + (g.k[2] - 1) * g.d[2] + reach;
        if (last >= g.img[2] || load_end > g.img[2]) break;
        max_vector4(g, pl, th, oh, ow);
      }
    }
    for (; ow < g.grid[2]; ++ow) max_scalar(g, pl, th, oh, ow);
  }
}

}  // namespace tri
