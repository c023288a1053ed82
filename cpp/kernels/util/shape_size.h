// `SymInt[] size` arguments of factory ops (full, zeros, empty, rand):
// checked for rank and negative or too-large sizes before out is resized.
#pragma once

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

// Fails with "Trying to create tensor with negative dimension -1: [-1, 2]"
// (or a rank / size limit message), else resizes out to `size`.
Error resize_to_size_arg(Span<const int64_t> size, Tensor& out);

}  // namespace tri
