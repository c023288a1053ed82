// aten::abs.out (integers wrap: abs(INT_MIN) = INT_MIN, as in ATen) and
// aten::sign.out (-1, 0 or 1; NaN gives 0; Bool is kept). Both keep self's
// dtype, and out must have it.
#include <cmath>
#include <type_traits>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error abs_out(KernelContext&, KernelArgs& args) {
  return unary_same_op<kComputeAll>(
      args, kRealHBTypes, "abs",
      [](auto x) {
        using C = decltype(x);
        if constexpr (std::is_integral<C>::value) {
          return x < 0 ? arith_neg(x) : x;
        } else {
          return std::fabs(x);
        }
      },
      SimdUnary::Abs);
}

Error sign_out(KernelContext&, KernelArgs& args) {
  return unary_same_op<kComputeAll>(args, kRealHBBoolTypes, "sign", [](auto x) {
    using C = decltype(x);
    return static_cast<C>(static_cast<int>(C(0) < x) - static_cast<int>(x < C(0)));
  });
}

}  // namespace kernels
}  // namespace tri
