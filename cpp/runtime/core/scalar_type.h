// Element types. The numbers are the ones .pte files store (c10::ScalarType),
// so they are fixed forever.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tri {

enum class ScalarType : int8_t {
  Byte = 0,    // uint8
  Char = 1,    // int8
  Short = 2,   // int16
  Int = 3,     // int32
  Long = 4,    // int64
  Half = 5,    // float16
  Float = 6,   // float32
  Double = 7,  // float64
  ComplexHalf = 8,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,
  QUInt4x2 = 16,
  QUInt2x4 = 17,
  UInt16 = 27,
  UInt32 = 28,
  UInt64 = 29,
};

// Size in bytes of one element; 0 for a number that is not a type Trident
// can store (the caller reports it).
size_t element_size(ScalarType type);

// True for numbers that name a type Trident can hold in a tensor.
bool is_valid_scalar_type(int32_t value);

// "Float", "Long", ...: the names ExecuTorch and PyTorch use in messages.
const char* scalar_type_name(ScalarType type);

// "float32", "int64", ...: numpy-style names, used by the JS API and JSON.
const char* scalar_type_numpy_name(ScalarType type);

// Parses a numpy-style name; false if unknown.
bool scalar_type_from_numpy_name(const char* name, ScalarType* out);

inline bool is_floating_type(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double ||
         t == ScalarType::Half || t == ScalarType::BFloat16;
}

inline bool is_integral_type(ScalarType t, bool include_bool) {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
      return true;
    case ScalarType::Bool:
      return include_bool;
    default:
      return false;
  }
}

}  // namespace tri
