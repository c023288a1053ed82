// aten::avg_pool2d.out and avg_pool3d.out: [self, kernel_size, stride,
// padding, ceil_mode, count_include_pad, divisor_override, out]. Windows
// that overhang the padded input (ceil mode) count only up to the padding;
// integer results truncate, as in ATen.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/pool_window.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

Error avg_pool(KernelArgs& args, int32_t nsp) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  PoolProblem p;
  p.kind = PoolKind::Avg;
  WindowGeom& g = p.g;
  TRI_TRY(read_window_param(args, 1, "kernel_size", nsp, nullptr, 1, g.k));
  TRI_TRY(read_window_param(args, 2, "stride", nsp, g.k, 1, g.s));
  TRI_TRY(read_window_param(args, 3, "padding", nsp, nullptr, 0, g.p));
  TRI_ASSIGN_OR_RETURN(const bool ceil_mode, args.bool_value(4));
  TRI_ASSIGN_OR_RETURN(p.count_include_pad, args.bool_value(5));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> divisor, args.optional_int(6));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(7));
  TRI_CHECK(!divisor.has_value || divisor.value != 0, Error::InvalidArgument,
            "divisor_override must be non-zero");
  p.divisor = divisor.has_value ? divisor.value : 0;
  TRI_TRY(check_dtype(self->scalar_type(), kFloatHBTypes | dtype_bit(ScalarType::Long), "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_TRY(check_pool_input(*self, nsp, g));
  for (int i = 3 - nsp; i < 3; ++i) {
    TRI_CHECK(g.p[i] <= g.k[i] / 2, Error::InvalidArgument,
              "pad should be at most half of kernel size, but got pad=%" PRId64
              " and kernel_size=%" PRId64,
              g.p[i], g.k[i]);
    g.grid[i] = window_count(g.img[i], g.k[i], g.p[i], g.s[i], 1, ceil_mode);
    TRI_CHECK(g.grid[i] >= 1, Error::InvalidArgument,
              "input size %" PRId64 " gives output size %" PRId64 ", which is too small",
              g.img[i], g.grid[i]);
  }
  int64_t shape[5];
  const int32_t rank = pool_out_shape(*self, nsp, g, shape);
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, rank)));
  p.in = self;
  p.out = out;
  run_pool(p, nsp);
  return Error::Ok;
}

}  // namespace

Error avg_pool2d_out(KernelContext&, KernelArgs& args) { return avg_pool(args, 2); }
Error avg_pool3d_out(KernelContext&, KernelArgs& args) { return avg_pool(args, 3); }

}  // namespace kernels
}  // namespace tri
