// aten::mean.out (over `dim`; None or [] = all dims) and aten::mean.dtype_out
// (all dims). self (or dtype, when given) must be floating, as in ATen;
// out's dtype must equal dtype.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce_sum.h"

namespace tri {
namespace kernels {
namespace {

Error mean_impl(KernelArgs& args, bool has_dims) {
  DimsDtypeArgs a;
  TRI_TRY(read_dims_dtype_args(args, has_dims, kFloatHBTypes, "mean", &a));
  reduce_sum(a.plan, TensorView::of(*a.out), static_cast<double>(a.plan.reduce_numel));
  return Error::Ok;
}

}  // namespace

Error mean_out(KernelContext&, KernelArgs& args) { return mean_impl(args, true); }
Error mean_dtype_out(KernelContext&, KernelArgs& args) { return mean_impl(args, false); }

}  // namespace kernels
}  // namespace tri
