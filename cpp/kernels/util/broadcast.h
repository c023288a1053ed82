// Broadcasting (numpy / ATen rules): shapes are aligned at the last dim, and
// a dim of size 1 (or a missing leading dim) stretches to the other size.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

// The broadcast shape of `a` and `b` into out[kTensorDimLimit], or fails with
// "shapes [2, 3] and [4] cannot be broadcast together (dim 1: 3 vs 4)".
Error broadcast_shapes(Span<const SizesType> a, Span<const SizesType> b,
                       SizesType* out, int32_t* out_dim);

// Broadcasts any number of shapes (nullptr entries are skipped).
Error broadcast_all(const Tensor* const* tensors, size_t count, SizesType* out,
                    int32_t* out_dim);

// True when `from` can be expanded to `to`.
bool broadcastable_to(Span<const SizesType> from, Span<const SizesType> to);

}  // namespace tri
