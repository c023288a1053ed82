#include "cpp/formats/bef/host/mlir_to_bef/bef_emitter.h"

#include <algorithm>
#include <cstring>

namespace tri::bef {

size_t vbr_size(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

void ByteEmitter::emit_bytes(const uint8_t* data, size_t size) {
  if (size == 0) return;
  bytes_.insert(bytes_.end(), data, data + size);
}

void ByteEmitter::emit_vbr(uint64_t value) {
  uint8_t groups[10];
  size_t n = 0;
  do {
    groups[n++] = static_cast<uint8_t>(value & 0x7F);
    value >>= 7;
  } while (value != 0);
  while (n > 1) bytes_.push_back(static_cast<uint8_t>(groups[--n] | 0x80));
  bytes_.push_back(groups[0]);
}

void ByteEmitter::emit_alignment(unsigned alignment) {
  if (alignment < 2) return;
  while (bytes_.size() % alignment != 0) bytes_.push_back(kBefPaddingByte);
  required_alignment_ = std::max(required_alignment_, alignment);
}

void ByteEmitter::emit_padding(unsigned alignment, size_t count) {
  bytes_.insert(bytes_.end(), count, kBefPaddingByte);
  required_alignment_ = std::max(required_alignment_, alignment);
}

void ByteEmitter::emit_fixed(uint64_t value, unsigned size) {
  emit_alignment(size);
  for (unsigned i = 0; i < size; ++i) bytes_.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

void ByteEmitter::emit_emitter(const ByteEmitter& other) {
  emit_alignment(other.required_alignment());
  emit_bytes(other.bytes_.data(), other.bytes_.size());
}

void ByteEmitter::overwrite(size_t offset, const void* data, size_t size) {
  if (offset + size > bytes_.size()) return;
  std::memcpy(bytes_.data() + offset, data, size);
}

void ByteEmitter::emit_section(SectionId id, const ByteEmitter& payload) {
  emit_byte(static_cast<uint8_t>(id));
  const uint64_t shifted_length = static_cast<uint64_t>(payload.size()) << 1;
  const unsigned alignment = payload.required_alignment();
  if (alignment > 1 && (size() + vbr_size(shifted_length)) % alignment != 0) {
    emit_vbr(shifted_length | 1);
    emit_byte(static_cast<uint8_t>(alignment));
    emit_alignment(alignment);
  } else {
    emit_vbr(shifted_length);
  }
  emit_bytes(payload.bytes().data(), payload.size());
}

}  // namespace tri::bef
