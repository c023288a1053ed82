#include "cpp/kernels/util/conv_im2col.h"

namespace tri {
namespace {

// Calls line(row_offset_j, img_offset, iw0, count) for each run of
// positions within one (gd, gh) line of the chunk, for tap (kd, kh, kw);
// img_offset is -1 when the line's depth/height tap falls in padding.
template <typename F>
void for_each_line(const WindowGeom& g, const int64_t* st, int64_t kd, int64_t kh, int64_t l0,
                   int64_t lc, F&& line) {
  const int64_t gw_n = g.grid[2];
  int64_t l = l0;
  while (l < l0 + lc) {
    const int64_t gw0 = l % gw_n;
    const int64_t gh = (l / gw_n) % g.grid[1];
    const int64_t gd = l / (gw_n * g.grid[1]);
    const int64_t count = (gw_n - gw0) < (l0 + lc - l) ? (gw_n - gw0) : (l0 + lc - l);
    const int64_t id = gd * g.s[0] - g.p[0] + kd * g.d[0];
    const int64_t ih = gh * g.s[1] - g.p[1] + kh * g.d[1];
    const bool inside = id >= 0 && id < g.img[0] && ih >= 0 && ih < g.img[1];
    line(l - l0, inside ? id * st[1] + ih * st[2] : -1, gw0, count);
    l += count;
  }
}

}  // namespace

template <typename C>
void im2col_chunk(const C* img, const int64_t* st, const WindowGeom& g, int64_t channels,
                  int64_t l0, int64_t lc, C* cols, int64_t ld) {
  C* row = cols;
  for (int64_t c = 0; c < channels; ++c) {
    const C* plane = img + c * st[0];
    for (int64_t kd = 0; kd < g.k[0]; ++kd) {
      for (int64_t kh = 0; kh < g.k[1]; ++kh) {
        for (int64_t kw = 0; kw < g.k[2]; ++kw) {
          for_each_line(g, st, kd, kh, l0, lc, [&](int64_t j0, int64_t off, int64_t gw0, int64_t n) {
            C* dst = row + j0;
            // Positions [lo, hi) of the run read inside the image row; the
            // rest are padding. Interior runs copy without per-element tests.
            const int64_t s = g.s[2];
            const int64_t iw0 = gw0 * s - g.p[2] + kw * g.d[2];
            int64_t lo = iw0 >= 0 ? 0 : (-iw0 + s - 1) / s;
            int64_t hi = g.img[2] - iw0 <= 0 ? 0 : (g.img[2] - iw0 + s - 1) / s;
            if (off < 0 || hi > n) hi = off < 0 ? 0 : n;
            if (lo > hi) lo = hi;
            for (int64_t j = 0; j < lo; ++j) dst[j] = C(0);
            if (hi > lo) {
              const C* src = plane + off + (iw0 + lo * s) * st[3];  // first element read
              const int64_t step = s * st[3];
              if (step == 1) {
                for (int64_t j = lo; j < hi; ++j) dst[j] = src[j - lo];
              } else {
                for (int64_t j = lo; j < hi; ++j) dst[j] = src[(j - lo) * step];
              }
            }
            for (int64_t j = hi; j < n; ++j) dst[j] = C(0);
          });
          row += ld;
        }
      }
    }
  }
}

template <typename C>
void col2im_chunk(const C* cols, const WindowGeom& g, int64_t channels, int64_t l0, int64_t lc,
                  C* img, const int64_t* st) {
  const C* row = cols;
  for (int64_t c = 0; c < channels; ++c) {
    C* plane = img + c * st[0];
    for (int64_t kd = 0; kd < g.k[0]; ++kd) {
      for (int64_t kh = 0; kh < g.k[1]; ++kh) {
        for (int64_t kw = 0; kw < g.k[2]; ++kw) {
          for_each_line(g, st, kd, kh, l0, lc, [&](int64_t j0, int64_t off, int64_t gw0, int64_t n) {
            if (off < 0) return;
            const C* src = row + j0;
            int64_t iw = gw0 * g.s[2] - g.p[2] + kw * g.d[2];
            for (int64_t j = 0; j < n; ++j, iw += g.s[2]) {
              if (iw >= 0 && iw < g.img[2]) plane[off + iw * st[3]] += src[j];
            }
          });
          row += lc;
        }
      }
    }
  }
}

template void im2col_chunk<float>(const float*, const int64_t*, const WindowGeom&, int64_t,
                                  int64_t, int64_t, float*, int64_t);
template void im2col_chunk<double>(const double*, const int64_t*, const WindowGeom&, int64_t,
                                   int64_t, int64_t, double*, int64_t);
template void im2col_chunk<uint64_t>(const uint64_t*, const int64_t*, const WindowGeom&, int64_t,
                                     int64_t, int64_t, uint64_t*, int64_t);
template void col2im_chunk<float>(const float*, const WindowGeom&, int64_t, int64_t, int64_t,
                                  float*, const int64_t*);
template void col2im_chunk<double>(const double*, const WindowGeom&, int64_t, int64_t, int64_t,
                                   double*, const int64_t*);
template void col2im_chunk<uint64_t>(const uint64_t*, const WindowGeom&, int64_t, int64_t,
                                     int64_t, uint64_t*, const int64_t*);

}  // namespace tri
