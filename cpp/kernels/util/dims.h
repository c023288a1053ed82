// Dim arguments: negative dims count from the end, as in ATen.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

// Wraps `dim` into [0, rank). A rank-0 tensor accepts -1 and 0 (ATen's
// wrap_scalar). Fails with "Dimension out of range (expected to be in range
// of [-2, 1], but got 3)". `rank` may be one more than a tensor's rank for
// ops that insert a dim (unsqueeze).
Error normalize_dim(int64_t dim, int32_t rank, int32_t* out);

// Normalizes a list of dims into a mask (mask[d] true when dim d is listed).
// Fails on an out-of-range dim and on "dim 1 appears multiple times in the
// list of dims".
Error dim_list_mask(Span<const int64_t> dims, int32_t rank,
                    bool mask[kTensorDimLimit]);

// The number of elements in dims [begin, end) of `sizes`.
inline int64_t size_product(Span<const SizesType> sizes, int32_t begin, int32_t end) {
  int64_t n = 1;
  for (int32_t d = begin; d < end; ++d) {
    n *= sizes[d];
  }
  return n;
}

}  // namespace tri
