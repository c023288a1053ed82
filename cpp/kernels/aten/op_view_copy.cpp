// aten::view_copy.out: self's elements, in order, with shape `size` (one -1
// is inferred).
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/view_shape.h"

namespace tri {
namespace kernels {

Error view_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_copy_dtypes(*self, *out));
  int64_t shape[kTensorDimLimit];
  TRI_TRY(infer_view_shape(size, static_cast<int64_t>(self->numel()), shape));
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, size.size())));
  copy_reshape(TensorView::of(*self), TensorView::of(*out));
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
