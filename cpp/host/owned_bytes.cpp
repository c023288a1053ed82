#include "cpp/host/owned_bytes.h"

#include <cstring>

namespace tri::host {

OwnedBytes OwnedBytes::copy_of(const uint8_t* data, size_t size) {
  uint8_t* copy = static_cast<uint8_t*>(std::malloc(size ? size : 1));
  if (copy != nullptr && size != 0) {
    std::memcpy(copy, data, size);
  }
  return OwnedBytes(copy, size, [](uint8_t* p) { std::free(p); });
}

bool OwnedBytes::shrink(size_t size) {
  if (shrink_ == nullptr || data_ == nullptr || size >= size_) return false;
  if (!shrink_(data_.get(), size)) return false;
  size_ = size;
  return true;
}

bool AlignedBuffer::allocate(size_t size) {
  if (size > SIZE_MAX - kAlignment) {
    return false;
  }
  storage_.reset(static_cast<uint8_t*>(std::calloc(size + kAlignment, 1)));
  if (storage_ == nullptr) {
    aligned_ = nullptr;
    size_ = 0;
    return false;
  }
  size_ = size;
  const uintptr_t base = reinterpret_cast<uintptr_t>(storage_.get());
  aligned_ = reinterpret_cast<uint8_t*>((base + kAlignment - 1) &
                                        ~(kAlignment - 1));
  return true;
}

}  // namespace tri::host
