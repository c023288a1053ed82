// Attributes as TFRT's BefAttrEmitter lays them out in the Attributes section
// (lib/bef_converter/mlir_to_bef/bef_attr_emitter.cc and
// bef_attr_encoder/bef_attr_encoder.cc): scalars at natural alignment,
// uint32-length strings and arrays, the 8-byte base header of dense, shape
// and aggregate attributes, and the 1-byte type tag before each aggregate
// element.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/formats/bef/host/mlir_to_bef/bef_emitter.h"
#include "cpp/runtime/async/attribute_type.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_ast.h"

namespace tri::bef {

// BEFAttributeType codes beyond the DType range (1..23), from the one table
// the reader and the kernels use too (cpp/runtime/async/attribute_type.h).
constexpr uint8_t code(async::AttributeType type) { return static_cast<uint8_t>(type); }
constexpr uint8_t kBefAttrUnsupported = code(async::AttributeType::Unsupported);
constexpr uint8_t kBefAttrType = code(async::AttributeType::Type);
constexpr uint8_t kBefAttrFunc = code(async::AttributeType::Func);
constexpr uint8_t kBefAttrShape = code(async::AttributeType::Shape);
constexpr uint8_t kBefAttrDense = code(async::AttributeType::Dense);
constexpr uint8_t kBefAttrSymbolRef = code(async::AttributeType::SymbolRef);
constexpr uint8_t kBefAttrAggregate = code(async::AttributeType::Aggregate);
constexpr uint8_t kBefAttrArrayFlag = async::kArrayAttributeFlag;
// "EmptyArray" is defined to equal the I32 array.
constexpr uint8_t kBefAttrEmptyArray = code(async::AttributeType::I32) | async::kArrayAttributeFlag;

// The BEFAttributeType of `attr`, or kBefAttrUnsupported.
uint8_t bef_attribute_type(const mlir::Attribute& attr);

// Whether an op attribute can go into a BEF kernel: a function reference
// (`@f`), an array of them, or a value the encoder can lay out (with no
// symbol reference nested inside).
bool is_encodable_attribute(const mlir::Attribute& attr);

// An array whose first element is a symbol reference: the kernel's function
// list takes it, not the Attributes section.
bool is_function_array(const mlir::Attribute& attr);

class BefAttributeEncoder : public ByteEmitter {
 public:
  // Lays out `attr` (which must be encodable and not a symbol reference) and
  // returns its offset, which is what kernels refer to.
  size_t encode(const mlir::Attribute& attr);

 private:
  size_t encode_as(uint8_t type, const mlir::Attribute& attr);
  size_t encode_scalar(uint64_t bits, unsigned size);
  size_t encode_empty();
  size_t encode_array_header(uint32_t count, unsigned element_alignment);
  size_t encode_header(uint8_t alignment, uint8_t dtype, uint16_t prefix_size, uint32_t byte_size,
                       const uint32_t* fields, size_t num_fields);
  size_t encode_string(const mlir::Attribute& attr);
  size_t encode_array(uint8_t type, const mlir::Attribute& attr);
  size_t encode_dense(const mlir::Attribute& attr);
  size_t encode_shape(const mlir::Attribute& attr);
  size_t encode_aggregate(const mlir::Attribute& attr);
};

}  // namespace tri::bef
