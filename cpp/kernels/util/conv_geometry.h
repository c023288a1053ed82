// Geometry shared by convolution, im2col/col2im and pooling: windows of
// k[i] taps spaced d[i] apart, placed every s[i] positions over an image
// padded by p[i]. Everything is 3-D inside: 1-D and 2-D ops put size-1 dims
// in front (k = s = d = 1, p = 0), so one loop nest serves all ranks.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

struct WindowGeom {
  int64_t img[3] = {1, 1, 1};   // image (input of conv / pooling) sizes
  int64_t grid[3] = {1, 1, 1};  // window positions (output sizes)
  int64_t k[3] = {1, 1, 1};
  int64_t s[3] = {1, 1, 1};
  int64_t p[3] = {0, 0, 0};
  int64_t d[3] = {1, 1, 1};

  int64_t taps() const { return k[0] * k[1] * k[2]; }
  int64_t grid_size() const { return grid[0] * grid[1] * grid[2]; }
  int64_t img_size() const { return img[0] * img[1] * img[2]; }
};

// Parameters are bounded so that size arithmetic cannot overflow int64.
constexpr int64_t kMaxWindowParam = int64_t{1} << 30;

// Reads an int list of `n` values (or 1 value, repeated) into the last n
// entries of dst[3]. An empty list takes `fallback` (when given) instead.
// Values must lie in [min, kMaxWindowParam].
Error read_window_param(KernelArgs& args, size_t i, const char* name, int32_t n,
                        const int64_t* fallback, int64_t min, int64_t* dst);

// Number of window positions along one dim (floor or ceil mode as in
// ATen's pooling_output_shape; conv is floor mode).
int64_t window_count(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil);

}  // namespace tri
