// Small view helpers shared by the split/cat/scatter-style shape ops: a
// sub-range of one dim, and a dim's ints checked against the tensor.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/span.h"

namespace tri {

// v restricted to [start, start + length) along dim d (the caller checked
// the range).
TensorView narrow_view(TensorView v, int32_t d, int64_t start, int64_t length);

// Resizes `out` to `view`'s shape (the out of an op writing a view).
Error resize_like_view(const TensorView& view, Tensor& out, const char* what = "out");

// Python slice bounds: start/end may be None (has_*) or negative; both are
// clamped into [0, size] and end >= start. Returns the number of elements
// taken with `step` (> 0).
int64_t clamp_slice(int64_t size, bool has_start, int64_t start, bool has_end, int64_t end,
                    int64_t step, int64_t* start_out);

}  // namespace tri
