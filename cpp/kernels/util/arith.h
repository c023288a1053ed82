// Scalar arithmetic in a compute type C: integer add/sub/mul wrap around
// (two's complement, as ATen's do in practice) instead of being undefined;
// bool add is `or`, bool mul is `and`.
#pragma once

#include <type_traits>

#include "cpp/kernels/util/cast.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

// Integers compute in their unsigned twin, where overflow wraps.
template <typename T, bool = std::is_integral<T>::value && !std::is_same<T, bool>::value>
struct Wrap {
  using type = T;
};
template <typename T>
struct Wrap<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <typename T>
using WrapType = typename Wrap<T>::type;

template <typename T>
inline T arith_add(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a || b;
  } else {
    return static_cast<T>(static_cast<WrapType<T>>(a) + static_cast<WrapType<T>>(b));
  }
}

template <typename T>
inline T arith_sub(T a, T b) {
  return static_cast<T>(static_cast<WrapType<T>>(a) - static_cast<WrapType<T>>(b));
}

template <typename T>
inline T arith_mul(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a && b;
  } else {
    return static_cast<T>(static_cast<WrapType<T>>(a) * static_cast<WrapType<T>>(b));
  }
}

template <typename T>
inline T arith_neg(T a) {
  if constexpr (std::is_floating_point<T>::value) {
    return -a;
  } else {
    return arith_sub(T(0), a);
  }
}

// A Scalar argument converted to C.
template <typename C>
inline C scalar_to(const Scalar& s) {
  switch (s.tag) {
    case Tag::Double: return cast_value<C>(s.d);
    case Tag::Bool: return cast_value<C>(s.b);
    default: return cast_value<C>(s.i);
  }
}

}  // namespace tri
