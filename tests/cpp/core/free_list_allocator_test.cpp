// The free-list allocator: blocks never overlap, freed memory is reused and
// merged, exhaustion answers nullptr, and a random workload keeps the
// accounting exact.
#include "cpp/runtime/core/free_list_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace tri {
namespace {

TEST(FreeListAllocator, BlocksAreAlignedAndDisjoint) {
  alignas(16) static uint8_t buffer[4096];
  FreeListAllocator heap(buffer, sizeof(buffer));
  uint8_t* a = static_cast<uint8_t*>(heap.allocate(10));
  uint8_t* b = static_cast<uint8_t*>(heap.allocate(100));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 16, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 16, 0u);
  EXPECT_TRUE(a + 10 <= b || b + 100 <= a);
  EXPECT_EQ(heap.live_blocks(), 2u);
}

TEST(FreeListAllocator, ExhaustionReturnsNullAndFreeingMakesRoomAgain) {
  alignas(16) static uint8_t buffer[1024];
  FreeListAllocator heap(buffer, sizeof(buffer));
  std::vector<void*> blocks;
  for (void* p = heap.allocate(100); p != nullptr; p = heap.allocate(100)) blocks.push_back(p);
  EXPECT_GE(blocks.size(), 7u);
  EXPECT_EQ(heap.allocate(100), nullptr);
  EXPECT_EQ(heap.allocate(size_t{1} << 40), nullptr);
  for (void* p : blocks) heap.free(p);
  EXPECT_EQ(heap.bytes_in_use(), 0u);
  // Small blocks are reused from their bin.
  EXPECT_EQ(heap.allocate(100), blocks.back());
}

TEST(FreeListAllocator, LargeBlocksMergeBackIntoOne) {
  alignas(16) static uint8_t buffer[1 << 14];
  FreeListAllocator heap(buffer, sizeof(buffer));
  std::vector<void*> blocks;
  for (void* p = heap.allocate(1000); p != nullptr; p = heap.allocate(1000)) blocks.push_back(p);
  EXPECT_GE(blocks.size(), 15u);
  // Freed out of order, neighbours merge: one block as large as the whole
  // buffer fits again.
  for (size_t i = 0; i < blocks.size(); i += 2) heap.free(blocks[i]);
  for (size_t i = 1; i < blocks.size(); i += 2) heap.free(blocks[i]);
  EXPECT_EQ(heap.bytes_in_use(), 0u);
  EXPECT_NE(heap.allocate(heap.capacity() - 16), nullptr);
}

TEST(FreeListAllocator, RandomWorkloadKeepsBlocksIntact) {
  alignas(16) static uint8_t buffer[1 << 16];
  FreeListAllocator heap(buffer, sizeof(buffer));
  std::mt19937 rng(7);
  struct Live {
    uint8_t* p;
    size_t size;
    uint8_t fill;
  };
  std::vector<Live> live;
  for (int step = 0; step < 20000; ++step) {
    if (!live.empty() && (rng() % 2 == 0 || live.size() > 200)) {
      const size_t i = rng() % live.size();
      for (size_t j = 0; j < live[i].size; ++j) ASSERT_EQ(live[i].p[j], live[i].fill);
      heap.free(live[i].p);
      live[i] = live.back();
      live.pop_back();
      continue;
    }
    const size_t size = 1 + rng() % 700;
    uint8_t* p = static_cast<uint8_t*>(heap.allocate(size));
    if (p == nullptr) continue;
    const uint8_t fill = static_cast<uint8_t>(rng());
    std::memset(p, fill, size);
    live.push_back({p, size, fill});
  }
  for (const Live& l : live) heap.free(l.p);
  EXPECT_EQ(heap.bytes_in_use(), 0u);
  EXPECT_EQ(heap.live_blocks(), 0u);
  EXPECT_GT(heap.peak_bytes_in_use(), 0u);
}

}  // namespace
}  // namespace tri
