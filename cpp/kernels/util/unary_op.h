// The front half of unary elementwise kernels ([self, out, out] and the
// activations with extra arguments): read self and out, check dtypes with
// ATen's rule for the op's kind, resize out, then map the op (a generic
// lambda `[](auto x) { ... }` instantiated per compute type) or take the
// wasm SIMD row path first when the op has one (unary_simd.h).
//
// ATen's kinds, as its TensorIterator configs decide them:
//   float ops (sin, exp, sqrt, ...): integer/bool inputs compute in Float;
//     out may be any floating dtype the result casts to;
//   same-dtype ops (abs, floor, gelu, ...): compute in self's dtype, out must
//     have exactly that dtype;
//   predicates (isnan, logical_not): a bool per element, out any dtype.
#pragma once

#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/elementwise.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/type_promotion.h"
#include "cpp/kernels/util/unary_simd.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

// Reads self (argument 0) and out (argument `out_index`), checks out's dtype
// can hold `compute` and resizes out to self's shape.
Error prepare_unary(KernelArgs& args, size_t out_index, Tensor** self, Tensor** out);

// Reads self (argument 0) and out (argument `out_index`); no checks.
Error read_unary(KernelArgs& args, size_t out_index, Tensor** self, Tensor** out);

// self in `self_set`, out exactly self's dtype; resizes out.
Error check_unary_same(const Tensor& self, Tensor& out, uint32_t self_set, const char* op);

// The compute dtype of a float op (self's if floating, else Float), checked
// against out; resizes out.
Error check_unary_float(const Tensor& self, Tensor& out, ScalarType* compute);

// out[i] = fn(self[i]) in `compute`'s compute type (kKinds must cover it).
template <uint32_t kKinds, typename Fn>
Error map_unary(ScalarType compute, const Tensor& self, const Tensor& out, const Fn& fn) {
  return map1<kKinds>(compute, TensorView::of(self), TensorView::of(out), [&fn](auto tag) {
    using C = typename decltype(tag)::type;
    return [&fn](C x) -> C { return fn(x); };
  });
}

// A float op at self's floating dtype (Float for integer and bool inputs).
template <typename Fn>
Error unary_float_op(KernelArgs& args, const Fn& fn, SimdUnary simd = SimdUnary::None) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 1, &self, &out));
  ScalarType compute;
  TRI_TRY(check_unary_float(*self, *out, &compute));
  if (simd != SimdUnary::None && simd_unary(simd, *self, *out)) return Error::Ok;
  return map_unary<kComputeFloating>(compute, *self, *out, fn);
}

// A same-dtype op over `self_set` (kKinds: the compute kinds it may need).
template <uint32_t kKinds, typename Fn>
Error unary_same_op(KernelArgs& args, uint32_t self_set, const char* op, const Fn& fn,
                    SimdUnary simd = SimdUnary::None) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 1, &self, &out));
  TRI_TRY(check_unary_same(*self, *out, self_set, op));
  if (simd != SimdUnary::None && simd_unary(simd, *self, *out)) return Error::Ok;
  return map_unary<kKinds>(self->scalar_type(), *self, *out, fn);
}

// out[i] = pred(self[i]) (a bool, converted to out's dtype).
template <typename Pred>
Error unary_predicate(KernelArgs& args, const Pred& pred) {
  Tensor* self = nullptr;
  Tensor* out = nullptr;
  TRI_TRY(read_unary(args, 1, &self, &out));
  TRI_TRY(check_dtype(self->scalar_type(), kRealHBBoolTypes, "self"));
  TRI_TRY(check_dtype(out->scalar_type(), kRealHBBoolTypes, "out"));
  TRI_TRY(resize_out(*out, self->sizes()));
  return map1<kComputeAll>(self->scalar_type(), TensorView::of(*self), TensorView::of(*out),
                           [&pred](auto tag) {
                             using C = typename decltype(tag)::type;
                             return [&pred](C x) -> bool { return pred(x); };
                           });
}

}  // namespace tri
