// Argument checks shared by the normalization kernels.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

// A per-channel (or per-element) parameter: null (None) or a floating tensor
// of `n` elements, 1-D or row-major. "weight should contain 3 elements not 4".
Error check_param(const Tensor* p, int64_t n, const char* what);

// A floating out tensor (the saved statistics), resized to `sizes`.
Error resize_stat(Tensor& t, Span<const int64_t> sizes, const char* what);

// Parameter element i as a double (per-channel values; not for hot loops).
double param_at(const Tensor* p, int64_t i, double fallback);

// 1 / sqrt(var + eps), with ATen's 0 for var == eps == 0.
double inv_std(double var, double eps);

}  // namespace tri
