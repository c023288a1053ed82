// aten::bitwise_and/or/xor (.Tensor_out, .Scalar_out): integral and Bool
// operands only. Operands are values of the common dtype held in int64 (sign-
// or zero-extended), and and/or/xor of such values stay values of it, so no
// wrapping is needed beyond the driver's.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

enum class Bitwise { And, Or, Xor };

template <Bitwise kOp>
Error run(ScalarType common, const TensorView& x, const TensorView& y, const TensorView& out) {
  return map2<kComputeInt | kComputeInt32>(common, x, y, out, [](auto tag) {
    using C = typename decltype(tag)::type;
    return [](C a, C b) -> C {
      switch (kOp) {
        case Bitwise::And:
          return static_cast<C>(a & b);
        case Bitwise::Or:
          return static_cast<C>(a | b);
        default:
          return static_cast<C>(a ^ b);
      }
    };
  });
}

Error bitwise_impl(KernelArgs& args, OperandKind other_kind, Bitwise op) {
  BinarySpec spec;
  spec.other_kind = other_kind;
  spec.allowed = kIntTypes | dtype_bit(ScalarType::Bool);
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  ComputeScalar other;
  const TensorView self_v = TensorView::of(*ops.self);
  const TensorView other_v = ops.other_view(ops.common, &other);
  const TensorView out_v = TensorView::of(*ops.out);
  switch (op) {
    case Bitwise::And:
      return run<Bitwise::And>(ops.common, self_v, other_v, out_v);
    case Bitwise::Or:
      return run<Bitwise::Or>(ops.common, self_v, other_v, out_v);
    default:
      return run<Bitwise::Xor>(ops.common, self_v, other_v, out_v);
  }
}

}  // namespace

Error bitwise_and_tensor_out(KernelContext&, KernelArgs& a) {
  return bitwise_impl(a, OperandKind::Tensor, Bitwise::And);
}
Error bitwise_and_scalar_out(KernelContext&, KernelArgs& a) {
  return bitwise_impl(a, OperandKind::Scalar, Bitwise::And);
}
Error bitwise_or_tensor_out(KernelContext&, KernelArgs& a) {
  return bitwise_impl(a, OperandKind::Tensor, Bitwise::Or);
}
Error bitwise_or_scalar_out(KernelContext&, KernelArgs& a) {
  return bitwise_impl(a, OperandKind::Scalar, Bitwise::Or);
}
Error bitwise_xor_tensor_out(KernelContext&, KernelArgs& a) {
  return bitwise_impl(a, OperandKind::Tensor, Bitwise::Xor);
}
Error bitwise_xor_scalar_out(KernelContext&, KernelArgs& a) {
  return bitwise_impl(a, OperandKind::Scalar, Bitwise::Xor);
}

}  // namespace kernels
}  // namespace tri
