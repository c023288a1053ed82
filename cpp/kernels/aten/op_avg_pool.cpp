// aten::avg_pool2d.out and avg_pool3d.out: [self, kernel_size, stride,
// padding, ceil_mode, count_include_pad, divisor_override, out]. Windows
// that overhang the padded input (ceil mode) count only up to the padding;
// integer results truncate, as in ATen.
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
  TRI_TRY(read_pool_window(args, 1, nsp, false, p.g));
  TRI_ASSIGN_OR_RETURN(const bool ceil_mode, args.bool_value(4));
  TRI_ASSIGN_OR_RETURN(p.count_include_pad, args.bool_value(5));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> divisor, args.optional_int(6));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(7));
  TRI_CHECK(!divisor.has_value || divisor.value != 0, Error::InvalidArgument,
            "divisor_override must be non-zero");
  p.divisor = divisor.has_value ? divisor.value : 0;
  TRI_TRY(check_dtype(self->scalar_type(), kFloatHBTypes | dtype_bit(ScalarType::Long), "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_TRY(check_pool_input(*self, nsp, p.g));
  TRI_TRY(plan_pool_grid(nsp, ceil_mode, p.g));
  return pool_into(p, *self, *out, nullptr, nsp);
}

}  // namespace

Error avg_pool2d_out(KernelContext&, KernelArgs& args) { return avg_pool(args, 2); }
Error avg_pool3d_out(KernelContext&, KernelArgs& args) { return avg_pool(args, 3); }

}  // namespace kernels
}  // namespace tri
