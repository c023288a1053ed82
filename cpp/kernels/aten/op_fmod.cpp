// aten::fmod.Tensor_out, fmod.Scalar_out: C's fmod, the remainder of
// truncating division (sign of self). Integer divisors may not be 0.
#include <cmath>
#include <type_traits>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

template <typename C>
C fmod_value(C a, C b) {
  if constexpr (std::is_integral<C>::value) {
    // b == -1 would trap for INT64_MIN; the remainder is 0 anyway.
    return b == C(-1) ? C(0) : static_cast<C>(a % b);
  } else {
    return std::fmod(a, b);
  }
}

Error fmod_impl(KernelArgs& args, OperandKind other_kind) {
  BinarySpec spec;
  spec.other_kind = other_kind;
  spec.allowed = kRealHBTypes;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  ComputeScalar other;
  const TensorView other_v = ops.other_view(ops.common, &other);
  TRI_TRY(check_int_divisor(other_v, ops.common, *ops.out));
  return map2<kComputeAll>(ops.common, TensorView::of(*ops.self), other_v, TensorView::of(*ops.out),
                           [](auto tag) {
                             using C = typename decltype(tag)::type;
                             return [](C x, C y) -> C { return fmod_value(x, y); };
                           });
}

}  // namespace

Error fmod_tensor_out(KernelContext&, KernelArgs& args) {
  return fmod_impl(args, OperandKind::Tensor);
}
Error fmod_scalar_out(KernelContext&, KernelArgs& args) {
  return fmod_impl(args, OperandKind::Scalar);
}

}  // namespace kernels
}  // namespace tri
