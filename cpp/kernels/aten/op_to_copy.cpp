// aten::_to_copy.out: a copy of self converted to out's dtype.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/memory_format.h"

namespace tri {
namespace kernels {

Error to_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const bool non_blocking, args.bool_value(1));
  (void)non_blocking;  // meaningless without devices
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_TRY(check_memory_format(args, 2, *out));
  return copy_into(TensorView::of(*self), *out);
}

}  // namespace kernels
}  // namespace tri
