#include "cpp/runtime/core/free_list_allocator.h"

namespace tri {

void FreeListAllocator::reset(void* base, size_t size) {
  for (Block*& bin : bins_) bin = nullptr;
  free_ = nullptr;
  capacity_ = 0;
  in_use_ = peak_ = live_blocks_ = 0;
  const uintptr_t start = (reinterpret_cast<uintptr_t>(base) + 15) & ~uintptr_t{15};
  const uintptr_t end = (reinterpret_cast<uintptr_t>(base) + size) & ~uintptr_t{15};
  if (base == nullptr || end <= start || end - start < kMinBlock) return;
  free_ = reinterpret_cast<Block*>(start);
  free_->size = end - start;
  free_->next = nullptr;
  capacity_ = free_->size;
}

void* FreeListAllocator::allocate(size_t size) {
  if (size > capacity_) return nullptr;
  size_t needed = (size + kHeader + 15) & ~size_t{15};
  if (needed < kMinBlock) needed = kMinBlock;
  if (needed <= kMaxBinnedBlock && bins_[needed / 16] != nullptr) {
    Block* block = bins_[needed / 16];
    bins_[needed / 16] = block->next;
    return take(block);
  }
  Block** link = &free_;
  for (Block* block = free_; block != nullptr; link = &block->next, block = block->next) {
    if (block->size < needed) continue;
    if (block->size - needed >= kMinBlock) {
      Block* rest = reinterpret_cast<Block*>(reinterpret_cast<uint8_t*>(block) + needed);
      rest->size = block->size - needed;
      rest->next = block->next;
      *link = rest;
      block->size = needed;
    } else {
      *link = block->next;
    }
    return take(block);
  }
  return nullptr;
}

void FreeListAllocator::free(void* p) {
  if (p == nullptr) return;
  Block* block = reinterpret_cast<Block*>(static_cast<uint8_t*>(p) - kHeader);
  in_use_ -= block->size;
  --live_blocks_;
  if (block->size <= kMaxBinnedBlock) {
    block->next = bins_[block->size / 16];
    bins_[block->size / 16] = block;
    return;
  }
  Block* prev = nullptr;
  Block* next = free_;
  while (next != nullptr && next < block) {
    prev = next;
    next = next->next;
  }
  block->next = next;
  if (next != nullptr && reinterpret_cast<uint8_t*>(block) + block->size == reinterpret_cast<uint8_t*>(next)) {
    block->size += next->size;
    block->next = next->next;
  }
  if (prev == nullptr) {
    free_ = block;
  } else if (reinterpret_cast<uint8_t*>(prev) + prev->size == reinterpret_cast<uint8_t*>(block)) {
    prev->size += block->size;
    prev->next = block->next;
  } else {
    prev->next = block;
  }
}

}  // namespace tri
