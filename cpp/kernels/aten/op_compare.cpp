// Comparisons, Tensor and Scalar overloads: aten::eq, ne, lt, le, gt, ge
// (.Scalar_out, .Tensor_out). Operands compare in their common dtype (in its
// compute type); out receives 0/1 in its own dtype (normally Bool).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };

// Four loops per compute type: x > y is y < x and x >= y is y <= x (NaN
// included), so gt and ge run lt and le with the operands swapped.
template <Cmp kCmp>
Error run(ScalarType common, const TensorView& x, const TensorView& y, const TensorView& out) {
  return map2<kComputeAll | kComputeInt32>(common, x, y, out, [](auto tag) {
    using C = typename decltype(tag)::type;
    return [](C a, C b) -> bool {
      switch (kCmp) {
        case Cmp::Eq: return a == b;
        case Cmp::Ne: return a != b;
        case Cmp::Lt: return a < b;
        default: return a <= b;
      }
    };
  });
}

Error compare_impl(KernelArgs& args, OperandKind other_kind, Cmp cmp) {
  BinarySpec spec;
  spec.other_kind = other_kind;
  spec.out_index = 2;
  spec.allowed = kRealHBBoolTypes;
  spec.out_is_bool = true;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  ComputeScalar other;
  const TensorView self_v = TensorView::of(*ops.self);
  const TensorView other_v = ops.other_view(ops.common, &other);
  const TensorView out_v = TensorView::of(*ops.out);
  switch (cmp) {
    case Cmp::Eq: return run<Cmp::Eq>(ops.common, self_v, other_v, out_v);
    case Cmp::Ne: return run<Cmp::Ne>(ops.common, self_v, other_v, out_v);
    case Cmp::Lt: return run<Cmp::Lt>(ops.common, self_v, other_v, out_v);
    case Cmp::Le: return run<Cmp::Le>(ops.common, self_v, other_v, out_v);
    case Cmp::Gt: return run<Cmp::Lt>(ops.common, other_v, self_v, out_v);
    case Cmp::Ge: return run<Cmp::Le>(ops.common, other_v, self_v, out_v);
  }
  return Error::Ok;
}

}  // namespace

Error eq_scalar_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Scalar, Cmp::Eq); }
Error eq_tensor_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Tensor, Cmp::Eq); }
Error ne_scalar_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Scalar, Cmp::Ne); }
Error ne_tensor_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Tensor, Cmp::Ne); }
Error lt_scalar_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Scalar, Cmp::Lt); }
Error lt_tensor_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Tensor, Cmp::Lt); }
Error le_scalar_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Scalar, Cmp::Le); }
Error le_tensor_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Tensor, Cmp::Le); }
Error gt_scalar_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Scalar, Cmp::Gt); }
Error gt_tensor_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Tensor, Cmp::Gt); }
Error ge_scalar_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Scalar, Cmp::Ge); }
Error ge_tensor_out(KernelContext&, KernelArgs& a) { return compare_impl(a, OperandKind::Tensor, Cmp::Ge); }

}  // namespace kernels
}  // namespace tri
