// 2D float max pooling with indices over one (n, c) plane, the path of
// resnet18-style stem pools: the generic pool_plane loop with direct float
// pointers and the row clipping hoisted out, and an f32x4 path that takes
// four output columns at once where their windows lie inside the row.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/conv_geometry.h"

namespace tri {

struct MaxPlane {
  const float* in;
  float* out;
  int64_t* idx;  // flat h * W + w within the plane
  int64_t in_row, in_col;    // element strides
  int64_t out_row, out_col;
  int64_t idx_row, idx_col;
};

// Window order, the NaN rule (NaN wins, the last NaN in window order) and
// ties (the first maximum) are pool_plane's, so both paths give the same
// values and indices. `vector`: take the f32x4 path where it applies.
void max_plane_f32_2d(const WindowGeom& g, const MaxPlane& pl, bool vector);

}  // namespace tri
