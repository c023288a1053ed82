// aten::bitwise_left_shift / bitwise_right_shift (.Tensor_out,
// .Tensor_Scalar_out), as ATen's lshift/rshift kernels: integers shift in
// their own width, and a shift that is negative or at least that width gives
// 0 (left) or the sign fill (right). Integral dtypes only, as in ATen.

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

template <bool kLeft>
Error shift_impl(KernelArgs& args, OperandKind other_kind) {
  BinarySpec spec;
  spec.other_kind = other_kind;
  spec.allowed = kIntTypes;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  ComputeScalar other;
  const TensorView self_v = TensorView::of(*ops.self);
  const TensorView other_v = ops.other_view(ops.common, &other);
  const TensorView out_v = TensorView::of(*ops.out);
  const int64_t bits = static_cast<int64_t>(element_size(ops.common)) * 8;
  const bool is_unsigned = ops.common == ScalarType::Byte;
  return map2<kComputeInt>(ops.common, self_v, other_v, out_v, [=](auto tag) {
    using C = typename decltype(tag)::type;
    return [=](C a, C b) -> C {
      // b holds the common dtype's value sign-extended (zero-extended for
      // Byte); ATen reads the shift as the signed type of that width.
      int64_t s = static_cast<int64_t>(b);
      if (is_unsigned && s > 127) s -= 256;
      if (kLeft) {
        if (s < 0 || s >= bits) return C(0);
        return static_cast<C>(static_cast<uint64_t>(a) << s);
      }
      if (s < 0 || s >= bits - 1) s = bits - 1;
      return static_cast<C>(static_cast<int64_t>(a) >> s);
    };
  });
}

}  // namespace

Error bitwise_left_shift_tensor_out(KernelContext&, KernelArgs& a) {
  return shift_impl<true>(a, OperandKind::Tensor);
}
Error bitwise_left_shift_tensor_scalar_out(KernelContext&, KernelArgs& a) {
  return shift_impl<true>(a, OperandKind::Scalar);
}
Error bitwise_right_shift_tensor_out(KernelContext&, KernelArgs& a) {
  return shift_impl<false>(a, OperandKind::Tensor);
}
Error bitwise_right_shift_tensor_scalar_out(KernelContext&, KernelArgs& a) {
  return shift_impl<false>(a, OperandKind::Scalar);
}

}  // namespace kernels
}  // namespace tri
