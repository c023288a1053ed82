// aten::relu.out (any real dtype but Bool; NaN and -0.0 pass through, as in
// ATen's clamp_min; like ATen's composite out variant, the result converts
// into an out of any dtype) and aten::leaky_relu.out (floating only; out
// must have self's dtype).
#include <type_traits>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/fill.h"
#include "cpp/kernels/util/unary_op.h"

namespace tri {
namespace kernels {

Error relu_out(KernelContext&, KernelArgs& args) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 1, &self, &out));
  TRI_CHECK(self->scalar_type() != ScalarType::Bool, Error::InvalidType,
            "self: Boolean inputs not supported for relu");
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBTypes, "self"));
  TRI_TRY(check_dtype(out->scalar_type(), kRealHBBoolTypes, "out"));
  TRI_TRY(resize_out(*out, self->sizes()));
  if (simd_unary(SimdUnary::Relu, *self, *out)) return Error::Ok;
  return map_unary<kComputeAll>(self->scalar_type(), *self, *out,
                                [](auto x) { return x < decltype(x)(0) ? decltype(x)(0) : x; });
}

Error leaky_relu_out(KernelContext&, KernelArgs& args) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 2, &self, &out));
  TRI_ASSIGN_OR_RETURN(const Scalar slope, args.scalar(1));
  TRI_TRY(check_unary_same(*self, *out, kFloatHBTypes, "leaky_relu"));
  TRI_TRY(check_scalar_fits(slope, self->scalar_type()));
  if (simd_unary(SimdUnary::LeakyRelu, *self, *out, scalar_to<float>(slope))) {
    return Error::Ok;
  }
  return map1<kComputeFloating>(self->scalar_type(), TensorView::of(*self), TensorView::of(*out),
                                [&](auto tag) {
                                  using C = typename decltype(tag)::type;
                                  const C s = scalar_to<C>(slope);
                                  return [s](C x) -> C { return x > C(0) ? x : x * s; };
                                });
}

}  // namespace kernels
}  // namespace tri
