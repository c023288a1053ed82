// Walking a shape in logical (row-major) order over several strided views,
// for ops whose result depends on that order (masked_select, nonzero,
// masked_scatter, the flattened roll). Views are right-aligned to the shape
// and broadcast along missing or size-1 dims. One element at a time: these
// ops are data-dependent and rare.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/tensor_view.h"

namespace tri {

// fn(const int64_t* pos, const int64_t* off): pos is the element's
// coordinates, off[k] its element offset in views[k] (n <= 4).
template <typename Fn>
void walk_logical(const int64_t* shape, int32_t dim, const TensorView* const* views, int n,
                  Fn&& fn) {
  int64_t total = 1;
  for (int32_t d = 0; d < dim; ++d) total *= shape[d];
  int64_t str[4][kTensorDimLimit] = {};
  for (int k = 0; k < n; ++k) {
    for (int32_t d = 0; d < dim; ++d) {
      const int32_t vd = d - (dim - views[k]->dim);
      str[k][d] = vd < 0 || views[k]->sizes[vd] == 1 ? 0 : views[k]->strides[vd];
    }
  }
  int64_t pos[kTensorDimLimit] = {};
  int64_t off[4] = {};
  for (int64_t i = 0; i < total; ++i) {
    fn(static_cast<const int64_t*>(pos), static_cast<const int64_t*>(off));
    for (int32_t d = dim - 1; d >= 0; --d) {
      for (int k = 0; k < n; ++k) off[k] += str[k][d];
      if (++pos[d] < shape[d]) break;
      for (int k = 0; k < n; ++k) off[k] -= str[k][d] * shape[d];
      pos[d] = 0;
    }
  }
}

}  // namespace tri
