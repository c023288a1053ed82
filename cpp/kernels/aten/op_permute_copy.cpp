// aten::permute_copy.out: out = self with its dims reordered by `dims`.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"

namespace tri {
namespace kernels {

Error permute_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> dims, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_CHECK(dims.size() == static_cast<size_t>(self->dim()), Error::InvalidArgument,
            "dims has %zu entries for a rank-%d tensor", dims.size(), self->dim());
  const TensorView in = TensorView::of(*self);
  TensorView v = in;
  bool seen[kTensorDimLimit] = {};
  for (size_t i = 0; i < dims.size(); ++i) {
    int32_t d = 0;
    TRI_TRY_CONTEXT(normalize_dim(dims[i], self->dim(), &d), "dims[%zu]", i);
    TRI_CHECK(!seen[d], Error::InvalidArgument, "dims: dim %d is repeated", d);
    seen[d] = true;
    v.sizes[i] = in.sizes[d];
    v.strides[i] = in.strides[d];
  }
  return copy_into(v, *out);
}

}  // namespace kernels
}  // namespace tri
