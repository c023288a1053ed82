// aten::remainder.Tensor_out, remainder.Scalar_out, remainder.Scalar_Tensor_out:
// Python's modulo (the result has the sign of other). Integer divisors may
// not be 0.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/floor_div.h"

namespace tri {
namespace kernels {
namespace {

Error remainder_impl(KernelArgs& args, OperandKind self_kind, OperandKind other_kind) {
  BinarySpec spec;
  spec.self_kind = self_kind;
  spec.other_kind = other_kind;
  spec.allowed = kRealHBTypes;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  ComputeScalar self;
  ComputeScalar other;
  const TensorView self_v = ops.self_view(ops.common, &self);
  const TensorView other_v = ops.other_view(ops.common, &other);
  TRI_TRY(check_int_divisor(other_v, ops.common, *ops.out));
  return map2<kComputeAll>(ops.common, self_v, other_v, TensorView::of(*ops.out), [](auto tag) {
    using C = typename decltype(tag)::type;
    return [](C x, C y) -> C { return python_mod(x, y); };
  });
}

}  // namespace

Error remainder_tensor_out(KernelContext&, KernelArgs& args) {
  return remainder_impl(args, OperandKind::Tensor, OperandKind::Tensor);
}
Error remainder_scalar_out(KernelContext&, KernelArgs& args) {
  return remainder_impl(args, OperandKind::Tensor, OperandKind::Scalar);
}
Error remainder_scalar_tensor_out(KernelContext&, KernelArgs& args) {
  return remainder_impl(args, OperandKind::Scalar, OperandKind::Tensor);
}

}  // namespace kernels
}  // namespace tri
