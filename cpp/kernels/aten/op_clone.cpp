// aten::clone.out: a copy of self in out's layout. memory_format may be None,
// preserve or contiguous; channels_last asks for an NHWC out.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/memory_format.h"

namespace tri {
namespace kernels {

Error clone_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_TRY(check_memory_format(args, 1, *out));
  return copy_into(TensorView::of(*self), *out);
}

}  // namespace kernels
}  // namespace tri
