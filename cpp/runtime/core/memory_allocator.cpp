#include "cpp/runtime/core/memory_allocator.h"

#include <cinttypes>

namespace tri {

void* MemoryAllocator::allocate(size_t size, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return nullptr;
  }
  const uintptr_t start = reinterpret_cast<uintptr_t>(base_) + used_;
  const uintptr_t aligned = (start + alignment - 1) & ~(alignment - 1);
  const size_t padding = aligned - start;
  if (padding > size_ - used_ || size > size_ - used_ - padding) {
    exhausted_ = true;
    return nullptr;
  }
  used_ += padding + size;
  if (used_ > peak_) peak_ = used_;
  return reinterpret_cast<void*>(aligned);
}

Result<void*> PlannedMemory::address(uint32_t memory_id, uint64_t offset,
                                     size_t size) const {
  TRI_CHECK(memory_id >= 1 && memory_id <= buffers_.size(),
            Error::InvalidProgram,
            "memory_id %" PRIu32 " is not a planned buffer (the plan has %zu)",
            memory_id, buffers_.size());
  const Span<uint8_t>& buffer = buffers_[memory_id - 1];
  TRI_CHECK(offset <= buffer.size() && size <= buffer.size() - offset,
            Error::InvalidProgram,
            "planned range [%" PRIu64 ", +%zu) lies outside buffer %" PRIu32
            " of %zu bytes",
            offset, size, memory_id, buffer.size());
  return static_cast<void*>(buffer.data() + offset);
}

bool PlannedMemory::contains(const void* p) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  for (const Span<uint8_t>& buffer : buffers_) {
    const uintptr_t b = reinterpret_cast<uintptr_t>(buffer.data());
    if (a >= b && a - b < buffer.size()) return true;
  }
  return false;
}

bool PlannedMemory::contains(const void* p, size_t bytes) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  for (const Span<uint8_t>& buffer : buffers_) {
    const uintptr_t b = reinterpret_cast<uintptr_t>(buffer.data());
    if (a >= b && a - b <= buffer.size() && bytes <= buffer.size() - (a - b)) return true;
  }
  return false;
}

}  // namespace tri
