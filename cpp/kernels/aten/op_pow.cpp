// aten::pow.Tensor_Tensor_out, pow.Tensor_Scalar_out, pow.Scalar_out.
// Integer powers are exact (repeated squaring, wrapping); an integer base with
// a negative Scalar exponent is an error, as in ATen.
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/binary_op.h"
#include "cpp/kernels/util/elementwise.h"

namespace tri {
namespace kernels {
namespace {

template <typename T>
T int_pow(T base, T exp) {
  if (exp < 0) {  // only reachable for tensor exponents
    if (base == 1) return T(1);
    if (base == -1) return (exp % 2) ? T(-1) : T(1);
    return T(0);
  }
  T result = 1;
  while (exp) {
    if (exp & 1) result = arith_mul(result, base);
    exp = static_cast<T>(exp >> 1);
    base = arith_mul(base, base);
  }
  return result;
}

template <typename C>
C pow_value(C x, C y) {
  if constexpr (std::is_integral<C>::value) {
    return int_pow(x, y);
  } else {
    return std::pow(x, y);
  }
}

Error pow_impl(KernelArgs& args, OperandKind self_kind, OperandKind other_kind) {
  BinarySpec spec;
  spec.self_kind = self_kind;
  spec.other_kind = other_kind;
  spec.out_index = 2;
  spec.allowed = kRealHBTypes;
  BinaryOperands ops;
  TRI_TRY(prepare_binary(args, spec, &ops));
  if (other_kind == OperandKind::Scalar) {
    TRI_CHECK(!is_integral_type(ops.common, true) || !ops.other_scalar.is_integral() ||
                  ops.other_scalar.as_int() >= 0,
              Error::InvalidArgument, "integers to negative integer powers are not allowed");
  }
  ComputeScalar self_value;
  ComputeScalar other_value;
  const TensorView self_v = ops.self_view(ops.common, &self_value);
  const TensorView other_v = ops.other_view(ops.common, &other_value);
  const TensorView out_v = TensorView::of(*ops.out);
  if (ops.other == nullptr && compute_kind(ops.common) != ComputeKind::Int) {
    // The exponents models use most, computed exactly as ATen's fast paths.
    const double e = other_value.as_double();
    if (e == 2.0) {
      return map1<kComputeFloating>(ops.common, self_v, out_v, [](auto tag) {
        using C = typename decltype(tag)::type;
        return [](C x) -> C { return x * x; };
      });
    }
    if (e == 0.5) {
      return map1<kComputeFloating>(ops.common, self_v, out_v, [](auto tag) {
        using C = typename decltype(tag)::type;
        return [](C x) -> C { return std::sqrt(x); };
      });
    }
  }
  return map2<kComputeAll>(ops.common, self_v, other_v, out_v, [](auto tag) {
    using C = typename decltype(tag)::type;
    return [](C x, C y) -> C { return pow_value(x, y); };
  });
}

}  // namespace

Error pow_tensor_tensor_out(KernelContext&, KernelArgs& args) {
  return pow_impl(args, OperandKind::Tensor, OperandKind::Tensor);
}
Error pow_tensor_scalar_out(KernelContext&, KernelArgs& args) {
  return pow_impl(args, OperandKind::Tensor, OperandKind::Scalar);
}
Error pow_scalar_out(KernelContext&, KernelArgs& args) {
  return pow_impl(args, OperandKind::Scalar, OperandKind::Tensor);
}

}  // namespace kernels
}  // namespace tri
