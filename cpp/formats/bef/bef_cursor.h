// A bounds-checked reader over one BEF section. Every read says whether it
// stayed inside the section, so a hostile file can only make the caller
// report an error, never read past the buffer.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/byte_reader.h"

namespace tri::bef {

class BefCursor {
 public:
  BefCursor() = default;
  BefCursor(const uint8_t* begin, const uint8_t* end)
      : begin_(begin), pos_(begin), end_(end) {}

  size_t offset() const { return static_cast<size_t>(pos_ - begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }
  bool at_end() const { return pos_ == end_; }
  const uint8_t* position() const { return pos_; }

  bool read_byte(uint8_t* out) {
    if (pos_ == end_) return false;
    *out = *pos_++;
    return true;
  }

  // VBR: 7-bit groups, most significant first, high bit set on all but the
  // last byte (not LEB128). Values past 32 bits are refused: every VBR in a
  // BEF file is a count, an index or an offset into a section.
  bool read_vbr(uint32_t* out) {
    uint64_t value = 0;
    for (;;) {
      if (pos_ == end_) return false;
      const uint8_t byte = *pos_++;
      value = (value << 7) | (byte & 0x7F);
      if (value > UINT32_MAX) return false;
      if ((byte & 0x80) == 0) break;
    }
    *out = static_cast<uint32_t>(value);
    return true;
  }

  bool read_u32(uint32_t* out) {
    if (remaining() < 4) return false;
    *out = read_u32_le(pos_);
    pos_ += 4;
    return true;
  }

  bool skip(size_t count) {
    if (remaining() < count) return false;
    pos_ += count;
    return true;
  }

  // Skips padding until the memory address is a multiple of `alignment` (a
  // power of two), as TFRT's reader does.
  bool align_address(uint32_t alignment) {
    const uintptr_t address = reinterpret_cast<uintptr_t>(pos_);
    const uintptr_t padding = (alignment - (address & (alignment - 1))) & (alignment - 1);
    return skip(padding);
  }

 private:
  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
};

}  // namespace tri::bef
