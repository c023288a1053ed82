// aten::sigmoid.out: 1 / (1 + exp(-x)) (integer inputs compute in Float).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error sigmoid_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(
      args,
      [](auto x) {
        using C = decltype(x);
        return C(1) / (C(1) + std::exp(-x));
      },
      SimdUnary::Sigmoid);
}

}  // namespace kernels
}  // namespace tri
