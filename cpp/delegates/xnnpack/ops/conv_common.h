// What the convolution nodes share: their channel arithmetic, output sizes,
// load-time checks, and the walk that turns an output pixel's window into
// input pixel pointers (NHWC) for the igemm and depthwise microkernels.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/delegates/xnnpack/xnn_ops.h"

namespace tri::xnnpack {

// A convolution as `groups` independent ones of group_in -> group_out
// channels over ks = kernel_h * kernel_w taps. A DepthwiseConv2d node
// (XNNPACK: input channels = groups, depth multiplier = group_out /
// group_in) is the grouped convolution with one input channel per group.
struct ConvShape {
  size_t groups;
  size_t group_in;
  size_t group_out;
  size_t in_channels;
  size_t out_channels;
  size_t ks;
};

ConvShape conv_shape_params(const Node& node);
inline ConvShape conv_shape(const Node& node, const Value&) { return conv_shape_params(node); }

// Output size of a (non-transposed) convolution or pooling window along one
// dim; negative when the window does not fit.
int64_t conv_out_size(int64_t in, int64_t pad, int64_t kernel, int64_t dilation, int64_t stride);

// 1x1, stride 1, unpadded: the input rows are the gemm's rows.
bool conv_is_pointwise(const Node& node);

// Load-time checks of a convolution node and its filter and bias.
Error check_conv(const Node& node, const Value* values);

// A 2-D window over NHWC pixels: convolution kernels and pooling windows.
struct Window {
  uint32_t pad_top, pad_left;
  uint32_t kernel_h, kernel_w;
  uint32_t stride_h, stride_w;
  uint32_t dilation_h, dilation_w;
  bool transposed;
};
Window conv_window(const Node& node);
Window pool_window(const PoolParams& p);

// Input pixel pointers for output pixels, one per kernel tap.
class WindowWalker {
 public:
  WindowWalker(const Window& window, const Value& input, const Value& output);
  WindowWalker(const Node& node, const Value& input, const Value& output)
      : WindowWalker(conv_window(node), input, output) {}
  // ptrs[s * stride + r] for taps s < ks and rows r < stride: output pixel
  // p0 + min(r, mr - 1) of the image (row-major over oh, ow), each pointer
  // offset by `channel` (the group's first channel), `zero` where the tap
  // falls outside the input.
  void fill(const void* image, size_t channel, const void* zero, size_t p0, size_t mr,
            size_t stride, const void** ptrs) const;
  // ptrs[ow * ks + t] for every output pixel of row `oh`.
  void fill_row(const void* image, const void* zero, int32_t oh, const void** ptrs) const;

 private:
  const void* tap(const void* image, size_t channel, const void* zero, int32_t oh, int32_t ow,
                  uint32_t kh, uint32_t kw) const;

  Window p_;
  int32_t in_h_, in_w_, out_w_;
  size_t pixel_bytes_;
  size_t element_bytes_;
};

// The int8 (static quantization) forms, in qs8_conv.cpp.
Error check_qs8_conv(const Node& node, const Value* values);
size_t qs8_conv_packed_bytes(const Node& node, const Value* values);
void qs8_conv_pack(const Node& node, const Value* values, void* dst);
Error qs8_conv_run(const Node& node, Value* values, RunContext& ctx);

}  // namespace tri::xnnpack
