// aten::neg.out: out = -self (integers wrap; Bool is rejected as in ATen).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error neg_out(KernelContext&, KernelArgs& args) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(prepare_unary(args, 1, &self, &out));
  TRI_CHECK(self->scalar_type() != ScalarType::Bool, Error::InvalidType,
            "negation on a bool tensor is not supported; use logical_not() to "
            "invert a mask");
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBTypes, "self"));
  TRI_TRY(check_dtype(out->scalar_type(), kRealHBTypes, "out"));
  TRI_TRY(check_can_cast(self->scalar_type(), out->scalar_type()));
  return map1<kComputeAll>(self->scalar_type(), TensorView::of(*self), TensorView::of(*out),
                          [](auto tag) {
                            using C = typename decltype(tag)::type;
                            return [](C x) -> C { return arith_neg(x); };
                          });
}

}  // namespace kernels
}  // namespace tri
