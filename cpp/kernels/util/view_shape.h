// The target shape of view/reshape: at most one -1, inferred from numel.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/resize.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

// Writes size.size() entries into shape, or fails with "shape [2, 5] is
// invalid for input of size 6" / "only one dimension can be inferred".
Error infer_view_shape(Span<const int64_t> size, int64_t numel, int64_t* shape);

}  // namespace tri
