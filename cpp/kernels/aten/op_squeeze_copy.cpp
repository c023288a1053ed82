// aten::squeeze_copy.out (every size-1 dim), .dim_out (one dim), .dims_out
// (a list): listed dims are removed when their size is 1, kept otherwise.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"

namespace tri {
namespace kernels {
namespace {

Error squeeze_impl(const Tensor& self, const bool mask[kTensorDimLimit], Tensor& out) {
  TRI_TRY(check_copy_dtypes(self, out));
  TensorView v = TensorView::of(self);
  for (int32_t d = self.dim() - 1; d >= 0; --d) {
    if (mask[d] && self.size(d) == 1) {
      v.remove_dim(d);
    }
  }
  return copy_into(v, out);
}

}  // namespace

Error squeeze_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  bool mask[kTensorDimLimit];
  for (bool& m : mask) m = true;
  return squeeze_impl(*self, mask, *out);
}

Error squeeze_copy_dim_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  bool mask[kTensorDimLimit];
  TRI_TRY(dim_list_mask(Span<const int64_t>(&dim, 1), self->dim(), mask));
  return squeeze_impl(*self, mask, *out);
}

Error squeeze_copy_dims_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> dims, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  bool mask[kTensorDimLimit];
  TRI_TRY(dim_list_mask(dims, self->dim(), mask));
  return squeeze_impl(*self, mask, *out);
}

}  // namespace kernels
}  // namespace tri
