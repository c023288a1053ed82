// aten::sqrt.out, aten::rsqrt.out, aten::reciprocal.out (integer inputs
// compute in Float; 1/0 = inf).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error sqrt_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return std::sqrt(x); }, SimdUnary::Sqrt);
}

Error rsqrt_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return decltype(x)(1) / std::sqrt(x); });
}

Error reciprocal_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return decltype(x)(1) / x; });
}

}  // namespace kernels
}  // namespace tri
