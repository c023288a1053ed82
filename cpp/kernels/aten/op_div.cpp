// aten::div.out, div.Scalar_out (true division: integer inputs compute in
// Float), div.out_mode, div.Scalar_mode_out (rounding_mode None, "trunc" or
// "floor"; integer inputs stay integers and may not divide by zero).
#include <cmath>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/binary_simd.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/floor_div.h"
#include "cpp/kernels/util/type_promotion.h"

namespace tri {
namespace kernels {
namespace {

enum class Rounding { None, Trunc, Floor };

Error read_rounding(KernelArgs& args, size_t i, Rounding* mode) {
  *mode = Rounding::None;
  TRI_ASSIGN_OR_RETURN(EValue* const value, args.slot(i));
  if (value->is_none()) {
    return Error::Ok;
  }
  TRI_ASSIGN_OR_RETURN(const Span<const char> s, args.string(i));
  if (s.size() == 5 && std::memcmp(s.data(), "trunc", 5) == 0) {
    *mode = Rounding::Trunc;
  } else if (s.size() == 5 && std::memcmp(s.data(), "floor", 5) == 0) {
    *mode = Rounding::Floor;
  } else {
    return fail(Error::InvalidArgument,
                "rounding_mode must be None, 'trunc' or 'floor', got '%.*s'",
                static_cast<int>(s.size()), s.data());
  }
  return Error::Ok;
}

Error div_impl(KernelArgs& args, OperandKind other_kind, bool has_mode) {
  BinarySpec spec;
  spec.other_kind = other_kind;
  spec.out_index = has_mode ? 3 : 2;
  spec.allowed = kRealHBBoolTypes;
  BinaryOperands ops;
  Rounding mode = Rounding::None;
  if (has_mode) {
    TRI_TRY(read_rounding(args, 2, &mode));
  }
  if (mode == Rounding::None) {
    // True division promotes integer inputs to the default float dtype.
    TRI_TRY(prepare_binary(args, spec, &ops));
    const ScalarType compute = is_floating_type(ops.common) ? ops.common : ScalarType::Float;
    TRI_TRY(check_can_cast(compute, ops.out->scalar_type()));
    ComputeScalar other;
    return map2_simd<kComputeFloating>(SimdBinary{SimdBinOp::Div, 1.0f}, compute,
                                       TensorView::of(*ops.self), ops.other_view(compute, &other),
                                       TensorView::of(*ops.out), [](auto tag) {
                                         using C = typename decltype(tag)::type;
                                         return [](C x, C y) -> C { return x / y; };
                                       });
  }
  spec.allowed = kRealHBTypes;
  TRI_TRY(prepare_binary(args, spec, &ops));
  ComputeScalar other;
  const TensorView self_v = TensorView::of(*ops.self);
  const TensorView other_v = ops.other_view(ops.common, &other);
  const TensorView out_v = TensorView::of(*ops.out);
  TRI_TRY(check_int_divisor(other_v, ops.common, *ops.out));
  if (mode == Rounding::Trunc) {
    return map2<kComputeAll>(ops.common, self_v, other_v, out_v, [](auto tag) {
      using C = typename decltype(tag)::type;
      return [](C x, C y) -> C { return trunc_div(x, y); };
    });
  }
  return map2<kComputeAll>(ops.common, self_v, other_v, out_v, [](auto tag) {
    using C = typename decltype(tag)::type;
    return [](C x, C y) -> C { return floor_div(x, y); };
  });
}

}  // namespace

Error div_out(KernelContext&, KernelArgs& args) {
  return div_impl(args, OperandKind::Tensor, false);
}
Error div_scalar_out(KernelContext&, KernelArgs& args) {
  return div_impl(args, OperandKind::Scalar, false);
}
Error div_out_mode(KernelContext&, KernelArgs& args) {
  return div_impl(args, OperandKind::Tensor, true);
}
Error div_scalar_mode_out(KernelContext&, KernelArgs& args) {
  return div_impl(args, OperandKind::Scalar, true);
}

}  // namespace kernels
}  // namespace tri
