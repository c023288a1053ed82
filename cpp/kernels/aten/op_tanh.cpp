// aten::tanh.out (integer inputs compute in Float).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error tanh_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return std::tanh(x); }, SimdUnary::Tanh);
}

}  // namespace kernels
}  // namespace tri
