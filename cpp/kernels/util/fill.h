// Filling a tensor with one Scalar (full_like, scalar_tensor, scatter.value).
#pragma once

#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

// ATen's checked conversion: fails with "value 300 cannot be converted to
// type Byte without overflow" when `value` does not fit `type` (an integral
// type, or a finite value beyond a floating type's range). Bool takes any.
Error check_scalar_fits(const Scalar& value, ScalarType type);

// Writes `value` (converted to out's dtype) into every element of out. The
// caller has checked the dtype, the value and out's shape.
void fill_scalar(Tensor& out, const Scalar& value);

}  // namespace tri
