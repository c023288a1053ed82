// Type promotion exactly as ATen does it (c10::promoteTypes, at::result_type,
// c10::canCast).
#pragma once

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

// Not a real dtype: "no type yet" / "no promotion exists".
constexpr ScalarType kUndefinedType = static_cast<ScalarType>(-1);

// c10::promoteTypes over Bool, the integers, Half, BFloat16, Float and
// Double (e.g. Byte + Char = Short, Half + BFloat16 = Float, Bool + x = x).
// The unsigned 16/32/64-bit types promote only with themselves and Bool.
// kUndefinedType when no promotion exists.
ScalarType promote_types(ScalarType a, ScalarType b);

// c10::canCast: floating -> integral and non-bool -> bool are not allowed.
bool can_cast(ScalarType from, ScalarType to);

// at::result_type over any mix of operands. Tensors with dims outrank 0-dim
// tensors, which outrank Scalars, unless a lower tier has a higher category
// (bool < integral < floating): then it promotes, and a Double Scalar counts
// as Float (the default dtype), an Int Scalar as Long.
//   int32[3] + 2.5 -> Float;  uint8[3] + 300 -> Byte;  bool[3] + 1 -> Long;
//   int32[3] + float64 0-dim tensor -> Double;  float32[3] + float64[] -> Float.
class ResultType {
 public:
  ResultType& add(const Tensor& t);
  ResultType& add(const Scalar& s);
  // The promoted dtype, or fails naming the two dtypes that do not promote.
  Error get(ScalarType* out) const;

 private:
  void update(ScalarType* slot, ScalarType t);

  ScalarType dim_ = kUndefinedType;
  ScalarType zero_dim_ = kUndefinedType;
  ScalarType wrapped_ = kUndefinedType;
  ScalarType bad_a_ = kUndefinedType;
  ScalarType bad_b_ = kUndefinedType;
};

// Fails with "result type Float can't be cast to the desired output type
// Long" unless can_cast(common, out).
Error check_can_cast(ScalarType common, ScalarType out);

}  // namespace tri
