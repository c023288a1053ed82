// cortex_m::quantized_avg_pool2d and quantized_max_pool2d (and `_nhwc`
// forms): CMSIS-NN's arm_avgpool_s8 / arm_max_pool_s8 over the taps of each
// window that fall inside the input (padding is not counted). The average
// is rounded half away from zero and clamped to int8; avg_pool's
// zero_point/multiplier/shift arguments are unused by the backend's kernel
// (input and output share their quantization), and so are they here.
#include <cinttypes>

#include "cpp/kernels/cortex_m/act4.h"
#include "cpp/kernels/kernels.h"

namespace tri {
namespace kernels {
namespace {

using cortex_m::Act4;

struct PoolArgs {
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0;
  bool ceil_mode = false;
};

int64_t pool_out_size(int64_t in, int64_t k, int64_t s, int64_t p, bool ceil_mode) {
  const int64_t num = in + 2 * p - k;
  int64_t out = num / s + 1;
  if (ceil_mode && num % s != 0) ++out;
  if (ceil_mode && (out - 1) * s >= in + p) --out;
  return out;
}

Error read_window(KernelArgs& args, PoolArgs* p) {
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> kernel, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> stride, args.int_list(2));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> padding, args.int_list(3));
  TRI_TRY(cortex_m::read_pair(kernel, "kernel_size", &p->kh, &p->kw));
  TRI_TRY(cortex_m::read_pair(stride, "stride", &p->sh, &p->sw));
  TRI_TRY(cortex_m::read_pair(padding, "padding", &p->ph, &p->pw));
  TRI_CHECK(p->kh > 0 && p->kw > 0 && p->sh > 0 && p->sw > 0 && p->ph >= 0 && p->pw >= 0 &&
                p->ph <= p->kh / 2 && p->pw <= p->kw / 2,
            Error::InvalidArgument,
            "kernel and stride must be positive, padding at most half the kernel");
  return Error::Ok;
}

// fn(n, c, oy, ox, y0, y1, x0, x1) for each output pixel's clipped window.
template <typename Fn>
Error for_each_window(const Act4& x, const PoolArgs& p, Tensor& out, bool nhwc, const Fn& fn) {
  const int64_t oh = pool_out_size(x.h, p.kh, p.sh, p.ph, p.ceil_mode);
  const int64_t ow = pool_out_size(x.w, p.kw, p.sw, p.pw, p.ceil_mode);
  Act4 o;
  TRI_TRY(cortex_m::resize_act(out, x.n, x.c, oh, ow, nhwc, &o));
  for (int64_t n = 0; n < x.n; ++n) {
    for (int64_t oy = 0; oy < oh; ++oy) {
      const int64_t y0 = oy * p.sh - p.ph;
      const int64_t ya = y0 < 0 ? 0 : y0, yb = y0 + p.kh < x.h ? y0 + p.kh : x.h;
      for (int64_t ox = 0; ox < ow; ++ox) {
        const int64_t x0 = ox * p.sw - p.pw;
        const int64_t xa = x0 < 0 ? 0 : x0, xb = x0 + p.kw < x.w ? x0 + p.kw : x.w;
        for (int64_t c = 0; c < x.c; ++c) *o.ptr(n, c, oy, ox) = fn(n, c, ya, yb, xa, xb);
      }
    }
  }
  return Error::Ok;
}

Error avg_pool(KernelArgs& args, bool nhwc) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  PoolArgs p;
  TRI_TRY(read_window(args, &p));
  TRI_ASSIGN_OR_RETURN(p.ceil_mode, args.bool_value(4));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(9));
  TRI_TRY(cortex_m::check_act(*in, "input"));
  const Act4 x = Act4::of(*in, nhwc);
  return for_each_window(x, p, *out, nhwc, [&](int64_t n, int64_t c, int64_t y0, int64_t y1,
                                               int64_t x0, int64_t x1) -> int8_t {
    int32_t sum = 0;
    for (int64_t y = y0; y < y1; ++y) {
      for (int64_t xi = x0; xi < x1; ++xi) sum += x.at(n, c, y, xi);
    }
    const int32_t count = static_cast<int32_t>((y1 - y0) * (x1 - x0));
    if (count <= 0) return 0;
    const int32_t avg = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
    return static_cast<int8_t>(avg < -128 ? -128 : (avg > 127 ? 127 : avg));
  });
}

Error max_pool(KernelArgs& args, bool nhwc) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  PoolArgs p;
  TRI_TRY(read_window(args, &p));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> dilation, args.int_list(4));
  TRI_ASSIGN_OR_RETURN(p.ceil_mode, args.bool_value(5));
  TRI_ASSIGN_OR_RETURN(const int64_t in_zp, args.int_value(6));
  TRI_ASSIGN_OR_RETURN(const int64_t out_zp, args.int_value(7));
  TRI_ASSIGN_OR_RETURN(const int64_t act_min, args.int_value(8));
  TRI_ASSIGN_OR_RETURN(const int64_t act_max, args.int_value(9));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(10));
  int64_t dh = 1, dw = 1;
  TRI_TRY(cortex_m::read_pair(dilation, "dilation", &dh, &dw));
  TRI_CHECK(dh == 1 && dw == 1, Error::NotSupported, "max pooling with dilation is not supported");
  TRI_CHECK(in_zp == out_zp, Error::InvalidArgument,
            "input and output zero points must be equal (%" PRId64 " vs %" PRId64 ")", in_zp, out_zp);
  TRI_CHECK(act_min >= -128 && act_max <= 127 && act_min <= act_max, Error::InvalidArgument,
            "activation range [%" PRId64 ", %" PRId64 "] is not within int8", act_min, act_max);
  TRI_TRY(cortex_m::check_act(*in, "input"));
  const Act4 x = Act4::of(*in, nhwc);
  return for_each_window(x, p, *out, nhwc, [&](int64_t n, int64_t c, int64_t y0, int64_t y1,
                                               int64_t x0, int64_t x1) -> int8_t {
    int32_t m = -128;
    for (int64_t y = y0; y < y1; ++y) {
      for (int64_t xi = x0; xi < x1; ++xi) m = x.at(n, c, y, xi) > m ? x.at(n, c, y, xi) : m;
    }
    m = m < act_min ? static_cast<int32_t>(act_min) : (m > act_max ? static_cast<int32_t>(act_max) : m);
    return static_cast<int8_t>(m);
  });
}

}  // namespace

Error cortex_m_quantized_avg_pool2d_out(KernelContext&, KernelArgs& a) { return avg_pool(a, false); }
Error cortex_m_quantized_avg_pool2d_nhwc_out(KernelContext&, KernelArgs& a) { return avg_pool(a, true); }
Error cortex_m_quantized_max_pool2d_out(KernelContext&, KernelArgs& a) { return max_pool(a, false); }
Error cortex_m_quantized_max_pool2d_nhwc_out(KernelContext&, KernelArgs& a) { return max_pool(a, true); }

}  // namespace kernels
}  // namespace tri
