// aten::hardswish.out: x * min(max(x + 3, 0), 6) / 6, and
// aten::hardsigmoid.out: min(max(x + 3, 0), 6) / 6 (floating only, NaN
// propagates; out must have self's dtype).
#include <algorithm>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {
namespace {

// std::max/min return their first argument when it is NaN.
template <typename C>
C relu6_of_x_plus_3(C x) {
  return std::min(std::max(x + C(3), C(0)), C(6));
}

}  // namespace

Error hardswish_out(KernelContext&, KernelArgs& args) {
  return unary_same_op<kComputeFloating>(
      args, kFloatHBTypes, "hardswish",
      [](auto x) { return x * relu6_of_x_plus_3(x) / decltype(x)(6); }, SimdUnary::Hardswish);
}

Error hardsigmoid_out(KernelContext&, KernelArgs& args) {
  return unary_same_op<kComputeFloating>(args, kFloatHBTypes, "hardsigmoid", [](auto x) {
    return relu6_of_x_plus_3(x) / decltype(x)(6);
  });
}

}  // namespace kernels
}  // namespace tri
