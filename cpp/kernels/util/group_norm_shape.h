// How native_group_norm and its backward see their input: as [N, C, HxW].
#pragma once

#include <cstdint>

#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

// ATen allows any input of N * C * HxW elements. Checks that, the group
// count, and that an input not shaped [N, C, *] is row-major (it is then
// seen as [N, C, HxW]).
Error check_group_norm_shape(const Tensor& input, int64_t n, int64_t c, int64_t hxw,
                             int64_t group);

// t seen as [N, C, *] with at least 3 dims: the normal [N, C, *] input
// through its strides (any dim order), anything else as row-major
// [N, C, HxW]; [N, C] gets a trailing size-1 dim.
TensorView group_norm_view(const Tensor& t, int64_t n, int64_t c, int64_t hxw);

}  // namespace tri
