// aten::sum.IntList_out: sum over `dim` (None or [] = all dims). The sum is
// computed in out's dtype (dtype, when given, must equal it).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce_sum.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error sum_intlist_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const bool keepdim, args.bool_value(2));
  TRI_ASSIGN_OR_RETURN(const Optional<ScalarType> dtype, args.optional_scalar_type(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_dtype(out->scalar_type(), kRealHBBoolTypes, "out"));
  if (dtype.has_value) {
    TRI_TRY(check_same_dtype(*out, dtype.value, "out (must match dtype)"));
  }
  TRI_ASSIGN_OR_RETURN(const EValue* const dims, args.slot(1));
  bool mask[kTensorDimLimit];
  TRI_TRY(reduce_mask_from_dims(*dims, self->dim(), mask));
  ReducePlan plan;
  make_reduce_plan(*self, mask, keepdim, &plan);
  TRI_TRY(resize_out(*out, Span<const int64_t>(plan.out_sizes, plan.out_dim)));
  reduce_sum(plan, TensorView::of(*out), 1.0);
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
