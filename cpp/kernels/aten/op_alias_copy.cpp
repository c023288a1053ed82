// aten::alias_copy.out, aten::detach_copy.out, aten::lift_fresh_copy.out:
// a copy of self (converting to out's dtype). Autograd and lifting mean
// nothing here, so the three are the same copy.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"

namespace tri {
namespace kernels {

Error alias_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  TRI_TRY(check_copy_dtypes(*self, *out));
  return copy_into(TensorView::of(*self), *out);
}

Error detach_copy_out(KernelContext& context, KernelArgs& args) {
  return alias_copy_out(context, args);
}

Error lift_fresh_copy_out(KernelContext& context, KernelArgs& args) {
  return alias_copy_out(context, args);
}

}  // namespace kernels
}  // namespace tri
