// C++ element types <-> ScalarType, the compute type of each storage type,
// and value conversion with ATen's rules (bool is v != 0; float to integer
// truncates toward zero; Half/BFloat16 go through float32).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "cpp/kernels/util/half.h"
#include "cpp/runtime/core/scalar_type.h"

namespace tri {

// The ScalarType of a storage type.
template <typename T> struct DtypeOf;
#define TRI_DTYPE_OF(T, S) \
  template <> struct DtypeOf<T> { static constexpr ScalarType value = ScalarType::S; }
TRI_DTYPE_OF(bool, Bool);
TRI_DTYPE_OF(uint8_t, Byte);
TRI_DTYPE_OF(int8_t, Char);
TRI_DTYPE_OF(int16_t, Short);
TRI_DTYPE_OF(int32_t, Int);
TRI_DTYPE_OF(int64_t, Long);
TRI_DTYPE_OF(uint16_t, UInt16);
TRI_DTYPE_OF(uint32_t, UInt32);
TRI_DTYPE_OF(uint64_t, UInt64);
TRI_DTYPE_OF(Half, Half);
TRI_DTYPE_OF(BFloat16, BFloat16);
TRI_DTYPE_OF(float, Float);
TRI_DTYPE_OF(double, Double);
#undef TRI_DTYPE_OF

template <typename T>
constexpr ScalarType dtype_of() {
  return DtypeOf<T>::value;
}

template <typename T>
constexpr bool is_reduced_float_v =
    std::is_same<T, Half>::value || std::is_same<T, BFloat16>::value;

// The type arithmetic on T is carried out in ("opmath" in ATen).
template <typename T>
using ComputeType = typename std::conditional<is_reduced_float_v<T>, float, T>::type;

// Float to integer: truncation toward zero, like static_cast, but defined for
// every input (NaN gives 0, out-of-range values saturate to int64 and then
// wrap to the narrower type, which is what x86 and ATen produce in practice).
template <typename To, typename From>
To float_to_integral(From v) {
  if (!(v == v)) {
    return To(0);
  }
  int64_t wide;
  if (v >= static_cast<From>(9.2233720368547758e18)) {
    wide = std::numeric_limits<int64_t>::max();
  } else if (v <= static_cast<From>(-9.2233720368547758e18)) {
    wide = std::numeric_limits<int64_t>::min();
  } else {
    wide = static_cast<int64_t>(v);
  }
  if (std::is_unsigned<To>::value && sizeof(To) == 8 && v >= static_cast<From>(9.2233720368547758e18)) {
    return v >= static_cast<From>(1.8446744073709552e19) ? static_cast<To>(~uint64_t{0})
                                                         : static_cast<To>(static_cast<uint64_t>(v));
  }
  return static_cast<To>(static_cast<uint64_t>(wide));  // modular narrowing
}

template <typename To, typename From>
inline To cast_value(From v) {
  if constexpr (std::is_same<To, From>::value) {
    return v;
  } else if constexpr (std::is_same<From, Half>::value) {
    return cast_value<To>(half_to_float(v));
  } else if constexpr (std::is_same<From, BFloat16>::value) {
    return cast_value<To>(bfloat16_to_float(v));
  } else if constexpr (std::is_same<To, Half>::value) {
    return float_to_half(cast_value<float>(v));
  } else if constexpr (std::is_same<To, BFloat16>::value) {
    return float_to_bfloat16(cast_value<float>(v));
  } else if constexpr (std::is_same<To, bool>::value) {
    return v != From(0);
  } else if constexpr (std::is_integral<To>::value && std::is_floating_point<From>::value) {
    return float_to_integral<To>(v);
  } else if constexpr (std::is_integral<To>::value && std::is_integral<From>::value) {
    // Modular narrowing, defined for every pair.
    return static_cast<To>(static_cast<typename std::make_unsigned<To>::type>(v));
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace tri
