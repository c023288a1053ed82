// aten::clamp.out (Scalar bounds), aten::clamp.Tensor_out (tensor bounds,
// broadcast). min is applied before max, so min > max gives max; NaN inputs
// and NaN bounds give NaN. Out must have the common dtype (ATen does not
// cast clamp's result).
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/broadcast.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/type_promotion.h"
#include "cpp/kernels/util/unary_clamp.h"
#include "cpp/kernels/util/unary_simd.h"

namespace tri {
namespace kernels {
namespace {

Error check_types(ScalarType common, const Tensor& out) {
  TRI_TRY(check_dtype(common, kRealHBTypes, "clamp's common dtype"));
  return check_same_dtype(out, common, "out");
}

}  // namespace

Error clamp_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Optional<Scalar> lo, args.optional_scalar(1));
  TRI_ASSIGN_OR_RETURN(const Optional<Scalar> hi, args.optional_scalar(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_CHECK(lo.has_value || hi.has_value, Error::InvalidArgument,
            "at least one of 'min' or 'max' must not be None");
  ResultType rt;
  rt.add(*self);
  if (lo.has_value) rt.add(lo.value);
  if (hi.has_value) rt.add(hi.value);
  ScalarType common;
  TRI_TRY(rt.get(&common));
  TRI_TRY(check_types(common, *out));
  TRI_TRY(resize_out(*out, self->sizes()));
  if (common == ScalarType::Float) {
    const float inf = __builtin_inff();
    if (simd_unary(SimdUnary::Clamp, *self, *out, lo.has_value ? scalar_to<float>(lo.value) : -inf,
                   hi.has_value ? scalar_to<float>(hi.value) : inf)) {
      return Error::Ok;
    }
  }
  return map1<kComputeAll>(common, TensorView::of(*self), TensorView::of(*out), [&](auto tag) {
    using C = typename decltype(tag)::type;
    const C lo_c = lo.has_value ? scalar_as<C>(lo.value, common) : C(0);
    const C hi_c = hi.has_value ? scalar_as<C>(hi.value, common) : C(0);
    const bool has_lo = lo.has_value;
    const bool has_hi = hi.has_value;
    return [=](C x) -> C { return clamp_value(x, has_lo, lo_c, has_hi, hi_c); };
  });
}

Error clamp_tensor_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* lo, args.optional_tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* hi, args.optional_tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_CHECK(lo != nullptr || hi != nullptr, Error::InvalidArgument,
            "at least one of 'min' or 'max' must not be None");
  ResultType rt;
  rt.add(*self);
  if (lo) rt.add(*lo);
  if (hi) rt.add(*hi);
  ScalarType common;
  TRI_TRY(rt.get(&common));
  TRI_TRY(check_types(common, *out));
  const Tensor* all[] = {self, lo, hi};
  SizesType shape[kTensorDimLimit];
  int32_t dim = 0;
  TRI_TRY(broadcast_all(all, 3, shape, &dim));
  TRI_TRY(resize_out(*out, Span<const SizesType>(shape, dim)));
  // An absent bound is a rank-0 placeholder the op ignores.
  const int64_t zero = 0;
  const TensorView absent = TensorView::scalar(&zero, ScalarType::Long);
  const TensorView lo_v = lo ? TensorView::of(*lo) : absent;
  const TensorView hi_v = hi ? TensorView::of(*hi) : absent;
  const bool has_lo = lo != nullptr;
  const bool has_hi = hi != nullptr;
  return map3<kComputeAll>(common, TensorView::of(*self), lo_v, hi_v, TensorView::of(*out),
                           [=](auto tag) {
                             using C = typename decltype(tag)::type;
                             return [=](C x, C l, C h) -> C {
                               return clamp_value(x, has_lo, l, has_hi, h);
                             };
                           });
}

}  // namespace kernels
}  // namespace tri
