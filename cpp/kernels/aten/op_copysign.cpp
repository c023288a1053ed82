// aten::copysign.out, copysign.Scalar_out: |self| with the sign of other
// (including -0.0 and the sign bit of NaN). A float op: integer and Bool
// operands compute in Float.
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

Error copysign_impl(KernelArgs& args, OperandKind other_kind) {
  BinarySpec spec;
  spec.other_kind = other_kind;
  spec.allowed = kFloatHBTypes;
  spec.int_to_float = true;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  ComputeScalar other;
  return map2<kComputeFloating>(ops.common, TensorView::of(*ops.self),
                                ops.other_view(ops.common, &other), TensorView::of(*ops.out),
                                [](auto tag) {
                                  using C = typename decltype(tag)::type;
                                  return [](C x, C y) -> C { return std::copysign(x, y); };
                                });
}

}  // namespace

Error copysign_out(KernelContext&, KernelArgs& args) {
  return copysign_impl(args, OperandKind::Tensor);
}
Error copysign_scalar_out(KernelContext&, KernelArgs& args) {
  return copysign_impl(args, OperandKind::Scalar);
}

}  // namespace kernels
}  // namespace tri
