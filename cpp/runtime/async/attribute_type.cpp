#include "cpp/runtime/async/attribute_type.h"

namespace tri::async {

uint32_t dtype_size(uint8_t dtype) {
  switch (static_cast<AttributeType>(dtype)) {
    case AttributeType::UI8:
    case AttributeType::I1:
    case AttributeType::I8:
    case AttributeType::QUI8:
    case AttributeType::QI8:
      return 1;
    case AttributeType::UI16:
    case AttributeType::I16:
    case AttributeType::F16:
    case AttributeType::BF16:
    case AttributeType::QUI16:
    case AttributeType::QI16:
      return 2;
    case AttributeType::UI32:
    case AttributeType::I32:
    case AttributeType::F32:
    case AttributeType::QI32:
      return 4;
    case AttributeType::UI64:
    case AttributeType::I64:
    case AttributeType::F64:
    case AttributeType::Complex64:
      return 8;
    case AttributeType::Complex128:
      return 16;
    default:
      return 0;
  }
}

const char* dtype_name(uint8_t dtype) {
  switch (static_cast<AttributeType>(dtype)) {
    case AttributeType::UI8: return "u8";
    case AttributeType::UI16: return "u16";
    case AttributeType::UI32: return "u32";
    case AttributeType::UI64: return "u64";
    case AttributeType::I1: return "i1";
    case AttributeType::I8: return "i8";
    case AttributeType::I16: return "i16";
    case AttributeType::I32: return "i32";
    case AttributeType::I64: return "i64";
    case AttributeType::F32: return "f32";
    case AttributeType::F64: return "f64";
    case AttributeType::Complex64: return "complex64";
    case AttributeType::Complex128: return "complex128";
    case AttributeType::F16: return "f16";
    case AttributeType::BF16: return "bf16";
    case AttributeType::String: return "string";
    case AttributeType::Resource: return "resource";
    case AttributeType::Variant: return "variant";
    case AttributeType::QUI8: return "qui8";
    case AttributeType::QUI16: return "qui16";
    case AttributeType::QI8: return "qi8";
    case AttributeType::QI16: return "qi16";
    case AttributeType::QI32: return "qi32";
    default: return "unknown";
  }
}

}  // namespace tri::async
