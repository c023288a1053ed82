// aten::where.self_out: out = condition ? self : other, all three broadcast;
// self and other promote to their common dtype.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/broadcast.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/type_promotion.h"

namespace tri {
namespace kernels {

Error where_self_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* cond, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* other, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_CHECK(cond->scalar_type() == ScalarType::Bool, Error::InvalidType,
            "condition: expected a Bool tensor, got %s",
            scalar_type_name(cond->scalar_type()));
  ScalarType common;
  TRI_TRY(ResultType().add(*self).add(*other).get(&common));
  TRI_TRY(check_dtype(common, kRealHBBoolTypes, "self/other common dtype"));
  TRI_TRY(check_dtype(out->scalar_type(), kRealHBBoolTypes, "out"));
  TRI_TRY(check_can_cast(common, out->scalar_type()));
  const Tensor* all[] = {cond, self, other};
  SizesType shape[kTensorDimLimit];
  int32_t dim = 0;
  TRI_TRY(broadcast_all(all, 3, shape, &dim));
  TRI_TRY(resize_out(*out, Span<const SizesType>(shape, dim)));
  // The condition is loaded as 0/1 in the compute type like the values.
  return map3<kComputeAll>(common, TensorView::of(*cond), TensorView::of(*self),
                           TensorView::of(*other), TensorView::of(*out), [](auto tag) {
                             using C = typename decltype(tag)::type;
                             return [](C c, C x, C y) -> C { return c != C(0) ? x : y; };
                           });
}

}  // namespace kernels
}  // namespace tri
