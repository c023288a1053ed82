// aten::mul.out, aten::mul.Scalar_out: out = self * other (bool: logical and).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/binary_simd.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

Error mul_impl(KernelArgs& args, OperandKind other_kind) {
  BinarySpec spec;
  spec.other_kind = other_kind;
  spec.out_index = 2;
  spec.allowed = kRealHBBoolTypes;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  ComputeScalar other;
  const TensorView other_v = ops.other_view(ops.common, &other);
  return map2_simd<kComputeAll | kComputeInt32>(
      SimdBinary{SimdBinOp::Mul, 1.0f}, ops.common, TensorView::of(*ops.self), other_v,
      TensorView::of(*ops.out), [](auto tag) {
        using C = typename decltype(tag)::type;
        return [](C x, C y) -> C { return arith_mul(x, y); };
      });
}

}  // namespace

Error mul_out(KernelContext&, KernelArgs& args) { return mul_impl(args, OperandKind::Tensor); }

Error mul_scalar_out(KernelContext&, KernelArgs& args) {
  return mul_impl(args, OperandKind::Scalar);
}

}  // namespace kernels
}  // namespace tri
