// The common shape of unary elementwise kernels: [self, out, out].
#pragma once

#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/type_promotion.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

// Reads self (argument 0) and out (argument `out_index`), checks out's dtype
// can hold `compute` and resizes out to self's shape.
Error prepare_unary(KernelArgs& args, size_t out_index, Tensor** self, Tensor** out);

// Unary ops of the "float" kind (exp, tanh, sigmoid, ...): integer and bool
// inputs compute in Float; Half/BFloat16 compute in float32.
template <typename Fn>
Error unary_float_op(KernelArgs& args, const Fn& fn) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(prepare_unary(args, 1, &self, &out));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_dtype(out->scalar_type(), kFloatHBTypes, "out"));
  const ScalarType compute =
      is_floating_type(self->scalar_type()) ? self->scalar_type() : ScalarType::Float;
  TRI_TRY(check_can_cast(compute, out->scalar_type()));
  return map1<kComputeFloating>(compute, TensorView::of(*self), TensorView::of(*out),
                               [&fn](auto tag) {
                                 using C = typename decltype(tag)::type;
                                 return [&fn](C x) -> C { return fn(x); };
                               });
}

}  // namespace tri
