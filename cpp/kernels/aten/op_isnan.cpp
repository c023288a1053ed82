// aten::isnan.out, aten::isinf.out: a bool per element (false for integer
// and bool tensors), into an out of any dtype.
#include <cmath>
#include <type_traits>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error isnan_out(KernelContext&, KernelArgs& args) {
  return unary_predicate(args, [](auto x) {
    if constexpr (std::is_integral<decltype(x)>::value) {
      return false;
    } else {
      return std::isnan(x);
    }
  });
}

Error isinf_out(KernelContext&, KernelArgs& args) {
  return unary_predicate(args, [](auto x) {
    if constexpr (std::is_integral<decltype(x)>::value) {
      return false;
    } else {
      return std::isinf(x);
    }
  });
}

}  // namespace kernels
}  // namespace tri
