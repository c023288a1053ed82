// aten::convolution.out: plain or transposed convolution over 1-3 spatial
// dims with groups, for [N, C, *spatial] input in any dim order. Checks here; the work is in util/conv_forward.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/conv_forward.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error convolution_out(KernelContext& context, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* bias, args.optional_tensor(2));
  TRI_ASSIGN_OR_RETURN(const bool transposed, args.bool_value(6));
  TRI_ASSIGN_OR_RETURN(const int64_t groups, args.int_value(8));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(9));
  const int32_t wdim = weight->dim();
  TRI_CHECK(wdim >= 3 && wdim <= 5, Error::InvalidArgument,
            "weight must be 3D, 4D or 5D, got rank %d", wdim);
  const int32_t nsp = wdim - 2;
  const int32_t rank = input->dim();
  // aten::convolution takes batched input only (F.conv2d adds the batch dim).
  TRI_CHECK(rank == wdim, Error::InvalidArgument,
            "expected a %dD input for a %dD weight, got rank %d", wdim, wdim, rank);
  const bool batched = true;
  ConvProblem p;
  WindowGeom& g = p.g;
  TRI_TRY(read_window_param(args, 3, "stride", nsp, nullptr, 1, g.s));
  TRI_TRY(read_window_param(args, 4, "padding", nsp, nullptr, 0, g.p));
  TRI_TRY(read_window_param(args, 5, "dilation", nsp, nullptr, 1, g.d));
  int64_t out_pad[3] = {0, 0, 0};
  if (transposed) {
    TRI_TRY(read_window_param(args, 7, "output_padding", nsp, nullptr, 0, out_pad));
  }
  TRI_CHECK(groups >= 1 && groups <= kMaxWindowParam, Error::InvalidArgument,
            "groups must be positive, got %" PRId64, groups);
  TRI_TRY(check_dtype(input->scalar_type(), kRealHBTypes, "input"));
  TRI_TRY(check_same_dtype(*weight, input->scalar_type(), "weight"));
  TRI_TRY(check_same_dtype(*out, input->scalar_type(), "out"));
  const int32_t off = batched ? 0 : 1;  // input dim d is padded dim d + off
  p.batch = batched ? input->size(0) : 1;
  p.in_ch = input->size(1 - off);
  const int64_t w0 = weight->size(0);
  const int64_t w1 = weight->size(1);
  TRI_CHECK(w0 % groups == 0 || transposed, Error::InvalidArgument,
            "weight's out channels (%" PRId64 ") must be divisible by groups (%" PRId64 ")", w0,
            groups);
  TRI_CHECK(!transposed || w0 % groups == 0, Error::InvalidArgument,
            "weight's in channels (%" PRId64 ") must be divisible by groups (%" PRId64 ")", w0,
            groups);
  const int64_t expect_in = transposed ? w0 : w1 * groups;
  TRI_CHECK(p.in_ch == expect_in, Error::InvalidArgument,
            "input has %" PRId64 " channels, but weight expects %" PRId64 " (groups=%" PRId64 ")",
            p.in_ch, expect_in, groups);
  p.out_ch = transposed ? w1 * groups : w0;
  p.groups = groups;
  p.transposed = transposed;
  for (int32_t i = 0; i < nsp; ++i) {
    const int32_t j = 3 - nsp + i;
    g.k[j] = weight->size(2 + i);
    TRI_CHECK(g.k[j] >= 1, Error::InvalidArgument, "weight's kernel sizes must be positive");
    const int64_t in_size = input->size(2 - off + i);
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
  if (bias != nullptr) {
    TRI_TRY(check_same_dtype(*bias, input->scalar_type(), "bias"));
    TRI_CHECK(bias->dim() == 1 && bias->size(0) == p.out_ch, Error::InvalidArgument,
              "bias must have shape [%" PRId64 "]", p.out_ch);
  }
  int64_t shape[5];
  if (batched) shape[0] = p.batch;
  shape[1 - off] = p.out_ch;
  for (int32_t i = 0; i < nsp; ++i) {
    shape[2 - off + i] = transposed ? g.img[3 - nsp + i] : g.grid[3 - nsp + i];
  }
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, rank)));
  // Element strides padded to (n, c, d, h, w).
  auto pad_strides = [&](const Tensor& t, int64_t* st) {
    for (int i = 0; i < 5; ++i) st[i] = 0;
    for (int32_t d = 0; d < t.dim(); ++d) st[5 - t.dim() + d] = t.strides()[d];
    if (!batched) {  // [C, *sp]: move C to slot 1
      for (int i = 0; i < 5; ++i) st[i] = 0;
      st[1] = t.strides()[0];
      for (int32_t i = 0; i < nsp; ++i) st[5 - nsp + i] = t.strides()[1 + i];
    } else {
      st[0] = t.strides()[0];
      st[1] = t.strides()[1];
      for (int i = 2; i < 5 - nsp; ++i) st[i] = 0;
    }
  };
  pad_strides(*input, p.in_st);
  pad_strides(*out, p.out_st);
  for (int i = 0; i < 5; ++i) {
    p.w_size[i] = 1;
    p.w_st[i] = 0;
  }
  p.w_size[0] = w0;
  p.w_size[1] = w1;
  p.w_st[0] = weight->strides()[0];
  p.w_st[1] = weight->strides()[1];
  for (int32_t i = 0; i < nsp; ++i) {
    p.w_size[5 - nsp + i] = weight->size(2 + i);
    p.w_st[5 - nsp + i] = weight->strides()[2 + i];
  }
  p.input = input;
  p.weight = weight;
  p.bias = bias;
  p.out = out;
  if (out->numel() == 0) return Error::Ok;
  return run_convolution(context, p);
}

}  // namespace kernels
}  // namespace tri
