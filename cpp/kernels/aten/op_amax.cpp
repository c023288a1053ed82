// aten::amax.out / amin.out (over `dim`; [] = all dims) and max.unary_out /
// min.unary_out (all dims). out has self's dtype; NaN propagates; an empty
// reduction is an error (no identity), as in ATen.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce_minmax.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

Error extreme_impl(KernelArgs& args, bool has_dims, bool is_max) {
  const char* op = has_dims ? (is_max ? "amax" : "amin") : (is_max ? "max" : "min");
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  bool keepdim = false;
  if (has_dims) {
    TRI_ASSIGN_OR_RETURN(keepdim, args.bool_value(2));
  }
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(has_dims ? 3 : 1));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  ReducePlan plan;
  if (has_dims) {
    TRI_ASSIGN_OR_RETURN(const EValue* const dims, args.slot(1));
    TRI_TRY(plan_over_dims(*self, *dims, keepdim, &plan));
  } else {
    TRI_TRY(plan_over_dim(*self, Optional<int64_t>{}, false, &plan));
  }
  TRI_TRY(check_nonempty_reduction(plan, op));
  TRI_TRY(resize_out(*out, Span<const int64_t>(plan.out_sizes, plan.out_dim)));
  const TensorView out_v = TensorView::of(*out);
  reduce_extreme(plan, is_max, &out_v, nullptr);
  return Error::Ok;
}

}  // namespace

Error amax_out(KernelContext&, KernelArgs& args) { return extreme_impl(args, true, true); }
Error amin_out(KernelContext&, KernelArgs& args) { return extreme_impl(args, true, false); }
Error max_unary_out(KernelContext&, KernelArgs& args) { return extreme_impl(args, false, true); }
Error min_unary_out(KernelContext&, KernelArgs& args) { return extreme_impl(args, false, false); }

}  // namespace kernels
}  // namespace tri
