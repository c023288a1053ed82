// dim_order_ops::_to_dim_order_copy.out: a copy of self converted to out's
// dtype and laid out in out's dim order (which must match `dim_order`).
#include "cpp/kernels/dim_order/dim_order_args.h"
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"

namespace tri {
namespace kernels {

Error to_dim_order_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const bool non_blocking, args.bool_value(1));
  (void)non_blocking;
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_TRY(check_out_dim_order(args, 2, *self, *out));
  return copy_into(TensorView::of(*self), *out);
}

}  // namespace kernels
}  // namespace tri
