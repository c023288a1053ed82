// aten::hardtanh.out(self, min_val, max_val): clamp into [min_val, max_val]
// in self's dtype (the bounds convert to it, checked for overflow); NaN
// inputs and NaN bounds give NaN, min_val > max_val gives max_val, as in
// ATen. Out must have self's dtype.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/unary_clamp.h"
#include "cpp/kernels/util/fill.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error hardtanh_out(KernelContext&, KernelArgs& args) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 3, &self, &out));
  TRI_ASSIGN_OR_RETURN(const Scalar lo, args.scalar(1));
  TRI_ASSIGN_OR_RETURN(const Scalar hi, args.scalar(2));
  const ScalarType t = self->scalar_type();
  TRI_CHECK(t != ScalarType::Byte || (lo.as_double() >= 0 && hi.as_double() >= 0),
            Error::InvalidArgument,
            "min_val, max_val: cannot do hardtanh on an unsigned type with negative limits");
  TRI_TRY(check_unary_same(*self, *out, kRealHBTypes, "hardtanh"));
  TRI_TRY(check_scalar_fits(lo, t));
  TRI_TRY(check_scalar_fits(hi, t));
  if (simd_unary(SimdUnary::Clamp, *self, *out, scalar_to<float>(lo),
                 scalar_to<float>(hi))) {
    return Error::Ok;
  }
  return map1<kComputeAll>(t, TensorView::of(*self), TensorView::of(*out), [&](auto tag) {
    using C = typename decltype(tag)::type;
    const C lo_c = scalar_as<C>(lo, t);
    const C hi_c = scalar_as<C>(hi, t);
    return [=](C x) -> C { return clamp_value(x, true, lo_c, true, hi_c); };
  });
}

}  // namespace kernels
}  // namespace tri
