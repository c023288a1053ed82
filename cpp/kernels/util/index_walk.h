// Helpers for gather/scatter-style ops, where an index tensor names one
// coordinate along `dim` and the other coordinates are its own position.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/error.h"

namespace tri {

// A 0-dim view seen as shape [1] (ATen's ensure_nonempty_dim).
TensorView at_least_1d(TensorView v);

// The index value at element offset `offset` (Long or Int).
int64_t read_index(const TensorView& index, int64_t offset);

// Fails with "index 5 is out of bounds for dimension 1 with size 3" unless
// every value of `index` (Long or Int) is in [0, size) (or [-size, size)
// with allow_negative).
Error check_index_values(const TensorView& index, int64_t size, int32_t dim,
                         bool allow_negative);

// The operands of gather/scatter-style ops seen at least 1-D, and the
// normalized dim.
struct GatherScatterViews {
  TensorView self;
  TensorView index;
  TensorView src;  // unset without src
  int32_t dim = 0;
};

// ATen's gather/scatter checks: self of kAllTypes, index Long, src (when
// given) of self's dtype; index has self's rank and, except at `dim`, no
// larger sizes than self; no larger sizes than src anywhere; every index
// value in [0, self.size(dim)).
Error check_gather_scatter(const Tensor& self, int64_t dim, const Tensor& index,
                           const Tensor* src, GatherScatterViews* views);

// For each element of `index` (row-major), calls fn(value, off) where
// off[k] is the element offset in views[k] of the same position. Views whose
// bit is set in `skip_dim_mask` leave dim `dim` out of their offset (the
// caller adds value * stride). All views have index's rank.
template <typename Fn>
void for_each_index(const TensorView& index, int32_t dim, const TensorView* const* views,
                    int n, uint32_t skip_dim_mask, Fn&& fn) {
  const int64_t total = index.numel();
  int64_t pos[kTensorDimLimit] = {};
  int64_t index_off = 0;
  int64_t off[4] = {};
  for (int64_t i = 0; i < total; ++i) {
    fn(read_index(index, index_off), static_cast<const int64_t*>(off));
    for (int32_t d = index.dim - 1; d >= 0; --d) {
      index_off += index.strides[d];
      for (int k = 0; k < n; ++k) {
        if (d != dim || !(skip_dim_mask & (1u << k))) off[k] += views[k]->strides[d];
      }
      if (++pos[d] < index.sizes[d]) break;
      index_off -= index.strides[d] * index.sizes[d];
      for (int k = 0; k < n; ++k) {
        if (d != dim || !(skip_dim_mask & (1u << k))) {
          off[k] -= views[k]->strides[d] * index.sizes[d];
        }
      }
      pos[d] = 0;
    }
  }
}

}  // namespace tri
