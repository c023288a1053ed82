// Typed, bounds-checked reads of TFRT attributes as BEF stores them
// (../shared/corpus/bef/FORMAT-NOTES.md §7).
//
// A kernel record holds only byte offsets into the Attributes section; the
// kernel knows what type it expects at each position and decodes it with one
// of these readers. Every read checks that the attribute lies inside the
// section, so a hostile offset becomes an Error naming the offset.
#pragma once

#include <cstdint>
#include <cstring>

#include "cpp/runtime/async/attribute_type.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace tri::async {

struct StringAttr {
  const char* data = nullptr;  // not NUL-terminated
  uint32_t size = 0;
};

struct ArrayAttr {
  const uint8_t* data = nullptr;  // `count` packed little-endian elements
  uint32_t count = 0;
};

struct DenseAttr {
  uint8_t dtype = 0;  // AttributeType code 1..23
  uint32_t rank = 0;
  const uint8_t* dims = nullptr;  // rank little-endian int64
  uint32_t count = 0;             // product of dims
  const uint8_t* data = nullptr;  // count × dtype_size bytes
  int64_t dim(uint32_t i) const;
};

struct AggregateAttr {
  uint32_t base = 0;  // offset of the aggregate in the section
  uint32_t count = 0;
  const uint8_t* element_offsets = nullptr;  // count × u32, relative to base
};

class AttributeReader {
 public:
  explicit AttributeReader(Span<const uint8_t> section) : section_(section) {}

  template <typename T>
  Result<T> scalar(uint32_t offset) const {
    if (!fits(offset, sizeof(T))) return out_of_range(offset, sizeof(T));
    T value;
    std::memcpy(&value, section_.data() + offset, sizeof(T));
    return value;
  }
  Result<bool> boolean(uint32_t offset) const;
  Result<StringAttr> string(uint32_t offset) const;
  // An array of `element_size`-byte elements.
  Result<ArrayAttr> array(uint32_t offset, uint32_t element_size) const;
  Result<DenseAttr> dense(uint32_t offset) const;
  Result<AggregateAttr> aggregate(uint32_t offset) const;

  // Element `index` of an aggregate: its offset in the section and its tag
  // (the AttributeType byte just before it).
  Result<uint32_t> aggregate_element(const AggregateAttr& aggregate, uint32_t index,
                                     uint8_t* tag) const;

  Span<const uint8_t> section() const { return section_; }

 private:
  bool fits(uint64_t offset, uint64_t size) const {
    return offset <= section_.size() && size <= section_.size() - offset;
  }
  Error out_of_range(uint32_t offset, uint64_t size) const;

  Span<const uint8_t> section_;
};

}  // namespace tri::async
