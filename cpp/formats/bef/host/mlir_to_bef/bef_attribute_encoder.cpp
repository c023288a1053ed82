#include "cpp/formats/bef/host/mlir_to_bef/bef_attribute_encoder.h"

#include <algorithm>

#include "cpp/formats/bef/host/mlir_to_bef/mlir_types.h"

namespace tri::bef {

using mlir::AttrKind;
using mlir::Attribute;

namespace {

// The DType codes of attribute values; 16 (String) has variable size, which
// keeps it out of fixed-width arrays.
constexpr uint8_t kDTypeString = code(async::AttributeType::String);
constexpr uint8_t kLastDType = 24;  // TFRT's LastDType sentinel

bool is_fixed_attribute(uint8_t type) {
  return type == kBefAttrType || (type >= 1 && type < kLastDType && type != kDTypeString);
}

bool contains_symbol(const Attribute& attr) {
  if (attr.kind == AttrKind::SymbolRef) return true;
  for (const Attribute& element : attr.elements) {
    if (contains_symbol(element)) return true;
  }
  return false;
}

size_t offset_to_alignment(size_t offset, size_t alignment) {
  return (alignment - offset % alignment) % alignment;
}

// The alignment TFRT's GetAlignment assigns an aggregate element; an array
// (nested aggregate) always counts as 8.
size_t attribute_alignment(const Attribute& attr) {
  switch (attr.kind) {
    case AttrKind::Integer: {
      const mlir::IntTypeInfo info = mlir::integer_type_info(attr.type);
      return info.valid ? info.width / 8 : 1;
    }
    case AttrKind::Float:
      return mlir::float_type_width(attr.type) / 8;
    case AttrKind::String:
      return 4;
    case AttrKind::Shape:
      return attr.ranked ? 8 : 1;
    case AttrKind::Dense:
      return 8;
    case AttrKind::Array: {
      size_t maximum = 1;
      for (const Attribute& element : attr.elements) {
        maximum = std::max(maximum, attribute_alignment(element));
      }
      return std::max<size_t>(8, maximum);
    }
    default:
      return 1;
  }
}

unsigned dtype_alignment(uint8_t dtype) {
  // Host alignment equals host size for every fixed-width scalar DType.
  return dtype == kBefAttrType ? 1 : mlir::dtype_host_size(dtype);
}

}  // namespace

uint8_t bef_attribute_type(const Attribute& attr) {
  switch (attr.kind) {
    case AttrKind::Integer:
      // Signless and signed widths 1/8/16/32/64, unsigned 8/16/32/64; an
      // index or odd width has no DType.
      return mlir::integer_type_info(attr.type).valid ? mlir::dtype_of_type(attr.type)
                                                      : kBefAttrUnsupported;
    case AttrKind::Float: {
      const uint8_t dtype = mlir::dtype_of_type(attr.type);
      return (dtype == 10 || dtype == 11 || dtype == 14 || dtype == 15) ? dtype
                                                                       : kBefAttrUnsupported;
    }
    case AttrKind::String:
      return kDTypeString;
    case AttrKind::Type:
      return mlir::dtype_of_type(attr.type) != 0 ? kBefAttrType : kBefAttrUnsupported;
    case AttrKind::Shape:
      return kBefAttrShape;
    case AttrKind::Dense: {
      const uint8_t dtype = mlir::dtype_of_type(attr.type);
      return (dtype >= 1 && dtype <= 15) ? kBefAttrDense : kBefAttrUnsupported;
    }
    case AttrKind::SymbolRef:
      return kBefAttrSymbolRef;
    case AttrKind::Array: {
      if (attr.elements.empty()) return kBefAttrEmptyArray;
      const uint8_t first = bef_attribute_type(attr.elements[0]);
      bool is_array = is_fixed_attribute(first);
      // TFRT stops looking at the first mismatch; every element is checked
      // here so that an unencodable one is refused rather than crashing later.
      for (const Attribute& element : attr.elements) {
        const uint8_t type = bef_attribute_type(element);
        if (type == kBefAttrUnsupported) return kBefAttrUnsupported;
        if (type != first) is_array = false;
      }
      return is_array ? static_cast<uint8_t>(first | kBefAttrArrayFlag) : kBefAttrAggregate;
    }
    default:
      return kBefAttrUnsupported;
  }
}

bool is_function_array(const Attribute& attr) {
  return attr.kind == AttrKind::Array && !attr.elements.empty() &&
         attr.elements[0].kind == AttrKind::SymbolRef;
}

bool is_encodable_attribute(const Attribute& attr) {
  if (attr.kind == AttrKind::SymbolRef) return !attr.nested_symbol;
  if (is_function_array(attr)) {
    for (const Attribute& element : attr.elements) {
      if (element.kind != AttrKind::SymbolRef || element.nested_symbol) return false;
    }
    return true;
  }
  return bef_attribute_type(attr) != kBefAttrUnsupported && !contains_symbol(attr);
}

size_t BefAttributeEncoder::encode(const Attribute& attr) {
  return encode_as(bef_attribute_type(attr), attr);
}

size_t BefAttributeEncoder::encode_scalar(uint64_t bits, unsigned size) {
  // One-byte values skip alignment bookkeeping entirely, as TFRT's
  // EncodeAttr does.
  if (size == 1) {
    emit_byte(static_cast<uint8_t>(bits));
    return this->size() - 1;
  }
  emit_alignment(size);
  const size_t offset = this->size();
  for (unsigned i = 0; i < size; ++i) emit_byte(static_cast<uint8_t>(bits >> (8 * i)));
  return offset;
}

size_t BefAttributeEncoder::encode_empty() { return encode_scalar(0, 4); }

size_t BefAttributeEncoder::encode_array_header(uint32_t count, unsigned element_alignment) {
  if (element_alignment <= 4) {
    emit_alignment(4);
  } else {
    emit_padding(element_alignment, offset_to_alignment(size() + 4, element_alignment));
  }
  const size_t offset = size();
  emit_u32(count);
  return offset;
}

size_t BefAttributeEncoder::encode_header(uint8_t alignment, uint8_t dtype, uint16_t prefix_size,
                                          uint32_t byte_size, const uint32_t* fields,
                                          size_t num_fields) {
  emit_padding(alignment, offset_to_alignment(size() + prefix_size, alignment));
  const size_t offset = size();
  emit_byte(alignment);
  emit_byte(dtype);
  emit_byte(static_cast<uint8_t>(prefix_size));
  emit_byte(static_cast<uint8_t>(prefix_size >> 8));
  for (int i = 0; i < 4; ++i) emit_byte(static_cast<uint8_t>(byte_size >> (8 * i)));
  for (size_t f = 0; f < num_fields; ++f) {
    for (int i = 0; i < 4; ++i) emit_byte(static_cast<uint8_t>(fields[f] >> (8 * i)));
  }
  return offset;
}

size_t BefAttributeEncoder::encode_string(const Attribute& attr) {
  if (attr.text.empty()) return encode_empty();
  const size_t offset = encode_array_header(static_cast<uint32_t>(attr.text.size()), 1);
  emit_bytes(reinterpret_cast<const uint8_t*>(attr.text.data()), attr.text.size());
  return offset;
}

size_t BefAttributeEncoder::encode_array(uint8_t type, const Attribute& attr) {
  if (attr.elements.empty()) return encode_empty();
  const uint8_t element_type = static_cast<uint8_t>(type & ~kBefAttrArrayFlag);
  const size_t offset = encode_array_header(static_cast<uint32_t>(attr.elements.size()),
                                            dtype_alignment(element_type));
  for (const Attribute& element : attr.elements) encode_as(element_type, element);
  return offset;
}

size_t BefAttributeEncoder::encode_dense(const Attribute& attr) {
  const uint8_t dtype = mlir::dtype_of_type(attr.type);
  // TFRT accumulates the element count in a 32-bit int; the wrap-around
  // arithmetic here gives the same bits.
  uint32_t count = 1;
  for (int64_t dim : attr.shape) count *= static_cast<uint32_t>(dim);
  const uint32_t rank = static_cast<uint32_t>(attr.shape.size());
  const uint32_t element_offset = 20 + 8 * rank;
  const uint32_t fields[3] = {element_offset, count, rank};
  const size_t offset =
      encode_header(8, dtype, static_cast<uint16_t>(element_offset),
                    element_offset + static_cast<uint32_t>(attr.data.size()), fields, 3);
  for (int64_t dim : attr.shape) emit_fixed(static_cast<uint64_t>(dim), 8);
  emit_bytes(attr.data.data(), attr.data.size());
  return offset;
}

size_t BefAttributeEncoder::encode_shape(const Attribute& attr) {
  if (!attr.ranked) return encode_empty();
  const uint32_t rank = static_cast<uint32_t>(attr.shape.size());
  if (rank == 0) {
    // The zero-rank form aligns only its 4-byte base (TFRT 989678b8).
    const uint32_t fields[1] = {0};
    return encode_header(4, 0, 0, 12, fields, 1);
  }
  const uint32_t fields[1] = {rank};
  const size_t offset = encode_header(8, 0, 12, 12 + 8 * rank, fields, 1);
  for (int64_t dim : attr.shape) emit_fixed(static_cast<uint64_t>(dim), 8);
  return offset;
}

size_t BefAttributeEncoder::encode_aggregate(const Attribute& attr) {
  if (attr.elements.empty()) return encode_empty();
  size_t max_alignment = 1;
  for (const Attribute& element : attr.elements) {
    max_alignment = std::max(max_alignment, attribute_alignment(element));
  }
  const uint32_t count = static_cast<uint32_t>(attr.elements.size());
  const uint32_t fields[1] = {count};
  const size_t offset = encode_header(static_cast<uint8_t>(std::max<size_t>(max_alignment, 4)), 0,
                                      static_cast<uint16_t>(12 + 4 * count), 0, fields, 1);
  size_t offset_slot = size();
  for (uint32_t i = 0; i < count; ++i) emit_u32(0);
  for (const Attribute& element : attr.elements) {
    // The byte reserved here (or the padding after it) becomes the element's
    // type tag: it is always the byte right before the element.
    emit_byte(kBefPaddingByte);
    const uint8_t type = bef_attribute_type(element);
    const size_t element_offset = encode_as(type, element);
    overwrite(element_offset - 1, &type, 1);
    const uint32_t relative = static_cast<uint32_t>(element_offset - offset);
    const uint8_t le[4] = {static_cast<uint8_t>(relative), static_cast<uint8_t>(relative >> 8),
                           static_cast<uint8_t>(relative >> 16),
                           static_cast<uint8_t>(relative >> 24)};
    overwrite(offset_slot, le, 4);
    offset_slot += 4;
  }
  const uint32_t total = static_cast<uint32_t>(size() - offset);
  const uint8_t le[4] = {static_cast<uint8_t>(total), static_cast<uint8_t>(total >> 8),
                         static_cast<uint8_t>(total >> 16), static_cast<uint8_t>(total >> 24)};
  overwrite(offset + 4, le, 4);
  return offset;
}

size_t BefAttributeEncoder::encode_as(uint8_t type, const Attribute& attr) {
  switch (type) {
    case 1: case 5: case 6: return encode_scalar(attr.bits, 1);  // UI8, I1, I8
    case 2: case 7: case 14: case 15: return encode_scalar(attr.bits, 2);  // 16-bit
    case 3: case 8: case 10: return encode_scalar(attr.bits, 4);  // UI32, I32, F32
    case 4: case 9: case 11: return encode_scalar(attr.bits, 8);  // UI64, I64, F64
    case kDTypeString: return encode_string(attr);
    case kBefAttrType: return encode_scalar(mlir::dtype_of_type(attr.type), 1);
    case kBefAttrShape: return encode_shape(attr);
    case kBefAttrDense: return encode_dense(attr);
    case kBefAttrAggregate: return encode_aggregate(attr);
    default:
      if (type & kBefAttrArrayFlag) return encode_array(type, attr);
      return size();  // unreachable for encodable attributes
  }
}

}  // namespace tri::bef
