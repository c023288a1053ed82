#include "cpp/kernels/util/conv_plan.h"

#include <cinttypes>

namespace tri {

void conv_strides5(const Tensor& t, int64_t* st) {
  for (int i = 0; i < 5; ++i) st[i] = 0;
  st[0] = t.strides()[0];
  st[1] = t.strides()[1];
  for (int32_t d = 2; d < t.dim(); ++d) st[5 - t.dim() + d] = t.strides()[d];
}

Error plan_convolution(KernelArgs& args, size_t first, const Tensor& input, const Tensor& weight,
                       ConvProblem& p, int64_t* out_shape) {
  TRI_ASSIGN_OR_RETURN(const bool transposed, args.bool_value(first + 3));
  TRI_ASSIGN_OR_RETURN(const int64_t groups, args.int_value(first + 5));
  const int32_t wdim = weight.dim();
  TRI_CHECK(wdim >= 3 && wdim <= 5, Error::InvalidArgument,
            "weight must be 3D, 4D or 5D, got rank %d", wdim);
  const int32_t nsp = wdim - 2;
  // aten::convolution takes batched input only (F.conv2d adds the batch dim).
  TRI_CHECK(input.dim() == wdim, Error::InvalidArgument,
            "expected a %dD input for a %dD weight, got rank %d", wdim, wdim, input.dim());
  WindowGeom& g = p.g;
  TRI_TRY(read_window_param(args, first, "stride", nsp, nullptr, 1, g.s));
  TRI_TRY(read_window_param(args, first + 1, "padding", nsp, nullptr, 0, g.p));
  TRI_TRY(read_window_param(args, first + 2, "dilation", nsp, nullptr, 1, g.d));
  int64_t out_pad[3] = {0, 0, 0};
  if (transposed) {
    TRI_TRY(read_window_param(args, first + 4, "output_padding", nsp, nullptr, 0, out_pad));
  }
  TRI_CHECK(groups >= 1 && groups <= kMaxWindowParam, Error::InvalidArgument,
            "groups must be positive, got %" PRId64, groups);
  p.batch = input.size(0);
  p.in_ch = input.size(1);
  const int64_t w0 = weight.size(0);
  const int64_t w1 = weight.size(1);
  TRI_CHECK(w0 % groups == 0, Error::InvalidArgument,
            "weight's %s channels (%" PRId64 ") must be divisible by groups (%" PRId64 ")",
            transposed ? "in" : "out", w0, groups);
  const int64_t expect_in = transposed ? w0 : w1 * groups;
  TRI_CHECK(p.in_ch == expect_in, Error::InvalidArgument,
            "input has %" PRId64 " channels, but weight expects %" PRId64 " (groups=%" PRId64 ")",
            p.in_ch, expect_in, groups);
  p.out_ch = transposed ? w1 * groups : w0;
  p.groups = groups;
  p.transposed = transposed;
  for (int32_t i = 0; i < nsp; ++i) {
    const int32_t j = 3 - nsp + i;
    g.k[j] = weight.size(2 + i);
    TRI_CHECK(g.k[j] >= 1, Error::InvalidArgument, "weight's kernel sizes must be positive");
    const int64_t in_size = input.size(2 + i);
    if (transposed) {
      TRI_CHECK(out_pad[j] < g.s[j] || out_pad[j] < g.d[j], Error::InvalidArgument,
                "output_padding (%" PRId64 ") must be smaller than stride or dilation",
                out_pad[j]);
      g.grid[j] = in_size;
      g.img[j] = (in_size - 1) * g.s[j] - 2 * g.p[j] + g.d[j] * (g.k[j] - 1) + out_pad[j] + 1;
      TRI_CHECK(g.img[j] >= 1, Error::InvalidArgument,
                "output size %" PRId64 " of spatial dim %d is too small", g.img[j], i);
    } else {
      g.img[j] = in_size;
      TRI_CHECK(in_size + 2 * g.p[j] >= g.d[j] * (g.k[j] - 1) + 1, Error::InvalidArgument,
                "kernel size (%" PRId64 ", dilated) is larger than the padded input size (%" PRId64
                ") in spatial dim %d",
                g.d[j] * (g.k[j] - 1) + 1, in_size + 2 * g.p[j], i);
      g.grid[j] = window_count(in_size, g.k[j], g.p[j], g.s[j], g.d[j], false);
    }
  }
  out_shape[0] = p.batch;
  out_shape[1] = p.out_ch;
  for (int32_t i = 0; i < nsp; ++i) {
    out_shape[2 + i] = transposed ? g.img[3 - nsp + i] : g.grid[3 - nsp + i];
  }
  conv_strides5(input, p.in_st);
  for (int i = 0; i < 5; ++i) {
    p.w_size[i] = 1;
    p.w_st[i] = 0;
  }
  p.w_size[0] = w0;
  p.w_size[1] = w1;
  p.w_st[0] = weight.strides()[0];
  p.w_st[1] = weight.strides()[1];
  for (int32_t i = 0; i < nsp; ++i) {
    p.w_size[5 - nsp + i] = weight.size(2 + i);
    p.w_st[5 - nsp + i] = weight.strides()[2 + i];
  }
  p.input = &input;
  p.weight = &weight;
  return Error::Ok;
}

}  // namespace tri
