// Addressing of the Cortex-M backend's 4-D activations. Its legacy ops take
// logical NCHW tensors stored channels-last; the `_nhwc` ops take logical
// NHWC tensors stored contiguously. Either way the kernels see (n, c, h, w)
// with element strides, so any dim order the program gives works.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {
namespace cortex_m {

struct Act4 {
  char* data = nullptr;
  int64_t n = 0, c = 0, h = 0, w = 0;
  int64_t sn = 0, sc = 0, sh = 0, sw = 0;  // element strides

  // `nhwc`: the tensor's logical dims are (N, H, W, C).
  static Act4 of(const Tensor& t, bool nhwc);
  int8_t at(int64_t in, int64_t ic, int64_t y, int64_t x) const {
    return reinterpret_cast<const int8_t*>(data)[in * sn + ic * sc + y * sh + x * sw];
  }
  int8_t* ptr(int64_t in, int64_t ic, int64_t y, int64_t x) const {
    return reinterpret_cast<int8_t*>(data) + in * sn + ic * sc + y * sh + x * sw;
  }
};

// Checks an int8 rank-4 activation.
Error check_act(const Tensor& t, const char* what);

// Resizes out to the activation shape (n, c, h, w) in the op's logical
// order, and returns its view.
Error resize_act(Tensor& out, int64_t n, int64_t c, int64_t h, int64_t w, bool nhwc, Act4* view);

// Per-channel requantization parameters (int32 tensors of C_out values).
Error check_channel_params(const Tensor& multipliers, const Tensor& shifts, int64_t channels);

// A requantization shift CMSIS-NN accepts (a left shift when positive).
Error check_shift(int64_t shift, const char* what);

// An int[2] argument (stride, padding, ...).
Error read_pair(const Span<const int64_t>& v, const char* what, int64_t* a, int64_t* b);

}  // namespace cortex_m
}  // namespace tri
