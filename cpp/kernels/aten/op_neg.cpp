// aten::neg.out: out = -self (integers wrap; Bool is rejected as in ATen;
// out must have self's dtype).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error neg_out(KernelContext&, KernelArgs& args) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 1, &self, &out));
  TRI_CHECK(self->scalar_type() != ScalarType::Bool, Error::InvalidType,
            "negation on a bool tensor is not supported; use logical_not() to "
            "invert a mask");
  TRI_TRY(check_unary_same(*self, *out, kRealHBTypes, "neg"));
  if (simd_unary(SimdUnary::Neg, *self, *out)) return Error::Ok;
  return map_unary<kComputeAll>(self->scalar_type(), *self, *out,
                                [](auto x) { return arith_neg(x); });
}

}  // namespace kernels
}  // namespace tri
