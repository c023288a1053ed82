#include "cpp/formats/bef/host/mlir_to_bef/mlir_types.h"

#include <cstring>

namespace tri::bef::mlir {

namespace {

bool parse_width(std::string_view digits, uint32_t* width) {
  if (digits.empty() || digits.size() > 2) return false;
  uint32_t w = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    w = w * 10 + static_cast<uint32_t>(c - '0');
  }
  if (w == 0 || w > 64 || (digits.size() > 1 && digits[0] == '0')) return false;
  *width = w;
  return true;
}

// Rounds `sig` right by `shift` bits, to nearest with ties to even.
uint64_t round_shift_right(uint64_t sig, int shift) {
  if (shift <= 0) return sig;
  if (shift >= 64) return 0;  // sig < 2^53, so below half of the last step
  const uint64_t quotient = sig >> shift;
  const uint64_t remainder = sig & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (remainder > half || (remainder == half && (quotient & 1) != 0)) return quotient + 1;
  return quotient;
}

// A double narrowed to a binary format with `exp_bits` exponent and
// `mant_bits` fraction bits, as APFloat::convert does.
uint64_t narrow_double(double value, int exp_bits, int mant_bits) {
  uint64_t raw = 0;
  std::memcpy(&raw, &value, sizeof(raw));
  const uint64_t sign = raw >> 63;
  const int exp = static_cast<int>((raw >> 52) & 0x7FF);
  const uint64_t frac = raw & ((uint64_t{1} << 52) - 1);
  const int total = 1 + exp_bits + mant_bits;
  const uint64_t sign_bit = sign << (total - 1);
  const int max_exp = (1 << exp_bits) - 1;
  const int bias = (1 << (exp_bits - 1)) - 1;
  if (exp == 0x7FF) {
    if (frac == 0) return sign_bit | (static_cast<uint64_t>(max_exp) << mant_bits);
    const uint64_t payload = (frac >> (52 - mant_bits)) | (uint64_t{1} << (mant_bits - 1));
    return sign_bit | (static_cast<uint64_t>(max_exp) << mant_bits) | payload;
  }
  if (exp == 0) return sign_bit;  // zero, or a double subnormal far below range
  const uint64_t sig = (uint64_t{1} << 52) | frac;
  int target_exp = exp - 1023 + bias;
  if (target_exp >= 1) {
    uint64_t rounded = round_shift_right(sig, 52 - mant_bits);
    if (rounded >> (mant_bits + 1)) {
      rounded >>= 1;
      ++target_exp;
    }
    if (target_exp >= max_exp) return sign_bit | (static_cast<uint64_t>(max_exp) << mant_bits);
    return sign_bit | (static_cast<uint64_t>(target_exp) << mant_bits) |
           (rounded & ((uint64_t{1} << mant_bits) - 1));
  }
  // Subnormal in the target: a carry out of the fraction lands in the
  // exponent field, which is exactly the smallest normal number.
  const int shift = 52 - mant_bits + (1 - target_exp);
  return sign_bit | round_shift_right(sig, shift);
}

}  // namespace

IntTypeInfo integer_type_info(std::string_view type) {
  IntTypeInfo info;
  std::string_view digits;
  if (type.size() > 2 && type.substr(0, 2) == "ui") {
    info.is_unsigned = true;
    digits = type.substr(2);
  } else if (type.size() > 2 && type.substr(0, 2) == "si") {
    info.is_signed = true;
    digits = type.substr(2);
  } else if (type.size() > 1 && type[0] == 'i') {
    digits = type.substr(1);
  } else {
    return info;
  }
  info.valid = parse_width(digits, &info.width);
  return info;
}

uint32_t float_type_width(std::string_view type) {
  if (type == "f16" || type == "bf16") return 16;
  if (type == "f32") return 32;
  if (type == "f64") return 64;
  return 0;
}

uint8_t dtype_of_type(std::string_view type) {
  const IntTypeInfo info = integer_type_info(type);
  if (info.valid) {
    if (info.is_unsigned) {
      switch (info.width) {
        case 8: return 1;
        case 16: return 2;
        case 32: return 3;
        case 64: return 4;
        default: return 0;
      }
    }
    switch (info.width) {
      case 1: return 5;
      case 8: return 6;
      case 16: return 7;
      case 32: return 8;
      case 64: return 9;
      default: return 0;
    }
  }
  if (type == "f32") return 10;
  if (type == "f64") return 11;
  if (type == "complex<f32>") return 12;
  if (type == "complex<f64>") return 13;
  if (type == "f16") return 14;
  if (type == "bf16") return 15;
  if (type == "!corert.string") return 16;
  if (type == "!corert.resource") return 17;
  if (type == "!corert.variant") return 18;
  if (type == "!corert.quint8") return 19;
  if (type == "!corert.quint16") return 20;
  if (type == "!corert.qint8") return 21;
  if (type == "!corert.qint16") return 22;
  if (type == "!corert.qint32") return 23;
  return 0;
}

uint32_t dtype_host_size(uint8_t dtype) {
  switch (dtype) {
    case 1: case 5: case 6: case 19: case 21: return 1;
    case 2: case 7: case 14: case 15: case 20: case 22: return 2;
    case 3: case 8: case 10: case 23: return 4;
    case 4: case 9: case 11: case 12: return 8;
    case 13: return 16;
    default: return 0;
  }
}

bool float_bits_for_type(double value, std::string_view type, uint64_t* bits) {
  if (type == "f64") {
    std::memcpy(bits, &value, sizeof(value));
    return true;
  }
  if (type == "f32") {
    const float narrowed = static_cast<float>(value);
    uint32_t raw = 0;
    std::memcpy(&raw, &narrowed, sizeof(raw));
    *bits = raw;
    return true;
  }
  if (type == "f16") {
    *bits = narrow_double(value, 5, 10);
    return true;
  }
  if (type == "bf16") {
    *bits = narrow_double(value, 8, 7);
    return true;
  }
  return false;
}

int64_t sign_extend(uint64_t bits, uint32_t width) {
  if (width >= 64) return static_cast<int64_t>(bits);
  const uint64_t sign = uint64_t{1} << (width - 1);
  const uint64_t value = truncate_bits(bits, width);
  return static_cast<int64_t>((value ^ sign) - sign);
}

uint64_t truncate_bits(uint64_t bits, uint32_t width) {
  if (width >= 64) return bits;
  return bits & ((uint64_t{1} << width) - 1);
}

}  // namespace tri::bef::mlir
