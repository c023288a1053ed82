// aten::max.dim_max / min.dim_min: values (self's dtype) and indices (Long)
// of the largest / smallest element along `dim`; ties give the first, NaN
// wins, an empty dim is an error.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce_minmax.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

Error extreme_dim(KernelArgs& args, bool is_max) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t dim, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const bool keepdim, args.bool_value(2));
  TRI_ASSIGN_OR_RETURN(Tensor* values, args.tensor(3));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(4));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_same_dtype(*values, self->scalar_type(), is_max ? "max" : "min"));
  TRI_TRY(check_same_dtype(*indices, ScalarType::Long, is_max ? "max_values" : "min_indices"));
  ReducePlan plan;
  TRI_TRY(plan_over_dim(*self, Optional<int64_t>{true, dim}, keepdim, &plan));
  TRI_TRY(check_nonempty_reduction(plan, is_max ? "max" : "min"));
  const Span<const int64_t> shape(plan.out_sizes, plan.out_dim);
  TRI_TRY(resize_out(*values, shape, is_max ? "max" : "min"));
  TRI_TRY(resize_out(*indices, shape, is_max ? "max_values" : "min_indices"));
  const TensorView v = TensorView::of(*values);
  const TensorView i = TensorView::of(*indices);
  reduce_extreme(plan, is_max, &v, &i);
  return Error::Ok;
}

}  // namespace

Error max_dim_max_out(KernelContext&, KernelArgs& args) { return extreme_dim(args, true); }
Error min_dim_min_out(KernelContext&, KernelArgs& args) { return extreme_dim(args, false); }

}  // namespace kernels
}  // namespace tri
