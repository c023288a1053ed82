// executorch_prim::et_view.default: [self, size, out]. out becomes a view of
// self's memory with shape `size` (one -1 inferred); no data is copied.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/view_shape.h"

namespace tri {
namespace kernels {

Error et_view_default(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> size, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  TRI_CHECK(size.size() == static_cast<size_t>(out->dim()), Error::InvalidArgument,
            "size has %zu entries but out has rank %d", size.size(), out->dim());
  TRI_CHECK(self->is_contiguous() && out->is_contiguous(), Error::NotSupported,
            "et_view needs contiguous tensors (a view reinterprets memory)");
  int64_t shape[kTensorDimLimit];
  TRI_TRY(infer_view_shape(size, static_cast<int64_t>(self->numel()), shape));
  // Point out at self's memory first, so the resize checks that memory.
  out->set_data(self->mutable_data(), self->nbytes());
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, size.size())));
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
