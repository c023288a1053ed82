// Convolutions over int8 activations with static quantization (qint8 input
// and output, qint8 or per-channel qcint8 filter, int32 bias). Every output
// pixel's window is gathered into one int8 row per group (padding reads the
// input zero point, so it adds nothing), dotted with each output channel's
// packed filter row, and requantized per channel.
#include <cinttypes>
#include <cmath>
#include <cstring>

#include "cpp/delegates/xnnpack/ops/conv_common.h"
#include "cpp/delegates/xnnpack/ops/quant_params.h"
#include "cpp/kernels/simd/qs8_dot.h"

namespace tri::xnnpack {
namespace {

// Packed: int32 bias[oc] (input zero point folded in), float scale[oc],
// int8 weights[oc][ks * group_in].
struct ConvQPacked {
  size_t oc, k;
  size_t scales_offset() const { return aligned_bytes(oc, 4); }
  size_t weights_offset() const { return scales_offset() + aligned_bytes(oc, 4); }
  size_t total() const { return weights_offset() + aligned_bytes(oc * k, 1); }
};

ConvQPacked layout(const Node& node) {
  const ConvShape s = conv_shape_params(node);
  return ConvQPacked{s.out_channels, s.ks * s.group_in};
}

// Filter element (output channel o, reduction step j = tap * group_in + c).
int32_t filter_q(const Node& node, const Value& w, const ConvShape& s, size_t o, size_t j) {
  const int8_t* q = w.data_as<const int8_t>();
  if (node.type == NodeType::DepthwiseConv2d) return q[j * s.out_channels + o];  // 1HWO
  return q[o * s.ks * s.group_in + j];                                           // OHWI
}

}  // namespace

Error check_qs8_conv(const Node& node, const Value* values) {
  const Value& x = in(node, values, 0);
  const Value& w = in(node, values, 1);
  TRI_TRY(expect_dtype(node, x, "input", DType::QInt8));
  TRI_TRY(expect_rank(node, x, "input", 4));
  TRI_TRY(expect_dtype(node, out(node, values), "output", DType::QInt8));
  TRI_TRY(expect_dtype(node, w, "filter", DType::QInt8, DType::QCInt8));
  TRI_TRY(expect_constant(node, w, "filter"));
  TRI_TRY(expect_rank(node, w, "filter", 4));
  TRI_CHECK(w.dtype != DType::QInt8 || w.quant.zero_point == 0, Error::NotSupported,
            "filter zero point %d (int8 filters are symmetric)",
            static_cast<int>(w.quant.zero_point));
  const ConvShape s = conv_shape_params(node);
  const bool depthwise = node.type == NodeType::DepthwiseConv2d;
  const size_t want0 = depthwise ? 1 : s.out_channels;
  const size_t want3 = depthwise ? s.out_channels : s.group_in;
  TRI_CHECK(static_cast<size_t>(w.declared_dims[0]) == want0 &&
                static_cast<size_t>(w.declared_dims[1]) == node.params.conv.kernel_h &&
                static_cast<size_t>(w.declared_dims[2]) == node.params.conv.kernel_w &&
                static_cast<size_t>(w.declared_dims[3]) == want3,
            Error::InvalidProgram, "filter (value %" PRIu32 ") is [%d, %d, %d, %d], expected [%zu, %" PRIu32
            ", %" PRIu32 ", %zu]",
            w.id, w.declared_dims[0], w.declared_dims[1], w.declared_dims[2], w.declared_dims[3],
            want0, node.params.conv.kernel_h, node.params.conv.kernel_w, want3);
  if (w.dtype == DType::QCInt8) {
    const int32_t dim = depthwise ? 3 : 0;
    TRI_CHECK(w.quant.channel_dim == dim, Error::NotSupported,
              "filter scales along dim %d, expected %d", static_cast<int>(w.quant.channel_dim),
              static_cast<int>(dim));
  }
  if (node.inputs[2] != kInvalidId) {
    const Value& b = in(node, values, 2);
    TRI_TRY(expect_dtype(node, b, "bias", DType::QInt32, DType::QCInt32));
    TRI_TRY(expect_constant(node, b, "bias"));
    TRI_CHECK(b.numel() == s.out_channels, Error::InvalidProgram,
              "bias has %zu elements for %zu output channels", b.numel(), s.out_channels);
  }
  return Error::Ok;
}

size_t qs8_conv_packed_bytes(const Node& node, const Value*) { return layout(node).total(); }

void qs8_conv_pack(const Node& node, const Value* values, void* dst) {
  const ConvShape s = conv_shape_params(node);
  const ConvQPacked p = layout(node);
  const Value& x = in(node, values, 0);
  const Value& w = in(node, values, 1);
  const Value& y = out(node, values);
  uint8_t* base = static_cast<uint8_t*>(dst);
  int32_t* bias = reinterpret_cast<int32_t*>(base);
  float* scales = reinterpret_cast<float*>(base + p.scales_offset());
  int8_t* weights = reinterpret_cast<int8_t*>(base + p.weights_offset());
  for (size_t o = 0; o < p.oc; ++o) {
    int32_t sum = 0;
    for (size_t j = 0; j < p.k; ++j) {
      const int32_t q = filter_q(node, w, s, o, j);
      weights[o * p.k + j] = static_cast<int8_t>(q);
      sum = wrap_add(sum, q);
    }
    const float acc_scale = x.quant.scale * channel_scale(w, o);
    const int32_t b = node.inputs[2] != kInvalidId
                          ? bias_in_accumulator_units(in(node, values, 2), o,
                                                      static_cast<double>(x.quant.scale) * channel_scale(w, o))
                          : 0;
    bias[o] = wrap_add(b, -wrap_mul(x.quant.zero_point, sum));
    scales[o] = acc_scale / y.quant.scale;
  }
}

Error qs8_conv_run(const Node& node, Value* values, RunContext& ctx) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values);
  const ConvShape s = conv_shape_params(node);
  const ConvQPacked p = layout(node);
  const uint8_t* base = static_cast<const uint8_t*>(node.packed);
  const int32_t* bias = reinterpret_cast<const int32_t*>(base);
  const float* scales = reinterpret_cast<const float*>(base + p.scales_offset());
  const int8_t* weights = reinterpret_cast<const int8_t*>(base + p.weights_offset());
  int32_t qmin, qmax;
  quantized_output_range(node, y, &qmin, &qmax);
  const int32_t y_zp = y.quant.zero_point;

  int8_t* zero = ctx.scratch->allocate_array<int8_t>(s.in_channels);
  int8_t* patch = ctx.scratch->allocate_array<int8_t>(p.k);
  const void** ptrs = ctx.scratch->allocate_array<const void*>(s.ks);
  TRI_CHECK(zero != nullptr && patch != nullptr && ptrs != nullptr, Error::MemoryAllocationFailed,
            "no scratch for the convolution's window");
  memset(zero, static_cast<int8_t>(x.quant.zero_point), s.in_channels);
  WindowWalker walk(node, x, y);
  const size_t pixels = static_cast<size_t>(y.dim(1)) * static_cast<size_t>(y.dim(2));
  const size_t in_image = static_cast<size_t>(x.dim(1)) * x.dim(2) * s.in_channels;
  const int8_t* input = x.data_as<const int8_t>();
  int8_t* output = y.data_as<int8_t>();
  for (int32_t n = 0; n < x.dim(0); ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * in_image;
    for (size_t px = 0; px < pixels; ++px) {
      int8_t* out_px = output + (static_cast<size_t>(n) * pixels + px) * s.out_channels;
      walk.fill(image, 0, zero, px, 1, 1, ptrs);
      if (s.group_in == 1) {
        // Depthwise: one input channel per group, read in place.
        for (size_t o = 0; o < s.out_channels; ++o) {
          const size_t c = o / s.group_out;
          const int8_t* w = weights + o * p.k;
          int32_t acc = bias[o];
          for (size_t t = 0; t < s.ks; ++t) {
            const int8_t* tap = static_cast<const int8_t*>(ptrs[t]);
            acc = wrap_add(acc, int32_t{tap[tap == zero ? 0 : c]} * w[t]);
          }
          out_px[o] = static_cast<int8_t>(requantize(acc, scales[o], y_zp, qmin, qmax));
        }
        continue;
      }
      for (size_t g = 0; g < s.groups; ++g) {
        for (size_t t = 0; t < s.ks; ++t) {
          memcpy(patch + t * s.group_in,
                 static_cast<const int8_t*>(ptrs[t]) + (ptrs[t] == zero ? 0 : g * s.group_in),
                 s.group_in);
        }
        // Four output channels share each load of the patch.
        size_t j = 0;
        for (; j + 4 <= s.group_out; j += 4) {
          const size_t o = g * s.group_out + j;
          int32_t acc[4] = {bias[o], bias[o + 1], bias[o + 2], bias[o + 3]};
          qs8_dot4(patch, weights + o * p.k, p.k, p.k, acc);
          for (size_t i = 0; i < 4; ++i) {
            out_px[o + i] = static_cast<int8_t>(requantize(acc[i], scales[o + i], y_zp, qmin, qmax));
          }
        }
        for (; j < s.group_out; ++j) {
          const size_t o = g * s.group_out + j;
          const int32_t acc = wrap_add(bias[o], qs8_dot(patch, weights + o * p.k, p.k));
          out_px[o] = static_cast<int8_t>(requantize(acc, scales[o], y_zp, qmin, qmax));
        }
      }
    }
  }
  return Error::Ok;
}

}  // namespace tri::xnnpack
