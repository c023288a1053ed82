// 16-bit floating types as stored in tensors. Kernels never compute in them:
// they load to float32, compute, and round back (round to nearest even).
#pragma once

#include <cstdint>
#include <cstring>

namespace tri {

struct Half {
  uint16_t bits;
};

struct BFloat16 {
  uint16_t bits;
};

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

inline float half_to_float(Half h) {
  const uint32_t sign = static_cast<uint32_t>(h.bits & 0x8000u) << 16;
  const uint32_t exp = (h.bits >> 10) & 0x1fu;
  const uint32_t mant = h.bits & 0x3ffu;
  if (exp == 0x1f) {  // inf or NaN
    return bits_float(sign | 0x7f800000u | (mant << 13));
  }
  if (exp != 0) {  // normal
    return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
  }
  // Zero or subnormal: mant * 2^-24, exact in float.
  const float magnitude = static_cast<float>(mant) * (1.0f / 16777216.0f);
  return sign ? -magnitude : magnitude;
}

inline Half float_to_half(float f) {
  const uint32_t x = float_bits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or NaN (NaN stays quiet NaN)
    return Half{static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u))};
  }
  if (abs >= 0x477ff000u) {  // rounds to >= 65520: overflow to inf
    return Half{static_cast<uint16_t>(sign | 0x7c00u)};
  }
  if (abs < 0x38800000u) {  // below the smallest normal half (2^-14)
    if (abs < 0x33000000u) {  // below half the smallest subnormal: zero
      return Half{sign};
    }
    const uint32_t exp = abs >> 23;
    const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - exp;  // 14..24
    uint32_t h = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u);
    const uint32_t half_way = 1u << (shift - 1u);
    if (rem > half_way || (rem == half_way && (h & 1u))) {
      ++h;
    }
    return Half{static_cast<uint16_t>(sign | h)};
  }
  // Normal: rebias the exponent, round the mantissa to 10 bits.
  uint32_t h = ((abs - 0x38000000u) >> 13);
  const uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) {
    ++h;  // may carry into the exponent, which is the right result
  }
  return Half{static_cast<uint16_t>(sign | h)};
}

inline float bfloat16_to_float(BFloat16 b) {
  return bits_float(static_cast<uint32_t>(b.bits) << 16);
}

inline BFloat16 float_to_bfloat16(float f) {
  const uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) {
    return BFloat16{static_cast<uint16_t>((x >> 16) | 0x40u)};  // quiet NaN
  }
  const uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return BFloat16{static_cast<uint16_t>((x + rounding) >> 16)};
}

}  // namespace tri
