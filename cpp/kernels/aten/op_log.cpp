// aten::{log,log2,log10,log1p}.out (integer inputs compute in Float;
// log(0) = -inf, log of a negative number = NaN).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error log_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return std::log(x); });
}

Error log2_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return std::log2(x); });
}

Error log10_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return std::log10(x); });
}

Error log1p_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return std::log1p(x); });
}

}  // namespace kernels
}  // namespace tri
