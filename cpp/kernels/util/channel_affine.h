// dst = clamp(src * scale[c] + shift[c], lo, hi) over float32
// [N, C, *spatial] tensors of the same sizes and strides (any dim order;
// dst may be src, and contiguous ones may overlap in any way): a batch norm in its eval form and a clamping activation,
// applied to a convolution's output in one pass.
#pragma once

#include "cpp/runtime/core/tensor.h"

namespace tri {

void channel_affine_clamp(const Tensor& src, Tensor& dst, const float* scale, const float* shift,
                          float lo, float hi);

}  // namespace tri
