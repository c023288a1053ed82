// External tensor data files (`.ptd`, ExecuTorch "FlatTensor"): named blobs,
// usually the weights of a program exported with external constants, looked
// up by the key the program's tensors carry (`fully_qualified_name`).
//
// File layout (all little-endian):
//
//   [0, 4)    flatbuffer root offset
//   [4, 8)    flatbuffer identifier "FT01"
//   [8, ...)  FH01 header: magic "FH01", u32 header length (>= 40),
//             u64 flatbuffer_offset, u64 flatbuffer_size,
//             u64 segment_base_offset, u64 segment_data_size
//   ...       flatbuffer body, up to flatbuffer_offset + flatbuffer_size
//   [segment_base_offset, + segment_data_size)  segment data
//
// Two incompatible flatbuffer layouts share the "FT01" identifier and the
// header (see ../schema/flat_tensor.fbs and flat_tensor_v0.fbs):
//   - NamedData (current): named_data[] = {key, segment_index, optional tensor
//     layout}; the blob is the whole segment.
//   - Tensors (early 2025): tensors[] = {fully_qualified_name, dtype, sizes,
//     dim_order, segment_index, offset}; the blob is dtype/sizes' worth of
//     bytes at `offset` inside the segment.
// load() verifies the flatbuffer against both schemas and uses the root
// table's fields to decide; the identifier alone proves nothing.
//
// Everything is checked once, in load(): every segment lies inside the
// segment data, every entry names an existing segment and fits in it, every
// tensor layout has a known dtype and sizes that fit its bytes. Afterwards
// the accessors only hand out views into the caller's bytes (zero copy), which
// must outlive the map and must start at an 8-byte aligned address.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/named_data_map.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/core/span.h"

namespace flat_tensor_flatbuffer {
struct FlatTensor;
}
namespace flat_tensor_v0_flatbuffer {
struct FlatTensor;
}

namespace tri::pte {

// The FH01 header, as stored.
struct FlatTensorHeader {
  uint32_t header_length = 0;
  uint64_t flatbuffer_offset = 0;
  uint64_t flatbuffer_size = 0;
  uint64_t segment_base_offset = 0;
  uint64_t segment_data_size = 0;
};

// Which of the two FT01 flatbuffer layouts a file uses.
enum class FlatTensorLayout : uint8_t {
  NamedData = 0,  // named_data[] + segments[] (current)
  Tensors = 1,    // tensors[] + segments[] + tensor_alignment (early 2025)
};

const char* flat_tensor_layout_name(FlatTensorLayout layout);

// Element type and shape of a tensor entry. Views into the file.
struct FlatTensorLayoutView {
  ScalarType dtype = ScalarType::Float;
  Span<const int32_t> sizes;
  // Empty or one entry per dimension (outermost first).
  Span<const uint8_t> dim_order;
};

class FlatTensorDataMap final : public NamedDataMap {
 public:
  // The bytes of a whole `.ptd` file. Fails with InvalidArgument (too small,
  // misaligned), NotSupported (not FT01 / FH01) or InvalidExternalData (any
  // inconsistency), naming the field, entry or offset at fault.
  static Result<FlatTensorDataMap> load(ByteSpan file);

  FlatTensorDataMap() = default;

  // NamedDataMap. get() returns the blob's bytes; NotFound names the key.
  Result<ByteSpan> get(Span<const char> key) const override;
  size_t size() const override;
  Result<Span<const char>> key_at(size_t index) const override;

  // Index of `key` (first match), or NotFound naming the key.
  Result<size_t> find(Span<const char> key) const;
  // The bytes of entry `index`.
  Result<ByteSpan> data_at(size_t index) const;
  // Element type and shape of `key`: always present in the Tensors layout,
  // optional in the NamedData layout (NotFound when the entry has none).
  Result<FlatTensorLayoutView> tensor_layout(Span<const char> key) const;
  Result<FlatTensorLayoutView> tensor_layout_at(size_t index) const;
  // Offset of entry `index`'s bytes from the start of the file.
  Result<size_t> file_offset_at(size_t index) const;

  FlatTensorLayout layout() const { return layout_; }
  const FlatTensorHeader& header() const { return header_; }
  uint32_t version() const;
  // Tensors layout only: the alignment the writer promised for offsets.
  uint32_t tensor_alignment() const;
  ByteSpan file() const { return file_; }

 private:
  struct Entry {
    Span<const char> key;
    ByteSpan data;
    bool has_layout = false;
    FlatTensorLayoutView layout;
  };

  // Entry `index`, re-derived from the (already validated) flatbuffer.
  Result<Entry> entry(size_t index) const;
  Error validate() const;
  Error validate_segments() const;

  ByteSpan file_;
  FlatTensorHeader header_;
  FlatTensorLayout layout_ = FlatTensorLayout::NamedData;
  const flat_tensor_flatbuffer::FlatTensor* current_ = nullptr;
  const flat_tensor_v0_flatbuffer::FlatTensor* v0_ = nullptr;
};

}  // namespace tri::pte
