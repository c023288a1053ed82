// aten::clone.out: a copy of self in out's layout. memory_format may be None,
// preserve or contiguous; channels_last asks for an NHWC out.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/memory_format.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error clone_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_TRY(check_memory_format(args, 1, *out));
  return copy_into(TensorView::of(*self), *out);
}

// et_copy::_h2d_copy.out / _d2h_copy.out: ExecuTorch's host-device copies
// around a device-delegated region. Here host and device are the same
// memory, so each is a same-dtype copy.
Error h2d_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  return copy_into(TensorView::of(*self), *out);
}

Error d2h_copy_out(KernelContext& ctx, KernelArgs& args) { return h2d_copy_out(ctx, args); }

}  // namespace kernels
}  // namespace tri
