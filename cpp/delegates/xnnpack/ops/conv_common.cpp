#include "cpp/delegates/xnnpack/ops/conv_common.h"

#include <cinttypes>

namespace tri::xnnpack {

ConvShape conv_shape_params(const Node& node) {
  const ConvParams& c = node.params.conv;
  ConvShape s;
  s.ks = size_t{c.kernel_h} * c.kernel_w;
  if (node.type == NodeType::DepthwiseConv2d) {
    s.groups = c.groups;
    s.group_in = 1;
    s.group_out = c.group_in == 0 ? 0 : c.group_out / c.group_in;
  } else {
    s.groups = c.groups;
    s.group_in = c.group_in;
    s.group_out = c.group_out;
  }
  s.in_channels = s.groups * s.group_in;
  s.out_channels = s.groups * s.group_out;
  return s;
}

int64_t conv_out_size(int64_t in, int64_t pad, int64_t kernel, int64_t dilation,
                      int64_t stride) {
  const int64_t span = dilation * (kernel - 1) + 1;
  if (in + pad < span) return -1;
  return (in + pad - span) / stride + 1;
}

bool conv_is_pointwise(const Node& node) {
  const ConvParams& c = node.params.conv;
  return node.type == NodeType::Conv2d && c.kernel_h == 1 && c.kernel_w == 1 &&
         c.stride_h == 1 && c.stride_w == 1 && c.pad_top == 0 && c.pad_bottom == 0 &&
         c.pad_left == 0 && c.pad_right == 0;
}

Error check_conv(const Node& node, const Value* values) {
  const ConvParams& c = node.params.conv;
  TRI_CHECK(c.kernel_h >= 1 && c.kernel_w >= 1 && c.stride_h >= 1 && c.stride_w >= 1 &&
                c.dilation_h >= 1 && c.dilation_w >= 1 && c.groups >= 1 && c.group_in >= 1 &&
                c.group_out >= 1,
            Error::InvalidProgram,
            "kernel %" PRIu32 "x%" PRIu32 ", stride %" PRIu32 "x%" PRIu32 ", dilation %" PRIu32
            "x%" PRIu32 ", %" PRIu32 " groups of %" PRIu32 " -> %" PRIu32
            " channels: every one must be at least 1",
            c.kernel_h, c.kernel_w, c.stride_h, c.stride_w, c.dilation_h, c.dilation_w,
            c.groups, c.group_in, c.group_out);
  TRI_CHECK(uint64_t{c.kernel_h} * c.kernel_w <= 65536 &&
                uint64_t{c.groups} * c.group_in <= (1u << 24) &&
                uint64_t{c.groups} * c.group_out <= (1u << 24) &&
                c.pad_top < (1u << 24) && c.pad_bottom < (1u << 24) && c.pad_left < (1u << 24) &&
                c.pad_right < (1u << 24) && c.stride_h < (1u << 24) && c.stride_w < (1u << 24) &&
                c.dilation_h < (1u << 24) && c.dilation_w < (1u << 24),
            Error::InvalidProgram, "convolution parameters out of range");
  if (node.type == NodeType::DepthwiseConv2d) {
    TRI_CHECK(c.group_out % c.group_in == 0, Error::InvalidProgram,
              "depthwise: %" PRIu32 " output channels per group is not a multiple of %" PRIu32,
              c.group_out, c.group_in);
  }
  if (node.type != NodeType::ConvTranspose2d) {
    TRI_CHECK(c.adjust_h == 0 && c.adjust_w == 0, Error::InvalidProgram,
              "output adjustment %" PRIu32 "x%" PRIu32 " on a convolution that is not transposed",
              c.adjust_h, c.adjust_w);
  }
  const Value& x = in(node, values, 0);
  if (x.dtype != DType::F32) return check_qs8_conv(node, values);
  const ConvShape s = conv_shape_params(node);
  TRI_TRY(expect_rank(node, x, "input", 4));
  TRI_TRY(expect_dtype(node, out(node, values), "output", DType::F32));
  const Value& w = in(node, values, 1);
  TRI_TRY(expect_dtype(node, w, "filter", DType::F32));
  TRI_TRY(expect_constant(node, w, "filter"));
  TRI_TRY(expect_rank(node, w, "filter", 4));
  const bool depthwise = node.type == NodeType::DepthwiseConv2d;
  const int32_t want[4] = {
      depthwise ? 1 : static_cast<int32_t>(s.out_channels), static_cast<int32_t>(c.kernel_h),
      static_cast<int32_t>(c.kernel_w),
      depthwise ? static_cast<int32_t>(s.out_channels) : static_cast<int32_t>(s.group_in)};
  for (int d = 0; d < 4; ++d) {
    TRI_CHECK(w.declared_dims[d] == want[d], Error::InvalidProgram,
              "filter (value %" PRIu32 ") is [%d, %d, %d, %d], expected [%d, %d, %d, %d] (%s)",
              w.id, w.declared_dims[0], w.declared_dims[1], w.declared_dims[2],
              w.declared_dims[3], want[0], want[1], want[2], want[3],
              depthwise ? "1HWO" : "OHWI");
  }
  if (node.inputs[2] != kInvalidId) {
    const Value& b = in(node, values, 2);
    TRI_TRY(expect_dtype(node, b, "bias", DType::F32));
    TRI_TRY(expect_constant(node, b, "bias"));
    TRI_CHECK(b.numel() == s.out_channels, Error::InvalidProgram,
              "bias (value %" PRIu32 ") has %zu elements for %zu output channels", b.id,
              b.numel(), s.out_channels);
  }
  return Error::Ok;
}

Window conv_window(const Node& node) {
  const ConvParams& c = node.params.conv;
  return Window{c.pad_top,    c.pad_left,   c.kernel_h,   c.kernel_w,
                c.stride_h,   c.stride_w,   c.dilation_h, c.dilation_w,
                node.type == NodeType::ConvTranspose2d};
}

Window pool_window(const PoolParams& p) {
  // Average pooling nodes are written with dilation 0: no dilation.
  return Window{p.pad_top,
                p.pad_left,
                p.pool_h,
                p.pool_w,
                p.stride_h,
                p.stride_w,
                p.dilation_h == 0 ? 1 : p.dilation_h,
                p.dilation_w == 0 ? 1 : p.dilation_w,
                false};
}

WindowWalker::WindowWalker(const Window& window, const Value& input, const Value& output)
    : p_(window),
      in_h_(input.dim(1)),
      in_w_(input.dim(2)),
      out_w_(output.dim(2)),
      pixel_bytes_(static_cast<size_t>(input.dim(3)) * element_size(input.tensor.scalar_type())),
      element_bytes_(element_size(input.tensor.scalar_type())) {}

const void* WindowWalker::tap(const void* image, size_t channel, const void* zero, int32_t oh,
                              int32_t ow, uint32_t kh, uint32_t kw) const {
  int64_t ih;
  int64_t iw;
  if (p_.transposed) {
    // Output row oh takes input row ih where ih * stride = oh + pad - kh * dilation.
    const int64_t y = int64_t{oh} + p_.pad_top - int64_t{kh} * p_.dilation_h;
    const int64_t x = int64_t{ow} + p_.pad_left - int64_t{kw} * p_.dilation_w;
    if (y < 0 || x < 0 || y % p_.stride_h != 0 || x % p_.stride_w != 0) return zero;
    ih = y / p_.stride_h;
    iw = x / p_.stride_w;
  } else {
    ih = int64_t{oh} * p_.stride_h - p_.pad_top + int64_t{kh} * p_.dilation_h;
    iw = int64_t{ow} * p_.stride_w - p_.pad_left + int64_t{kw} * p_.dilation_w;
  }
  if (ih < 0 || iw < 0 || ih >= in_h_ || iw >= in_w_) return zero;
  return static_cast<const uint8_t*>(image) +
         (static_cast<size_t>(ih) * static_cast<size_t>(in_w_) + static_cast<size_t>(iw)) *
             pixel_bytes_ +
         channel * element_bytes_;
}

void WindowWalker::fill(const void* image, size_t channel, const void* zero, size_t p0,
                        size_t mr, size_t stride, const void** ptrs) const {
  for (size_t r = 0; r < stride; ++r) {
    const size_t p = p0 + (r < mr ? r : mr - 1);
    const int32_t oh = static_cast<int32_t>(p / static_cast<size_t>(out_w_));
    const int32_t ow = static_cast<int32_t>(p % static_cast<size_t>(out_w_));
    size_t s = 0;
    for (uint32_t kh = 0; kh < p_.kernel_h; ++kh) {
      for (uint32_t kw = 0; kw < p_.kernel_w; ++kw, ++s) {
        ptrs[s * stride + r] = tap(image, channel, zero, oh, ow, kh, kw);
      }
    }
  }
}

void WindowWalker::fill_row(const void* image, const void* zero, int32_t oh,
                            const void** ptrs) const {
  const size_t ks = size_t{p_.kernel_h} * p_.kernel_w;
  for (int32_t ow = 0; ow < out_w_; ++ow) {
    size_t s = 0;
    for (uint32_t kh = 0; kh < p_.kernel_h; ++kh) {
      for (uint32_t kw = 0; kw < p_.kernel_w; ++kw, ++s) {
        ptrs[static_cast<size_t>(ow) * ks + s] = tap(image, 0, zero, oh, ow, kh, kw);
      }
    }
  }
}

}  // namespace tri::xnnpack
