// Conv2d, DepthwiseConv2d and ConvTranspose2d over NHWC float32 data, with
// their weights packed at init and the fused output range applied in the
// microkernels. All three gather each output pixel's window through
// pointers (zero rows for padding and, for transposed convolutions, for the
// taps that fall between input pixels) into the igemm or depthwise kernel;
// a 1x1 stride-1 convolution reads its input rows in place (a plain gemm).
#include <cinttypes>
#include <cstring>

#include "cpp/delegates/xnnpack/ops/conv_common.h"
#include "cpp/delegates/xnnpack/ops/parallel_gemm.h"
#include "cpp/kernels/simd/f32_dwconv_minmax.h"
#include "cpp/kernels/simd/f32_gemm_minmax.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri::xnnpack {
namespace {

// ---- shapes -------------------------------------------------------------

Error reshape_conv(const Node& node, Value* values) {
  const Value& x = in(node, values, 0);
  TRI_TRY(expect_rank(node, x, "input", 4));
  const ConvParams& c = node.params.conv;
  const ConvShape s = conv_shape(node, x);
  TRI_CHECK(x.dim(3) == static_cast<int32_t>(s.in_channels), Error::InvalidArgument,
            "input has %d channels, the node takes %zu", x.dim(3), s.in_channels);
  int64_t oh = 0;
  int64_t ow = 0;
  if (node.type == NodeType::ConvTranspose2d) {
    oh = (int64_t{x.dim(1)} - 1) * c.stride_h - c.pad_top - c.pad_bottom +
         int64_t{c.dilation_h} * (c.kernel_h - 1) + c.adjust_h + 1;
    ow = (int64_t{x.dim(2)} - 1) * c.stride_w - c.pad_left - c.pad_right +
         int64_t{c.dilation_w} * (c.kernel_w - 1) + c.adjust_w + 1;
  } else {
    oh = conv_out_size(x.dim(1), c.pad_top + c.pad_bottom, c.kernel_h, c.dilation_h, c.stride_h);
    ow = conv_out_size(x.dim(2), c.pad_left + c.pad_right, c.kernel_w, c.dilation_w, c.stride_w);
  }
  TRI_CHECK(oh >= 0 && ow >= 0 && oh <= 0x7FFFFFFF && ow <= 0x7FFFFFFF,
            Error::InvalidArgument, "a %dx%d input gives a %" PRId64 "x%" PRId64 " output",
            x.dim(1), x.dim(2), oh, ow);
  const int32_t dims[4] = {x.dim(0), static_cast<int32_t>(oh), static_cast<int32_t>(ow),
                           static_cast<int32_t>(s.out_channels)};
  return resize_output(node, values, 0, dims, 4);
}

// ---- packing --------------------------------------------------------------

// Convolutions run as `groups` gemms of group_out channels over
// ks * group_in steps; a depthwise node with a depth multiplier above 1 is
// such a grouped convolution (group_in 1).
bool uses_dwconv_kernel(const Node& node) {
  const ConvParams& c = node.params.conv;
  return node.type == NodeType::DepthwiseConv2d && c.group_out == c.group_in;
}

size_t group_floats(const Node& node) {
  const ConvShape s = conv_shape_params(node);
  return f32_gemm_packed_floats(s.group_out, s.ks * s.group_in);
}

size_t packed_bytes(const Node& node, const Value* values) {
  if (in(node, values, 0).dtype != DType::F32) return qs8_conv_packed_bytes(node, values);
  const ConvShape s = conv_shape_params(node);
  if (uses_dwconv_kernel(node)) return f32_dwconv_packed_floats(s.out_channels, s.ks) * 4;
  return group_floats(node) * s.groups * 4;
}

void pack(const Node& node, const Value* values, void* dst) {
  if (in(node, values, 0).dtype != DType::F32) {
    qs8_conv_pack(node, values, dst);
    return;
  }
  const ConvShape s = conv_shape_params(node);
  const float* w = in(node, values, 1).data_as<const float>();
  const float* bias = node.inputs[2] != kInvalidId
                          ? static_cast<const float*>(in(node, values, 2).data())
                          : nullptr;
  float* packed = static_cast<float*>(dst);
  if (uses_dwconv_kernel(node)) {
    f32_dwconv_pack(s.out_channels, s.ks, w, bias, packed);
    return;
  }
  const size_t k = s.ks * s.group_in;
  for (size_t g = 0; g < s.groups; ++g) {
    const float* gb = bias ? bias + g * s.group_out : nullptr;
    if (node.type == NodeType::DepthwiseConv2d) {
      // [1, kh, kw, C * m]: output channels g*m .. g*m+m-1, taps strided.
      f32_gemm_pack(s.group_out, s.ks, w + g * s.group_out, 1, s.out_channels, gb, packed);
    } else {
      f32_gemm_pack(s.group_out, k, w + g * s.group_out * k, k, 1, gb, packed);
    }
    packed += group_floats(node);
  }
}

// ---- running ----------------------------------------------------------------

// Output pixels per igemm call: the window pointers of this many pixels are
// built at once, and each 16-channel strip of weights is read once for them.
constexpr size_t kIgemmRows = 64;

size_t scratch_bytes(const Node& node, const Value* values) {
  const Value& x = in(node, values, 0);
  const ConvShape s = conv_shape(node, x);
  const size_t zeros = (s.in_channels + 4) * 4;
  const size_t width = static_cast<size_t>(out(node, values).dim(2));
  const size_t pointers = uses_dwconv_kernel(node) ? width * s.ks : s.ks * kIgemmRows;
  // One pointer block per parallel piece (parallel_gemm.h).
  return zeros + parallel_scratch_slots() * (pointers * sizeof(void*) + 64) + 64;
}

// Up to `want` blocks of `count` pointers from scratch, fewer if it runs
// short (at least one, or 0 when not even that fits).
size_t allocate_pointer_slots(MemoryAllocator& scratch, size_t count, size_t want,
                              const void*** slots) {
  size_t got = 0;
  for (; got < want; ++got) {
    slots[got] = scratch.allocate_array<const void*>(count);
    if (slots[got] == nullptr) break;
  }
  return got;
}

Error run_gemm_conv(const Node& node, Value* values, RunContext& ctx) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values);
  const ConvShape s = conv_shape(node, x);
  const float* input = x.data_as<const float>();
  float* output = y.data_as<float>();
  const float* packed = static_cast<const float*>(node.packed);
  const size_t cin = s.in_channels;
  const size_t cout = s.out_channels;
  // 1x1, stride 1, unpadded, one group: the NHWC input already is the
  // gemm's left matrix.
  if (conv_is_pointwise(node) && s.groups == 1) {
    const size_t rows = x.numel() / cin;
    parallel_f32_gemm_minmax(rows, cout, cin, input, cin, packed, output, cout, node.out_min,
                             node.out_max);
    return Error::Ok;
  }
  float* zero = ctx.scratch->allocate_array<float>(s.group_in);
  const void** slots[kMaxScratchSlots];
  const size_t n_slots =
      zero == nullptr ? 0 : allocate_pointer_slots(*ctx.scratch, s.ks * kIgemmRows, run_scratch_slots(), slots);
  TRI_CHECK(n_slots > 0, Error::MemoryAllocationFailed,
            "no scratch for the convolution's window pointers");
  memset(zero, 0, s.group_in * sizeof(float));
  const size_t n_images = static_cast<size_t>(x.dim(0));
  const size_t pixels = static_cast<size_t>(y.dim(1)) * static_cast<size_t>(y.dim(2));
  const size_t blocks_per_image = (pixels + kIgemmRows - 1) / kIgemmRows;
  const size_t gfloats = group_floats(node);
  const WindowWalker walk(node, x, y);
  // Work units: a block of kIgemmRows output pixels of one image by a strip
  // of each group's output channels; each slot (its own pointer block) runs
  // a contiguous range of them. Small images have fewer pixel blocks than
  // slots (resnet18's 7x7 stage has one), so their channels are split too:
  // else one thread runs the whole layer.
  const size_t pixel_units = n_images * blocks_per_image;
  size_t strip = s.group_out;
  if (pixel_units < n_slots) {
    const size_t strips = (n_slots + pixel_units - 1) / pixel_units;
    strip = (s.group_out + strips - 1) / strips;
    strip = (strip + kF32GemmNr - 1) / kF32GemmNr * kF32GemmNr;  // whole packed blocks
    if (strip > s.group_out) strip = s.group_out;
  }
  const size_t strips = (s.group_out + strip - 1) / strip;
  const size_t strip_floats = f32_gemm_packed_floats(strip, s.ks * s.group_in);
  const size_t units = pixel_units * strips;
  const size_t pieces = units < n_slots ? units : n_slots;
  parallel_for(pieces, 1, [&](size_t first_piece, size_t end_piece) {
    for (size_t piece = first_piece; piece < end_piece; ++piece) {
      const void** ptrs = slots[piece];
      for (size_t u = units * piece / pieces; u < units * (piece + 1) / pieces; ++u) {
        const size_t n = (u / strips) / blocks_per_image;
        const size_t p0 = ((u / strips) % blocks_per_image) * kIgemmRows;
        const size_t j0 = (u % strips) * strip;
        const size_t ncs = s.group_out - j0 < strip ? s.group_out - j0 : strip;
        const float* image = input + n * x.dim(1) * x.dim(2) * cin;
        float* out_image = output + n * pixels * cout;
        const size_t rows = pixels - p0 < kIgemmRows ? pixels - p0 : kIgemmRows;
        for (size_t g = 0; g < s.groups; ++g) {
          // The igemm's indirect rows in pairs: ks taps x 2 rows per pair.
          for (size_t q = 0; q * kF32GemmMr < rows; ++q) {
            const size_t first = q * kF32GemmMr;
            const size_t mr = rows - first < kF32GemmMr ? rows - first : kF32GemmMr;
            walk.fill(image, g * s.group_in, zero, p0 + first, mr, kF32GemmMr,
                      ptrs + q * s.ks * kF32GemmMr);
          }
          f32_igemm_minmax(rows, ncs, s.group_in, s.ks,
                           reinterpret_cast<const float* const*>(ptrs),
                           packed + g * gfloats + (j0 / strip) * strip_floats,
                           out_image + p0 * cout + g * s.group_out + j0, cout, node.out_min,
                           node.out_max);
        }
      }
    }
  });
  return Error::Ok;
}

Error run_dwconv(const Node& node, Value* values, RunContext& ctx) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values);
  const ConvShape s = conv_shape(node, x);
  const size_t c = s.in_channels;
  const size_t width = static_cast<size_t>(y.dim(2));
  float* zero = ctx.scratch->allocate_array<float>(c);
  const void** slots[kMaxScratchSlots];
  const size_t n_slots =
      zero == nullptr ? 0 : allocate_pointer_slots(*ctx.scratch, width * s.ks, run_scratch_slots(), slots);
  TRI_CHECK(n_slots > 0, Error::MemoryAllocationFailed,
            "no scratch for the convolution's window pointers");
  memset(zero, 0, c * sizeof(float));
  const float* input = x.data_as<const float>();
  float* output = y.data_as<float>();
  const WindowWalker walk(node, x, y);
  // Work units: output rows; each slot runs a contiguous range of them.
  const size_t out_h = static_cast<size_t>(y.dim(1));
  const size_t units = static_cast<size_t>(x.dim(0)) * out_h;
  // Rows of small images are too little work to hand to another thread.
  size_t pieces = units < n_slots ? units : n_slots;
  if (units * width * c * s.ks < (size_t{1} << 14)) pieces = pieces > 0 ? 1 : 0;
  parallel_for(pieces, 1, [&](size_t first_piece, size_t end_piece) {
    for (size_t piece = first_piece; piece < end_piece; ++piece) {
      const void** ptrs = slots[piece];
      for (size_t u = units * piece / pieces; u < units * (piece + 1) / pieces; ++u) {
        const size_t n = u / out_h;
        const int32_t oh = static_cast<int32_t>(u % out_h);
        const float* image = input + n * x.dim(1) * x.dim(2) * c;
        walk.fill_row(image, zero, oh, ptrs);
        float* row = output + u * width * c;
        f32_dwconv_minmax(c, width, s.ks, reinterpret_cast<const float* const*>(ptrs),
                          static_cast<const float*>(node.packed), row, c, node.out_min,
                          node.out_max);
      }
    }
  });
  return Error::Ok;
}

Error run(const Node& node, Value* values, RunContext& ctx) {
  if (in(node, values, 0).dtype != DType::F32) return qs8_conv_run(node, values, ctx);
  if (uses_dwconv_kernel(node)) return run_dwconv(node, values, ctx);
  return run_gemm_conv(node, values, ctx);
}

Error check(Node& node, const Value* values) { return check_conv(node, values); }

// Filter and bias go into the packed weights.
const OpDef kConv = {&check, &reshape_conv, &scratch_bytes, &packed_bytes, &pack, &run, 0b110};

}  // namespace

const OpDef* conv_op_def(NodeType type) {
  switch (type) {
    case NodeType::Conv2d:
    case NodeType::DepthwiseConv2d:
    case NodeType::ConvTranspose2d: return &kConv;
    default: return nullptr;
  }
}

}  // namespace tri::xnnpack
