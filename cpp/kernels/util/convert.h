// Conversion between tensor dtypes and the three compute types.
//
// Kernels do their arithmetic in a compute type chosen from the dtype they
// compute in (compute_kind): int64 for Bool and the integers, float for
// Half, BFloat16 and Float, double for Double. Operands of any other dtype
// are converted a row (or a chunk of one) at a time by load_row / store_row,
// so an op's templated loop exists three times, not once per dtype
// combination. Integer results are wrapped back to the range of the dtype
// they are defined in (wrap_to_dtype), which gives exactly the wrapping
// arithmetic of that dtype for add, sub, mul, neg, pow and division.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

enum class ComputeKind : uint8_t { Int, Float, Double };

// Masks of compute kinds, for the kernels' compile-time kind sets.
constexpr uint32_t kComputeInt = 1u << static_cast<int>(ComputeKind::Int);
constexpr uint32_t kComputeFloat = 1u << static_cast<int>(ComputeKind::Float);
constexpr uint32_t kComputeDouble = 1u << static_cast<int>(ComputeKind::Double);
constexpr uint32_t kComputeFloating = kComputeFloat | kComputeDouble;
constexpr uint32_t kComputeAll = kComputeInt | kComputeFloating;
// Opt-in for elementwise ops (elementwise.h): Int calls whose operands are
// all contiguous Int tensors (or single elements) run their loop on int32
// directly instead of converting to int64.
constexpr uint32_t kComputeInt32 = 1u << 3;

inline ComputeKind compute_kind(ScalarType t) {
  if (t == ScalarType::Double) return ComputeKind::Double;
  if (is_floating_type(t)) return ComputeKind::Float;
  return ComputeKind::Int;
}

// The dtype of the compute type of `t` (Long, Float or Double).
inline ScalarType compute_dtype(ScalarType t) {
  switch (compute_kind(t)) {
    case ComputeKind::Int: return ScalarType::Long;
    case ComputeKind::Float: return ScalarType::Float;
    default: return ScalarType::Double;
  }
}

// dst[i] = element i of a row of `from` elements (stride in bytes; 0 repeats
// one element), converted with cast_value's rules. C: int64_t, float, double.
template <typename C>
void load_row(ScalarType from, const void* src, int64_t stride, int64_t n, C* dst);

// Element i of a row of `to` elements = src[i], converted with cast_value's
// rules. C: int64_t, float, double, bool.
template <typename C>
void store_row(ScalarType to, const C* src, void* dst, int64_t stride, int64_t n);

extern template void load_row<int64_t>(ScalarType, const void*, int64_t, int64_t, int64_t*);
extern template void load_row<float>(ScalarType, const void*, int64_t, int64_t, float*);
extern template void load_row<double>(ScalarType, const void*, int64_t, int64_t, double*);
extern template void store_row<int64_t>(ScalarType, const int64_t*, void*, int64_t, int64_t);
extern template void store_row<float>(ScalarType, const float*, void*, int64_t, int64_t);
extern template void store_row<double>(ScalarType, const double*, void*, int64_t, int64_t);
extern template void store_row<bool>(ScalarType, const bool*, void*, int64_t, int64_t);

// One element; for the rare element-at-a-time paths.
template <typename C>
inline C load_one(ScalarType from, const void* src) {
  C v;
  load_row<C>(from, src, 0, 1, &v);
  return v;
}
template <typename C>
inline void store_one(ScalarType to, C v, void* dst) {
  store_row<C>(to, &v, dst, 0, 1);
}

// Wraps each value to the range of integral (or Bool) dtype `t`, as
// converting to `t` and back does: Char 200 -> -56, Bool 2 -> 1.
void wrap_to_dtype(ScalarType t, int64_t* v, int64_t n);

// Rounds each value to the nearest value of `t` when `t` is Half or
// BFloat16 (no-op otherwise).
void round_to_dtype(ScalarType t, float* v, int64_t n);

// True when int64 values of a `from` operand must be wrapped to be values of
// `common` (an integral or Bool dtype): false when `from` fits in it.
bool needs_wrap(ScalarType from, ScalarType common);

// A Scalar argument as a value of the compute type of `common`: integers
// are converted to `common` first (so they wrap like the tensor elements:
// Byte -1 is 255; Bool 2 is 1); floating values convert straight to float or
// double (as ATen uses a scalar operand's original value).
int64_t scalar_to_int_in(const Scalar& s, ScalarType common);
template <typename C>
inline C scalar_as(const Scalar& s, ScalarType common) {
  if constexpr (std::is_integral<C>::value) {
    return static_cast<C>(scalar_to_int_in(s, common));
  } else {
    return scalar_to<C>(s);
  }
}

// A Scalar operand held in the compute type of `common`, seen as a rank-0
// tensor (so elementwise kernels treat it like a broadcast tensor).
class ComputeScalar {
 public:
  ComputeScalar() = default;
  ComputeScalar(const Scalar& s, ScalarType common) { set(s, common); }
  ComputeScalar(const ComputeScalar&) = delete;
  ComputeScalar& operator=(const ComputeScalar&) = delete;

  void set(const Scalar& s, ScalarType common);

  // Valid while this object lives.
  TensorView view() const;
  // The value as a double (for tests like "is alpha 1"; int64 values beyond
  // 2^53 round).
  double as_double() const {
    return type_ == ScalarType::Long    ? static_cast<double>(i_)
           : type_ == ScalarType::Float ? static_cast<double>(f_)
                                        : d_;
  }
  template <typename C>
  C get() const {
    if constexpr (std::is_same<C, int64_t>::value) {
      return i_;
    } else if constexpr (std::is_same<C, float>::value) {
      return f_;
    } else {
      return d_;
    }
  }

 private:
  ScalarType type_ = ScalarType::Long;
  int64_t i_ = 0;
  float f_ = 0;
  double d_ = 0;
};

// Writes `s` converted to `type` (scalar_to's rules) into `dst`.
void scalar_to_bytes(const Scalar& s, ScalarType type, void* dst);

}  // namespace tri
