// aten::add.out, aten::add.Scalar_out: out = self + alpha * other.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/binary_simd.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

Error add_impl(KernelArgs& args, OperandKind other_kind) {
  BinarySpec spec;
  spec.other_kind = other_kind;
  spec.out_index = 3;
  spec.allowed = kRealHBBoolTypes;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  TRI_ASSIGN_OR_RETURN(const Scalar alpha, args.scalar(2));
  TRI_TRY(check_alpha(alpha, ops.common));
  ComputeScalar other;
  const TensorView self_v = TensorView::of(*ops.self);
  const TensorView other_v = ops.other_view(ops.common, &other);
  const TensorView out_v = TensorView::of(*ops.out);
  const SimdBinary simd{SimdBinOp::Add, scalar_as<float>(alpha, ops.common)};
  return map2_simd<kComputeAll | kComputeInt32>(
      simd, ops.common, self_v, other_v, out_v, [&](auto tag) {
        using C = typename decltype(tag)::type;
        const C a = scalar_as<C>(alpha, ops.common);
        return [a](C x, C y) -> C { return arith_add(x, arith_mul(a, y)); };
      });
}

}  // namespace

Error add_out(KernelContext&, KernelArgs& args) { return add_impl(args, OperandKind::Tensor); }

Error add_scalar_out(KernelContext&, KernelArgs& args) {
  return add_impl(args, OperandKind::Scalar);
}

}  // namespace kernels
}  // namespace tri
