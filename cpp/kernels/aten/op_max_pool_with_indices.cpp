// aten::max_pool2d_with_indices.out and max_pool3d_with_indices.out:
// [self, kernel_size, stride, padding, dilation, ceil_mode, out, indices,
// (out, indices)]; self [N, C, *spatial] or [C, *spatial] in any dim order;
// indices are flat within each plane (h * W + w) or volume
// ((d * H + h) * W + w). NaN wins, as in ATen.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/pool_window.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

namespace {

Error max_pool_with_indices(KernelArgs& args, int32_t nsp) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  PoolProblem p;
  p.kind = PoolKind::Max;
  WindowGeom& g = p.g;
  TRI_TRY(read_window_param(args, 1, "kernel_size", nsp, nullptr, 1, g.k));
  TRI_TRY(read_window_param(args, 2, "stride", nsp, g.k, 1, g.s));
  TRI_TRY(read_window_param(args, 3, "padding", nsp, nullptr, 0, g.p));
  TRI_TRY(read_window_param(args, 4, "dilation", nsp, nullptr, 1, g.d));
  TRI_ASSIGN_OR_RETURN(const bool ceil_mode, args.bool_value(5));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(6));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(7));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_TRY(check_same_dtype(*indices, ScalarType::Long, "indices"));
  TRI_TRY(check_pool_input(*self, nsp, g));
  for (int i = 3 - nsp; i < 3; ++i) {
    TRI_CHECK(g.p[i] <= g.k[i] / 2, Error::InvalidArgument,
              "pad should be at most half of kernel size, but got pad=%" PRId64
              " and kernel_size=%" PRId64,
              g.p[i], g.k[i]);
    g.grid[i] = window_count(g.img[i], g.k[i], g.p[i], g.s[i], g.d[i], ceil_mode);
    TRI_CHECK(g.grid[i] >= 1, Error::InvalidArgument,
              "input size %" PRId64 " gives output size %" PRId64 ", which is too small",
              g.img[i], g.grid[i]);
  }
  int64_t shape[5];
  const int32_t rank = pool_out_shape(*self, nsp, g, shape);
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, rank)));
  TRI_TRY(resize_out(*indices, Span<const int64_t>(shape, rank), "indices"));
  p.in = self;
  p.out = out;
  p.indices = indices;
  run_pool(p, nsp);
  return Error::Ok;
}

}  // namespace

Error max_pool2d_with_indices_out(KernelContext&, KernelArgs& args) {
  return max_pool_with_indices(args, 2);
}

Error max_pool3d_with_indices_out(KernelContext&, KernelArgs& args) {
  return max_pool_with_indices(args, 3);
}

}  // namespace kernels
}  // namespace tri
