// Nearest and (bi)linear resampling of [N, C, (H,) W] tensors, with ATen's
// source-index rules (upsample_nearest*d, upsample_linear1d,
// upsample_bilinear2d; UpSample.h). 1-D input is a 2-D one with H = 1.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

struct Resample {
  int32_t spatial = 2;  // 1 or 2 resampled dims
  bool linear = false;
  bool align_corners = false;
  int64_t out_size[2] = {};      // per resampled dim
  Optional<double> scale[2];     // the op's scales_* (or scale_factors)
};

// Checks self (rank spatial + 2, dtype, sizes), resizes out and resamples.
Error resample(const Resample& r, const Tensor& self, Tensor& out);

}  // namespace tri
