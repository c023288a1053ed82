// A growing byte buffer with BEF's primitive encodings: VBR integers,
// little-endian fixed-width values at their natural alignment, 0xCC padding,
// nested buffers that carry their alignment, and sections. Like TFRT's
// BefEmitter it remembers the largest alignment anything asked for, which is
// the alignment the enclosing section must give the buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cpp/formats/bef/bef_encoding.h"

namespace tri::bef {

constexpr uint8_t kBefPaddingByte = 0xCC;

// Bytes a VBR encoding of `value` takes.
size_t vbr_size(uint64_t value);

class ByteEmitter {
 public:
  size_t size() const { return bytes_.size(); }
  unsigned required_alignment() const { return required_alignment_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t> take() { return std::move(bytes_); }

  void emit_byte(uint8_t byte) { bytes_.push_back(byte); }
  void emit_bytes(const uint8_t* data, size_t size);
  // Most significant 7-bit group first; every byte but the last has 0x80.
  void emit_vbr(uint64_t value);
  // Pads to `alignment` (relative to the buffer start) and records it.
  void emit_alignment(unsigned alignment);
  // Emits exactly `count` padding bytes and records `alignment`: for values
  // that must land aligned after a prefix.
  void emit_padding(unsigned alignment, size_t count);
  // A little-endian value of `size` bytes (1, 2, 4 or 8) at that alignment.
  void emit_fixed(uint64_t value, unsigned size);
  void emit_u32(uint32_t value) { emit_fixed(value, 4); }
  // Appends `other` at its required alignment.
  void emit_emitter(const ByteEmitter& other);
  void overwrite(size_t offset, const void* data, size_t size);
  // Section `id` holding `payload`: `id`, VBR(length << 1 | aligned), and in
  // the aligned form the alignment byte and padding, then the payload. The
  // aligned form is used only when the payload would start misaligned.
  void emit_section(SectionId id, const ByteEmitter& payload);

 private:
  std::vector<uint8_t> bytes_;
  unsigned required_alignment_ = 1;
};

}  // namespace tri::bef
