// aten::silu.out: x * sigmoid(x) (floating only; out must have self's dtype).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error silu_out(KernelContext&, KernelArgs& args) {
  return unary_same_op<kComputeFloating>(
      args, kFloatHBTypes, "silu",
      [](auto x) {
        using C = decltype(x);
        return x / (C(1) + std::exp(-x));
      },
      SimdUnary::Silu);
}

}  // namespace kernels
}  // namespace tri
