// aten::max_pool2d_with_indices.out and max_pool3d_with_indices.out:
// [self, kernel_size, stride, padding, dilation, ceil_mode, out, indices,
// (out, indices)]; self [N, C, *spatial] or [C, *spatial] in any dim order;
// indices are flat within each plane (h * W + w) or volume
// ((d * H + h) * W + w). NaN wins, as in ATen.
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
  TRI_TRY(read_pool_window(args, 1, nsp, true, p.g));
  TRI_ASSIGN_OR_RETURN(const bool ceil_mode, args.bool_value(5));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(6));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(7));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_TRY(check_same_dtype(*indices, ScalarType::Long, "indices"));
  TRI_TRY(check_pool_input(*self, nsp, p.g));
  TRI_TRY(plan_pool_grid(nsp, ceil_mode, p.g));
  return pool_into(p, *self, *out, indices, nsp);
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
