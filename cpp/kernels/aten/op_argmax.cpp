// aten::argmax.out / argmin.out: index of the largest / smallest value along
// `dim` (None: over the flattened tensor). Ties give the first; NaN counts
// as the extreme (the first NaN wins).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce_minmax.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

Error arg_extreme(KernelArgs& args, bool is_max) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Optional<int64_t> dim, args.optional_int(1));
  TRI_ASSIGN_OR_RETURN(const bool keepdim, args.bool_value(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBTypes, "self"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Long, "out"));
  ReducePlan plan;
  TRI_TRY(plan_over_dim(*self, dim, keepdim, &plan));
  TRI_TRY(check_nonempty_reduction(plan, is_max ? "argmax" : "argmin"));
  TRI_TRY(resize_out(*out, Span<const int64_t>(plan.out_sizes, plan.out_dim)));
  const TensorView out_v = TensorView::of(*out);
  reduce_extreme(plan, is_max, nullptr, &out_v);
  return Error::Ok;
}

}  // namespace

Error argmax_out(KernelContext&, KernelArgs& args) { return arg_extreme(args, true); }
Error argmin_out(KernelContext&, KernelArgs& args) { return arg_extreme(args, false); }

}  // namespace kernels
}  // namespace tri
