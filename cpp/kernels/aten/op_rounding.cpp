// aten::{floor,ceil,trunc,round}.out and aten::round.decimals_out. Integer
// tensors are returned unchanged (decimals needs a floating tensor, as in
// ATen); round is half-to-even (nearbyint). Out must have self's dtype.
#include <cmath>
#include <limits>
#include <type_traits>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {
namespace {

template <typename Fn>
Error rounding_op(KernelArgs& args, const char* name, const Fn& fn) {
  return unary_same_op<kComputeAll>(args, kRealHBTypes, name, [&fn](auto x) {
    if constexpr (std::is_integral<decltype(x)>::value) {
      return x;
    } else {
      return fn(x);
    }
  });
}

// 10^|decimals| in C: inf (or 0) once out of range, as ATen's float math
// gives (x * inf / inf = NaN for huge decimals, like ATen).
template <typename C>
C ten_pow(double e) {
  const double v = std::pow(10.0, e);
  return v > static_cast<double>(std::numeric_limits<C>::max())
             ? std::numeric_limits<C>::infinity()
             : static_cast<C>(v);
}

}  // namespace

Error floor_out(KernelContext&, KernelArgs& args) {
  return rounding_op(args, "floor", [](auto x) { return std::floor(x); });
}

Error ceil_out(KernelContext&, KernelArgs& args) {
  return rounding_op(args, "ceil", [](auto x) { return std::ceil(x); });
}

Error trunc_out(KernelContext&, KernelArgs& args) {
  return rounding_op(args, "trunc", [](auto x) { return std::trunc(x); });
}

Error round_out(KernelContext&, KernelArgs& args) {
  return rounding_op(args, "round", [](auto x) { return std::nearbyint(x); });
}

Error round_decimals_out(KernelContext&, KernelArgs& args) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 2, &self, &out));
  TRI_ASSIGN_OR_RETURN(const int64_t decimals, args.int_value(1));
  TRI_TRY(check_unary_same(*self, *out, kFloatHBTypes, "round"));
  const bool neg = decimals < 0;
  // As a double: negating INT64_MIN would overflow.
  const double e = neg ? -static_cast<double>(decimals) : static_cast<double>(decimals);
  return map1<kComputeFloating>(self->scalar_type(), TensorView::of(*self), TensorView::of(*out),
                                [&](auto tag) {
                                  using C = typename decltype(tag)::type;
                                  const C p = ten_pow<C>(e);
                                  return [p, neg](C x) -> C {
                                    return neg ? std::nearbyint(x / p) * p
                                               : std::nearbyint(x * p) / p;
                                  };
                                });
}

}  // namespace kernels
}  // namespace tri
