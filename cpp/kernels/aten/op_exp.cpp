// aten::exp.out, aten::expm1.out (integer inputs compute in Float).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error exp_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return std::exp(x); }, SimdUnary::Exp);
}

Error expm1_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return std::expm1(x); });
}

}  // namespace kernels
}  // namespace tri
