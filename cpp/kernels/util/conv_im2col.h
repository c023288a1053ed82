// im2col / col2im over a WindowGeom, on compute-type data (float, double,
// uint64 = wrapping int64). Columns hold rows (channel, kd, kh, kw) by window
// positions; a chunk [l0, l0 + lc) of positions is done at a time so the
// caller can bound its scratch memory.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/conv_geometry.h"

namespace tri {

// cols[r * ld + j] = img(c, position l0 + j shifted by tap) or 0 in
// padding, for j < lc and r = (c, kd, kh, kw) over `channels` channels.
// img_st: element strides of the channel and the three image dims. ld >= lc
// lets threads fill column ranges of one buffer.
template <typename C>
void im2col_chunk(const C* img, const int64_t* img_st, const WindowGeom& g, int64_t channels,
                  int64_t l0, int64_t lc, C* cols, int64_t ld);

// The transpose: img(c, ...) += cols[r * lc + j]; padding taps are dropped.
template <typename C>
void col2im_chunk(const C* cols, const WindowGeom& g, int64_t channels, int64_t l0, int64_t lc,
                  C* img, const int64_t* img_st);

extern template void im2col_chunk<float>(const float*, const int64_t*, const WindowGeom&, int64_t,
                                         int64_t, int64_t, float*, int64_t);
extern template void im2col_chunk<double>(const double*, const int64_t*, const WindowGeom&,
                                          int64_t, int64_t, int64_t, double*, int64_t);
extern template void im2col_chunk<uint64_t>(const uint64_t*, const int64_t*, const WindowGeom&,
                                            int64_t, int64_t, int64_t, uint64_t*, int64_t);
extern template void col2im_chunk<float>(const float*, const WindowGeom&, int64_t, int64_t,
                                         int64_t, float*, const int64_t*);
extern template void col2im_chunk<double>(const double*, const WindowGeom&, int64_t, int64_t,
                                          int64_t, double*, const int64_t*);
extern template void col2im_chunk<uint64_t>(const uint64_t*, const WindowGeom&, int64_t, int64_t,
                                            int64_t, uint64_t*, const int64_t*);

}  // namespace tri
