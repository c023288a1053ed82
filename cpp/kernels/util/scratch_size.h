// Adds up the scratch blocks a kernel will take from KernelContext::temp, as
// MemoryAllocator hands them out: each block at least one element and
// aligned, so each may cost up to its alignment more than its bytes. Kernels'
// scratch functions (KernelEntry::scratch) report with it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/memory_allocator.h"

namespace tri {

class ScratchSize {
 public:
  // One allocate_array<T>(count); negative counts (bad arguments) add nothing.
  template <typename T>
  ScratchSize& add(int64_t count) {
    if (count < 0) return *this;
    const uint64_t n = count == 0 ? 1 : static_cast<uint64_t>(count);
    const uint64_t align = alignof(T) > kDefaultAlignment ? alignof(T) : kDefaultAlignment;
    if (n > (kLimit - bytes_) / sizeof(T)) {
      bytes_ = kLimit;  // beyond any arena: the load reports the limit
      return *this;
    }
    bytes_ += n * sizeof(T) + align;
    if (bytes_ > kLimit) bytes_ = kLimit;
    return *this;
  }
  size_t bytes() const { return static_cast<size_t>(bytes_); }

 private:
  static constexpr uint64_t kLimit = SIZE_MAX / 2;
  uint64_t bytes_ = 0;
};

}  // namespace tri
