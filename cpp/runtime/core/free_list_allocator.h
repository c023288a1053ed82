// A general-purpose allocator (allocate and free) over one caller-provided
// buffer, for runtimes whose objects do not die in allocation order: the BEF
// executor's async values, frames, work-queue tasks and tensor buffers live
// as long as their last reference, and loops create and drop them by the
// thousand. The bump MemoryAllocator cannot reuse that memory; the heap is not
// allowed on the run path.
//
// Small blocks (up to kMaxBinnedBlock bytes with their header: async values,
// tasks, frames) come from per-size bins in constant time and go back to
// them; they are carved from the main free list when their bin is empty and
// never merge again. Larger blocks use first fit over an address-ordered
// free list that merges neighbours on free. (A plain first-fit list for
// everything made a recursive BEF program spend 98% of its time walking the
// list: fib(20) took 2.4 s.)
#pragma once

#include <cstddef>
#include <cstdint>

namespace tri {

class FreeListAllocator {
 public:
  FreeListAllocator() = default;
  FreeListAllocator(void* base, size_t size) { reset(base, size); }
  FreeListAllocator(const FreeListAllocator&) = delete;
  FreeListAllocator& operator=(const FreeListAllocator&) = delete;

  // Forgets every block and starts over on [base, base + size).
  void reset(void* base, size_t size);

  // 16-byte aligned, or nullptr when no free block is large enough.
  void* allocate(size_t size);
  // `p` must come from allocate() on this allocator (nullptr is ignored).
  void free(void* p);

  size_t capacity() const { return capacity_; }
  size_t bytes_in_use() const { return in_use_; }
  size_t peak_bytes_in_use() const { return peak_; }
  size_t live_blocks() const { return live_blocks_; }

 private:
  struct Block {
    size_t size;  // including this header
    Block* next;  // next free block by address; unused while allocated
  };
  static constexpr size_t kHeader = 16;
  static constexpr size_t kMinBlock = 32;
  static constexpr size_t kMaxBinnedBlock = 512;
  static constexpr size_t kNumBins = kMaxBinnedBlock / 16 + 1;

  void* take(Block* block) {
    in_use_ += block->size;
    if (in_use_ > peak_) peak_ = in_use_;
    ++live_blocks_;
    return reinterpret_cast<uint8_t*>(block) + kHeader;
  }

  Block* bins_[kNumBins] = {};
  Block* free_ = nullptr;
  size_t capacity_ = 0;
  size_t in_use_ = 0;
  size_t peak_ = 0;
  size_t live_blocks_ = 0;
};

}  // namespace tri
