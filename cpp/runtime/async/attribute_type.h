// TFRT's attribute type codes (BEFAttributeType): 1..23 are its DTypes, the
// rest tag structured attributes. Kernels read attributes by these codes, so
// they belong to the host runtime rather than to the BEF reader.
#pragma once

#include <cstdint>

namespace tri::async {

enum class AttributeType : uint8_t {
  Unsupported = 0,
  UI8 = 1,
  UI16 = 2,
  UI32 = 3,
  UI64 = 4,
  I1 = 5,
  I8 = 6,
  I16 = 7,
  I32 = 8,
  I64 = 9,
  F32 = 10,
  F64 = 11,
  Complex64 = 12,
  Complex128 = 13,
  F16 = 14,
  BF16 = 15,
  String = 16,
  Resource = 17,
  Variant = 18,
  QUI8 = 19,
  QUI16 = 20,
  QI8 = 21,
  QI16 = 22,
  QI32 = 23,
  Type = 25,
  Func = 26,
  Shape = 27,
  Dense = 28,
  SymbolRef = 29,
  Aggregate = 30,
};
constexpr uint8_t kArrayAttributeFlag = 0x80;

// Bytes per element of a fixed-width DType (0 for String and the others
// without a fixed width).
uint32_t dtype_size(uint8_t dtype);
const char* dtype_name(uint8_t dtype);

}  // namespace tri::async
