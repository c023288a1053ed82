// Rounded division as Python and ATen define it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace tri {

// Truncating division. Integers: C++ division (the caller excludes zero);
// INT_MIN / -1 wraps instead of trapping.
template <typename T>
inline T trunc_div(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    if (std::is_signed<T>::value && b == T(-1)) {
      return static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(a));
    }
    return static_cast<T>(a / b);
  } else {
    return std::trunc(a / b);
  }
}

// Floor division: rounds toward -inf. For floats it follows Python's
// definition via fmod, so that a == floor_div(a, b) * b + python_mod(a, b).
template <typename T>
inline T floor_div(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    if (std::is_signed<T>::value && b == T(-1)) {
      return trunc_div(a, b);
    }
    const T q = trunc_div(a, b);
    if (std::is_signed<T>::value && (a % b != 0) && ((a < 0) != (b < 0))) {
      return static_cast<T>(q - 1);
    }
    return q;
  } else {
    if (b == 0) {
      return a / b;
    }
    const T mod = std::fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) {
      div -= T(1);
    }
    if (div == 0) {
      return std::copysign(T(0), a / b);
    }
    T floored = std::floor(div);
    if (div - floored > T(0.5)) {
      floored += T(1);
    }
    return floored;
  }
}

// Python's modulo: the result has the sign of b.
template <typename T>
inline T python_mod(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    if (std::is_signed<T>::value && b == T(-1)) {
      return T(0);
    }
    T r = static_cast<T>(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) {
      r = static_cast<T>(r + b);
    }
    return r;
  } else {
    T r = std::fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) {
      r += b;
    }
    return r;
  }
}

}  // namespace tri
