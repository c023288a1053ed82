// aten::unsqueeze_copy.out: self with a size-1 dim inserted at `dim`
// (dim in [-rank-1, rank]).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dims.h"

namespace tri {
namespace kernels {

Error unsqueeze_copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_copy_dtypes(*self, *out));
  TRI_CHECK(self->dim() < static_cast<int32_t>(kTensorDimLimit), Error::NotSupported,
            "unsqueeze would exceed the rank limit of %zu", kTensorDimLimit);
  int32_t d = 0;
  TRI_TRY(normalize_dim(dim, self->dim() + 1, &d));
  TensorView v = TensorView::of(*self);
  v.insert_dim(d, 1, 1);
  return copy_into(v, *out);
}

}  // namespace kernels
}  // namespace tri
