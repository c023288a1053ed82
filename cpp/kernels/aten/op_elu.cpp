// aten::elu.out(self, alpha, scale, input_scale): x > 0 ? scale x :
// alpha scale (exp(input_scale x) - 1). Floating only; out must have self's
// dtype.
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error elu_out(KernelContext&, KernelArgs& args) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 4, &self, &out));
  TRI_ASSIGN_OR_RETURN(const Scalar alpha, args.scalar(1));
  TRI_ASSIGN_OR_RETURN(const Scalar scale, args.scalar(2));
  TRI_ASSIGN_OR_RETURN(const Scalar input_scale, args.scalar(3));
  TRI_TRY(check_unary_same(*self, *out, kFloatHBTypes, "elu"));
  return map1<kComputeFloating>(self->scalar_type(), TensorView::of(*self), TensorView::of(*out),
                                [&](auto tag) {
                                  using C = typename decltype(tag)::type;
                                  const C pos = scalar_to<C>(scale);
                                  const C neg = scalar_to<C>(alpha) * pos;
                                  const C in = scalar_to<C>(input_scale);
                                  return [=](C x) -> C {
                                    return x <= C(0) ? std::expm1(x * in) * neg : x * pos;
                                  };
                                });
}

}  // namespace kernels
}  // namespace tri
