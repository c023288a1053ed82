// aten::erf.out (integer inputs compute in Float).
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error erf_out(KernelContext&, KernelArgs& args) {
  return unary_float_op(args, [](auto x) { return std::erf(x); });
}

}  // namespace kernels
}  // namespace tri
