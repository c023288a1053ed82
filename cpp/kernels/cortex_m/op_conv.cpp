// cortex_m::quantized_conv2d, quantized_depthwise_conv2d and
// quantized_transpose_conv2d (and their `_nhwc` forms): CMSIS-NN's s8
// convolutions with per-channel requantization. Weights are OHWI (depthwise:
// [1, KH, KW, C_out], output channel oc reading input channel
// oc / depth_multiplier). Padded taps contribute nothing (CMSIS fills them
// with -input_offset). The scratch tensors are CMSIS work buffers: ignored.
#include <cinttypes>

#include "cpp/kernels/cortex_m/act4.h"
#include "cpp/kernels/cortex_m/cmsis_nn.h"
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/conv_geometry.h"

namespace tri {
namespace kernels {
namespace {

using cortex_m::Act4;

struct ConvArgs {
  Tensor* input = nullptr;
  Tensor* weight = nullptr;
  Tensor* bias = nullptr;
  int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  int64_t oph = 0, opw = 0;  // transpose conv's output_padding
  int64_t depth_multiplier = 1;
  int32_t in_off = 0, out_off = 0, act_min = -128, act_max = 127;
  const int32_t* mults = nullptr;
  const int32_t* shifts = nullptr;
  Tensor* out = nullptr;
};

int32_t clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Reads [stride, padding, (output_padding,) dilation] from `at`, then (for
// depthwise) depth_multiplier, the offsets, multipliers, shifts and clamps.
Error read_conv(KernelArgs& args, bool depthwise, bool transpose, ConvArgs* c) {
  TRI_ASSIGN_OR_RETURN(c->input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(c->weight, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(c->bias, args.optional_tensor(2));
  size_t i = 3;
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> stride, args.int_list(i++));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> padding, args.int_list(i++));
  TRI_TRY(cortex_m::read_pair(stride, "stride", &c->sh, &c->sw));
  TRI_TRY(cortex_m::read_pair(padding, "padding", &c->ph, &c->pw));
  if (transpose) {
    TRI_ASSIGN_OR_RETURN(const Span<const int64_t> op, args.int_list(i++));
    TRI_TRY(cortex_m::read_pair(op, "output_padding", &c->oph, &c->opw));
  }
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> dilation, args.int_list(i++));
  TRI_TRY(cortex_m::read_pair(dilation, "dilation", &c->dh, &c->dw));
  if (depthwise) {
    TRI_ASSIGN_OR_RETURN(c->depth_multiplier, args.int_value(i++));
  }
  TRI_ASSIGN_OR_RETURN(const int64_t in_off, args.int_value(i++));
  TRI_ASSIGN_OR_RETURN(const int64_t out_off, args.int_value(i++));
  TRI_ASSIGN_OR_RETURN(Tensor* mults, args.tensor(i++));
  TRI_ASSIGN_OR_RETURN(Tensor* shifts, args.tensor(i++));
  TRI_ASSIGN_OR_RETURN(const int64_t act_min, args.int_value(i++));
  TRI_ASSIGN_OR_RETURN(const int64_t act_max, args.int_value(i++));
  TRI_ASSIGN_OR_RETURN(c->out, args.tensor(args.size() - 2));
  TRI_CHECK(c->sh > 0 && c->sw > 0 && c->dh > 0 && c->dw > 0 && c->ph >= 0 && c->pw >= 0 &&
                c->oph >= 0 && c->opw >= 0,
            Error::InvalidArgument, "stride and dilation must be positive, padding non-negative");
  // The bound the ATen convolutions and pools use (conv_geometry.h), under
  // which output sizes and input positions fit in 64 bits.
  constexpr int64_t kMax = kMaxWindowParam;
  TRI_CHECK(c->sh <= kMax && c->sw <= kMax && c->dh <= kMax && c->dw <= kMax && c->ph <= kMax &&
                c->pw <= kMax && c->oph <= kMax && c->opw <= kMax,
            Error::InvalidArgument, "stride, padding and dilation must be at most %" PRId64, kMax);
  TRI_CHECK(in_off >= -255 && in_off <= 255 && out_off >= -255 && out_off <= 255 &&
                act_min >= -128 && act_max <= 127 && act_min <= act_max,
            Error::InvalidArgument, "offsets or activation range out of int8 bounds");
  c->in_off = static_cast<int32_t>(in_off);
  c->out_off = static_cast<int32_t>(out_off);
  c->act_min = static_cast<int32_t>(act_min);
  c->act_max = static_cast<int32_t>(act_max);
  TRI_TRY(cortex_m::check_act(*c->input, "input"));
  TRI_CHECK(c->weight->scalar_type() == ScalarType::Char && c->weight->dim() == 4 &&
                c->weight->is_contiguous(),
            Error::InvalidArgument, "weight must be a contiguous 4-D int8 tensor");
  const int64_t channels = depthwise ? c->weight->size(3) : c->weight->size(0);
  TRI_TRY(cortex_m::check_channel_params(*mults, *shifts, channels));
  c->mults = static_cast<const int32_t*>(mults->data());
  c->shifts = static_cast<const int32_t*>(shifts->data());
  if (c->bias != nullptr) {
    TRI_CHECK(c->bias->scalar_type() == ScalarType::Int && static_cast<int64_t>(c->bias->numel()) == channels &&
                  c->bias->is_contiguous(),
              Error::InvalidArgument, "bias must be %" PRId64 " contiguous int32 values", channels);
  }
  return Error::Ok;
}

int8_t output_stage(const ConvArgs& c, int64_t acc, int64_t oc) {
  const int32_t v = cmsis::requantize(cmsis::wrap32(acc), c.mults[oc], c.shifts[oc]) + c.out_off;
  return static_cast<int8_t>(clamp(v, c.act_min, c.act_max));
}

// fn(ky, kx, iy, ix) for each kernel tap of output pixel (y, x) that falls
// inside the input (padded taps contribute nothing).
template <typename Fn>
void for_each_tap(const ConvArgs& c, const Act4& in, int64_t kh, int64_t kw, int64_t y, int64_t x,
                  const Fn& fn) {
  for (int64_t ky = 0; ky < kh; ++ky) {
    const int64_t iy = y * c.sh - c.ph + ky * c.dh;
    if (iy < 0 || iy >= in.h) continue;
    for (int64_t kx = 0; kx < kw; ++kx) {
      const int64_t ix = x * c.sw - c.pw + kx * c.dw;
      if (ix >= 0 && ix < in.w) fn(ky, kx, iy, ix);
    }
  }
}

int64_t conv_out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {
  return (in + 2 * p - d * (k - 1) - 1) / s + 1;
}

Error conv(KernelArgs& args, bool nhwc) {
  ConvArgs c;
  TRI_TRY(read_conv(args, false, false, &c));
  const Act4 x = Act4::of(*c.input, nhwc);
  const int64_t co = c.weight->size(0), kh = c.weight->size(1), kw = c.weight->size(2),
                cig = c.weight->size(3);
  TRI_CHECK(cig > 0 && x.c % cig == 0 && co % (x.c / cig) == 0, Error::InvalidArgument,
            "weight [%" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 "] does not group %" PRId64
            " input channels", co, kh, kw, cig, x.c);
  const int64_t groups = x.c / cig, opg = co / groups;
  const int64_t oh = conv_out_size(x.h, kh, c.sh, c.ph, c.dh);
  const int64_t ow = conv_out_size(x.w, kw, c.sw, c.pw, c.dw);
  Act4 o;
  TRI_TRY(cortex_m::resize_act(*c.out, x.n, co, oh, ow, nhwc, &o));
  const int8_t* w = static_cast<const int8_t*>(c.weight->data());
  const int32_t* b = c.bias != nullptr ? static_cast<const int32_t*>(c.bias->data()) : nullptr;
  for (int64_t n = 0; n < x.n; ++n) {
    for (int64_t oc = 0; oc < co; ++oc) {
      const int64_t g0 = (oc / opg) * cig;
      const int8_t* wo = w + oc * kh * kw * cig;
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t xo = 0; xo < ow; ++xo) {
          int64_t acc = b != nullptr ? b[oc] : 0;
          for_each_tap(c, x, kh, kw, y, xo, [&](int64_t ky, int64_t kx, int64_t iy, int64_t ix) {
            const int8_t* wk = wo + (ky * kw + kx) * cig;
            for (int64_t ic = 0; ic < cig; ++ic) acc += (x.at(n, g0 + ic, iy, ix) + c.in_off) * wk[ic];
          });
          *o.ptr(n, oc, y, xo) = output_stage(c, acc, oc);
        }
      }
    }
  }
  return Error::Ok;
}

Error depthwise(KernelArgs& args, bool nhwc) {
  ConvArgs c;
  TRI_TRY(read_conv(args, true, false, &c));
  const Act4 x = Act4::of(*c.input, nhwc);
  const int64_t kh = c.weight->size(1), kw = c.weight->size(2), co = c.weight->size(3);
  TRI_CHECK(c.weight->size(0) == 1, Error::InvalidArgument,
            "depthwise weight must be [1, KH, KW, C_out]");
  // depth_multiplier <= co keeps the product below 2^62.
  TRI_CHECK(c.depth_multiplier > 0 && c.depth_multiplier <= co && co == x.c * c.depth_multiplier,
            Error::InvalidArgument,
            "%" PRId64 " output channels are not %" PRId64 " input channels times depth_multiplier %" PRId64,
            co, x.c, c.depth_multiplier);
  const int64_t oh = conv_out_size(x.h, kh, c.sh, c.ph, c.dh);
  const int64_t ow = conv_out_size(x.w, kw, c.sw, c.pw, c.dw);
  Act4 o;
  TRI_TRY(cortex_m::resize_act(*c.out, x.n, co, oh, ow, nhwc, &o));
  const int8_t* w = static_cast<const int8_t*>(c.weight->data());
  const int32_t* b = c.bias != nullptr ? static_cast<const int32_t*>(c.bias->data()) : nullptr;
  for (int64_t n = 0; n < x.n; ++n) {
    for (int64_t y = 0; y < oh; ++y) {
      for (int64_t xo = 0; xo < ow; ++xo) {
        for (int64_t oc = 0; oc < co; ++oc) {
          const int64_t ic = oc / c.depth_multiplier;
          int64_t acc = b != nullptr ? b[oc] : 0;
          for_each_tap(c, x, kh, kw, y, xo, [&](int64_t ky, int64_t kx, int64_t iy, int64_t ix) {
            acc += (x.at(n, ic, iy, ix) + c.in_off) * w[(ky * kw + kx) * co + oc];
          });
          *o.ptr(n, oc, y, xo) = output_stage(c, acc, oc);
        }
      }
    }
  }
  return Error::Ok;
}

// Every input pixel scatters (x + input_offset) * w into
// out[y * s + ky - pad, x * s + kx - pad]; written here as a gather over the
// input pixels that reach each output pixel. Dilation must be 1.
Error transpose_conv(KernelArgs& args, bool nhwc) {
  ConvArgs c;
  TRI_TRY(read_conv(args, false, true, &c));
  const Act4 x = Act4::of(*c.input, nhwc);
  const int64_t co = c.weight->size(0), kh = c.weight->size(1), kw = c.weight->size(2),
                ci = c.weight->size(3);
  TRI_CHECK(ci == x.c, Error::InvalidArgument,
            "weight has %" PRId64 " input channels, the input %" PRId64, ci, x.c);
  TRI_CHECK(c.dh == 1 && c.dw == 1, Error::NotSupported,
            "transpose convolution with dilation is not supported (CMSIS-NN has none)");
  const int64_t oh = (x.h - 1) * c.sh - 2 * c.ph + (kh - 1) + c.oph + 1;
  const int64_t ow = (x.w - 1) * c.sw - 2 * c.pw + (kw - 1) + c.opw + 1;
  Act4 o;
  TRI_TRY(cortex_m::resize_act(*c.out, x.n, co, oh, ow, nhwc, &o));
  const int8_t* w = static_cast<const int8_t*>(c.weight->data());
  const int32_t* b = c.bias != nullptr ? static_cast<const int32_t*>(c.bias->data()) : nullptr;
  for (int64_t n = 0; n < x.n; ++n) {
    for (int64_t oc = 0; oc < co; ++oc) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t xo = 0; xo < ow; ++xo) {
          int64_t acc = b != nullptr ? b[oc] : 0;
          for (int64_t ky = 0; ky < kh; ++ky) {
            const int64_t ty = y + c.ph - ky;
            if (ty < 0 || ty % c.sh != 0 || ty / c.sh >= x.h) continue;
            for (int64_t kx = 0; kx < kw; ++kx) {
              const int64_t tx = xo + c.pw - kx;
              if (tx < 0 || tx % c.sw != 0 || tx / c.sw >= x.w) continue;
              const int8_t* wk = w + ((oc * kh + ky) * kw + kx) * ci;
              for (int64_t ic = 0; ic < ci; ++ic) {
                acc += (x.at(n, ic, ty / c.sh, tx / c.sw) + c.in_off) * wk[ic];
              }
            }
          }
          *o.ptr(n, oc, y, xo) = output_stage(c, acc, oc);
        }
      }
    }
  }
  return Error::Ok;
}

}  // namespace

Error cortex_m_quantized_conv2d_out(KernelContext&, KernelArgs& a) { return conv(a, false); }
Error cortex_m_quantized_conv2d_nhwc_out(KernelContext&, KernelArgs& a) { return conv(a, true); }
Error cortex_m_quantized_depthwise_conv2d_out(KernelContext&, KernelArgs& a) { return depthwise(a, false); }
Error cortex_m_quantized_depthwise_conv2d_nhwc_out(KernelContext&, KernelArgs& a) { return depthwise(a, true); }
Error cortex_m_quantized_transpose_conv2d_out(KernelContext&, KernelArgs& a) { return transpose_conv(a, false); }
Error cortex_m_quantized_transpose_conv2d_nhwc_out(KernelContext&, KernelArgs& a) { return transpose_conv(a, true); }

}  // namespace kernels
}  // namespace tri
