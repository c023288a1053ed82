// aten::mean.out: mean over `dim` (None or [] = all dims). self (or dtype,
// when given) must be floating, as in ATen; out's dtype must equal dtype.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce_sum.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error mean_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const bool keepdim, args.bool_value(2));
  TRI_ASSIGN_OR_RETURN(const Optional<ScalarType> dtype, args.optional_scalar_type(3));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(4));
  const ScalarType want = dtype.has_value ? dtype.value : self->scalar_type();
  TRI_CHECK(is_floating_type(want), Error::InvalidType,
            "mean(): could not infer output dtype; input dtype must be floating "
            "point, got %s", scalar_type_name(want));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_dtype(out->scalar_type(), kFloatHBTypes, "out"));
  if (dtype.has_value) {
    TRI_TRY(check_same_dtype(*out, dtype.value, "out (must match dtype)"));
  }
  TRI_ASSIGN_OR_RETURN(const EValue* const dims, args.slot(1));
  bool mask[kTensorDimLimit];
  TRI_TRY(reduce_mask_from_dims(*dims, self->dim(), mask));
  ReducePlan plan;
  make_reduce_plan(*self, mask, keepdim, &plan);
  TRI_TRY(resize_out(*out, Span<const int64_t>(plan.out_sizes, plan.out_dim)));
  reduce_sum(plan, TensorView::of(*out), static_cast<double>(plan.reduce_numel));
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
