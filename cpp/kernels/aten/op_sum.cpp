// aten::sum.IntList_out (over `dim`; None or [] = all dims) and aten::sum.out
// (all dims). The sum is computed in out's dtype (dtype, when given, must
// equal it).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/reduce_sum.h"

namespace tri {
namespace kernels {
namespace {

Error sum_impl(KernelArgs& args, bool has_dims) {
  DimsDtypeArgs a;
  TRI_TRY(read_dims_dtype_args(args, has_dims, kRealHBBoolTypes, nullptr, &a));
  reduce_sum(a.plan, TensorView::of(*a.out), 1.0);
  return Error::Ok;
}

}  // namespace

Error sum_intlist_out(KernelContext&, KernelArgs& args) { return sum_impl(args, true); }
Error sum_out(KernelContext&, KernelArgs& args) { return sum_impl(args, false); }

}  // namespace kernels
}  // namespace tri
