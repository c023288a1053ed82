#include "cpp/runtime/core/scalar_type.h"

#include <cstring>

namespace tri {
namespace {

struct TypeInfo {
  ScalarType type;
  size_t size;
  const char* name;
  const char* numpy_name;
};

// Quantized and complex types are kept so that files declaring them load and
// report a clear "unsupported dtype" from the kernel that meets them.
constexpr TypeInfo kTypes[] = {
    {ScalarType::Byte, 1, "Byte", "uint8"},
    {ScalarType::Char, 1, "Char", "int8"},
    {ScalarType::Short, 2, "Short", "int16"},
    {ScalarType::Int, 4, "Int", "int32"},
    {ScalarType::Long, 8, "Long", "int64"},
    {ScalarType::Half, 2, "Half", "float16"},
    {ScalarType::Float, 4, "Float", "float32"},
    {ScalarType::Double, 8, "Double", "float64"},
    {ScalarType::ComplexHalf, 4, "ComplexHalf", "complex32"},
    {ScalarType::ComplexFloat, 8, "ComplexFloat", "complex64"},
    {ScalarType::ComplexDouble, 16, "ComplexDouble", "complex128"},
    {ScalarType::Bool, 1, "Bool", "bool"},
    {ScalarType::QInt8, 1, "QInt8", "qint8"},
    {ScalarType::QUInt8, 1, "QUInt8", "quint8"},
    {ScalarType::QInt32, 4, "QInt32", "qint32"},
    {ScalarType::BFloat16, 2, "BFloat16", "bfloat16"},
    {ScalarType::QUInt4x2, 1, "QUInt4x2", "quint4x2"},
    {ScalarType::QUInt2x4, 1, "QUInt2x4", "quint2x4"},
    {ScalarType::UInt16, 2, "UInt16", "uint16"},
    {ScalarType::UInt32, 4, "UInt32", "uint32"},
    {ScalarType::UInt64, 8, "UInt64", "uint64"},
};

const TypeInfo* find(ScalarType type) {
  for (const TypeInfo& info : kTypes) {
    if (info.type == type) {
      return &info;
    }
  }
  return nullptr;
}

}  // namespace

size_t element_size(ScalarType type) {
  const TypeInfo* info = find(type);
  return info ? info->size : 0;
}

bool is_valid_scalar_type(int32_t value) {
  if (value < -128 || value > 127) {
    return false;
  }
  return find(static_cast<ScalarType>(value)) != nullptr;
}

const char* scalar_type_name(ScalarType type) {
  const TypeInfo* info = find(type);
  return info ? info->name : "Unknown";
}

const char* scalar_type_numpy_name(ScalarType type) {
  const TypeInfo* info = find(type);
  return info ? info->numpy_name : "unknown";
}

bool scalar_type_from_numpy_name(const char* name, ScalarType* out) {
  for (const TypeInfo& info : kTypes) {
    if (strcmp(info.numpy_name, name) == 0) {
      *out = info.type;
      return true;
    }
  }
  return false;
}

}  // namespace tri
