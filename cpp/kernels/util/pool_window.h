// Max, average and adaptive-average pooling over 1-3 spatial dims (see
// WindowGeom), for [N, C, *spatial] or [C, *spatial] tensors in any dim
// order. One call per (n, c) plane; values in the compute type of the dtype
// (read in place for Float / Double / Long, converted otherwise).
#pragma once

#include <cstdint>

#include "cpp/kernels/util/conv_geometry.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

enum class PoolKind : uint8_t { Max, Avg, AdaptiveAvg };

struct PoolProblem {
  PoolKind kind = PoolKind::Max;
  WindowGeom g;  // AdaptiveAvg uses only img and grid
  bool count_include_pad = true;
  int64_t divisor = 0;  // avg: divisor_override, 0 for none
  const Tensor* in = nullptr;
  Tensor* out = nullptr;
  Tensor* indices = nullptr;  // Max only
};

// Element strides of a [N, C, *sp] or [C, *sp] tensor with nsp spatial dims,
// as (n, c, d, h, w) with zeros for missing dims.
void pool_strides(const Tensor& t, int32_t nsp, int64_t* st);

// The output shape (input's leading dims, then g.grid's last nsp sizes).
int32_t pool_out_shape(const Tensor& in, int32_t nsp, const WindowGeom& g, int64_t* shape);

// Checks rank (nsp + 1 or nsp + 2) and that each spatial dim is non-empty
// (batch and channels may be 0); reads the spatial sizes into g.img.
Error check_pool_input(const Tensor& in, int32_t nsp, WindowGeom& g);

// Window o's [b, e) along dim i (0..2) and, for average pooling, ATen's
// pool size (the window clipped to the padded input). Avg and adaptive
// spans lie inside the input; a max span is the dilated window, unclipped.
struct PoolSpan {
  int64_t b, e, full;
};
PoolSpan pool_window_span(const PoolProblem& p, int i, int64_t o);

// Max window o's taps along dim i: [b, e) from its first tap inside the
// input (stepping by g.d[i]) to the input's end at most; full is 0.
PoolSpan max_window_taps(const WindowGeom& g, int i, int64_t o);

// Reads kernel_size, stride (empty: kernel_size) and padding from args[i],
// [i + 1] and [i + 2], and dilation from [i + 3] when `dilation`.
Error read_pool_window(KernelArgs& args, size_t i, int32_t nsp, bool dilation, WindowGeom& g);

// After check_pool_input: padding at most half the kernel (ATen's rule) and
// the window counts in g.grid, which must be positive.
Error plan_pool_grid(int32_t nsp, bool ceil_mode, WindowGeom& g);

// Sizes out (and indices, when given) to the pooled shape, then runs p
// over self.
Error pool_into(PoolProblem& p, Tensor& self, Tensor& out, Tensor* indices, int32_t nsp);

// `vector` (default simd_enabled()) takes the f32x4 paths where they apply:
// channels-last (pool_channels_last.h) and 2D float max pooling by rows
// (pool_max_plane.h).
void run_pool(const PoolProblem& p, int32_t nsp);
void run_pool(const PoolProblem& p, int32_t nsp, bool vector);

}  // namespace tri
