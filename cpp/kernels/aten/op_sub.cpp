// aten::sub.out, aten::sub.Scalar_out: out = self - alpha * other;
// aten::rsub.Tensor_out, aten::rsub.Scalar_out: out = other - alpha * self.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/binary_simd.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

Error sub_impl(KernelArgs& args, OperandKind other_kind, bool reverse) {
  BinarySpec spec;
  spec.other_kind = other_kind;
  spec.out_index = 3;
  spec.allowed = kRealHBBoolTypes;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  const bool self_bool = ops.self->scalar_type() == ScalarType::Bool;
  const bool other_bool =
      ops.other ? ops.other->scalar_type() == ScalarType::Bool : ops.other_scalar.is_bool();
  TRI_CHECK(!(self_bool && other_bool), Error::InvalidType,
            "subtraction with two bool operands is not supported; use "
            "logical_xor() instead");
  TRI_CHECK(!self_bool && !other_bool, Error::InvalidType,
            "subtraction with a bool tensor is not supported; use logical_not() "
            "to invert a mask");
  TRI_ASSIGN_OR_RETURN(const Scalar alpha, args.scalar(2));
  TRI_TRY(check_alpha(alpha, ops.common));
  ComputeScalar other;
  const TensorView self_v = TensorView::of(*ops.self);
  const TensorView other_v = ops.other_view(ops.common, &other);
  const TensorView out_v = TensorView::of(*ops.out);
  // rsub is sub with the operands swapped.
  const TensorView& x = reverse ? other_v : self_v;
  const TensorView& y = reverse ? self_v : other_v;
  const SimdBinary simd{SimdBinOp::Sub, scalar_as<float>(alpha, ops.common)};
  return map2_simd<kComputeAll | kComputeInt32>(simd, ops.common, x, y, out_v, [&](auto tag) {
    using C = typename decltype(tag)::type;
    const C a = scalar_as<C>(alpha, ops.common);
    return [a](C v, C w) -> C { return arith_sub(v, arith_mul(a, w)); };
  });
}

}  // namespace

Error sub_out(KernelContext&, KernelArgs& args) {
  return sub_impl(args, OperandKind::Tensor, false);
}
Error sub_scalar_out(KernelContext&, KernelArgs& args) {
  return sub_impl(args, OperandKind::Scalar, false);
}
Error rsub_tensor_out(KernelContext&, KernelArgs& args) {
  return sub_impl(args, OperandKind::Tensor, true);
}
Error rsub_scalar_out(KernelContext&, KernelArgs& args) {
  return sub_impl(args, OperandKind::Scalar, true);
}

}  // namespace kernels
}  // namespace tri
