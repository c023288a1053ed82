// Clamping one value as ATen's clamp does: min is applied before max (so
// min > max gives max), and a NaN value or NaN bound gives NaN.
#pragma once

#include <type_traits>

namespace tri {

template <typename C>
inline C clamp_value(C x, bool has_min, C lo, bool has_max, C hi) {
  if constexpr (std::is_floating_point<C>::value) {
    // x != x: NaN, with no libm call in the loop.
    if ((has_min && lo != lo) || (has_max && hi != hi)) return has_min && lo != lo ? lo : hi;
  }
  C v = x;
  if (has_min && v < lo) v = lo;
  if (has_max && v > hi) v = hi;
  return v;
}

}  // namespace tri
