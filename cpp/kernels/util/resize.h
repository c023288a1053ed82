// Sizing the out tensor. Kernels compute the expected shape, then call
// resize_out before writing: a static out must already have that shape, a
// bounded-dynamic one must fit its bound.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

// Fails with "out: static tensor of shape [2, 3] cannot take shape [3, 2]"
// (or the rank / bound / capacity variant). `what` names the tensor ("out",
// "indices").
Error resize_out(Tensor& out, Span<const SizesType> sizes, const char* what = "out");
// Same, from 64-bit sizes (checked to fit SizesType).
Error resize_out(Tensor& out, Span<const int64_t> sizes, const char* what = "out");

// "out: dtype Long, expected Float" unless equal.
Error check_same_dtype(const Tensor& t, ScalarType expected, const char* what);

// Shape equality.
bool same_sizes(Span<const SizesType> a, Span<const SizesType> b);

}  // namespace tri
