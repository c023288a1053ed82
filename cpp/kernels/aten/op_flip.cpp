// aten::flip.out: self reversed along each dim in `dims` (a view with
// negative strides, copied). out has self's dtype.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error flip_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> dims, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  bool mask[kTensorDimLimit] = {};
  TRI_TRY_CONTEXT(dim_list_mask(dims, self->dim(), mask), "dims");
  TensorView v = TensorView::of(*self);
  const int64_t es = static_cast<int64_t>(v.element_size());
  for (int32_t d = 0; d < v.dim; ++d) {
    if (!mask[d] || v.sizes[d] <= 1) continue;
    v.data = static_cast<char*>(v.data) + (v.sizes[d] - 1) * v.strides[d] * es;
    v.strides[d] = -v.strides[d];
  }
  return copy_into(v, *out);
}

}  // namespace kernels
}  // namespace tri
