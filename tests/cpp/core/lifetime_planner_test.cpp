// The lifetime planner: buffers whose lifetimes meet never share bytes,
// buffers whose lifetimes do not may, in-place reuse shares a buffer with the
// one it overwrites, and bad requests fail with a message.
#include "cpp/runtime/core/lifetime_planner.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tri {
namespace {

struct Planner {
  alignas(16) uint8_t scratch[1 << 16];

  Result<uint64_t> plan(std::vector<LifetimeBuffer>& buffers, uint64_t alignment = 16) {
    return plan_lifetimes(Span<LifetimeBuffer>(buffers.data(), buffers.size()), alignment,
                          MemoryAllocator(scratch, sizeof(scratch)));
  }
};

LifetimeBuffer buffer(uint64_t size, int32_t first, int32_t last, int32_t reuse = -1) {
  LifetimeBuffer b;
  b.size = size;
  b.first = first;
  b.last = last;
  b.reuse = reuse;
  return b;
}

bool lifetimes_meet(const LifetimeBuffer& a, const LifetimeBuffer& b) {
  return a.first <= b.last && b.first <= a.last;
}

bool bytes_meet(const LifetimeBuffer& a, const LifetimeBuffer& b) {
  return a.size > 0 && b.size > 0 && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}

TEST(LifetimePlanner, BuffersThatNeverLiveTogetherShareMemory) {
  Planner p;
  std::vector<LifetimeBuffer> b = {buffer(100, 0, 1), buffer(64, 2, 3), buffer(80, 4, 5)};
  Result<uint64_t> arena = p.plan(b);
  ASSERT_TRUE(arena.ok()) << last_error_message();
  EXPECT_EQ(*arena, 112u);  // the largest, aligned to 16
  for (const LifetimeBuffer& x : b) EXPECT_EQ(x.offset, 0u);
}

TEST(LifetimePlanner, BuffersThatLiveTogetherDoNot) {
  Planner p;
  std::vector<LifetimeBuffer> b = {buffer(100, 0, 2), buffer(64, 1, 3), buffer(80, 2, 2)};
  Result<uint64_t> arena = p.plan(b);
  ASSERT_TRUE(arena.ok()) << last_error_message();
  EXPECT_EQ(*arena, 112u + 64u + 80u);
  EXPECT_FALSE(bytes_meet(b[0], b[1]));
  EXPECT_FALSE(bytes_meet(b[0], b[2]));
  EXPECT_FALSE(bytes_meet(b[1], b[2]));
}

TEST(LifetimePlanner, FirstFitFillsAGapLeftByADeadBuffer) {
  Planner p;
  // a and c live at the same time; b lives only after a dies, so it takes
  // a's place rather than growing the arena.
  std::vector<LifetimeBuffer> b = {buffer(256, 0, 1), buffer(128, 2, 3), buffer(64, 0, 3)};
  Result<uint64_t> arena = p.plan(b);
  ASSERT_TRUE(arena.ok()) << last_error_message();
  EXPECT_EQ(*arena, 256u + 64u);
  EXPECT_EQ(b[1].offset, b[0].offset);
}

TEST(LifetimePlanner, InPlaceReuseTakesOverTheBufferItOverwrites) {
  Planner p;
  // x -> relu -> y -> relu -> z: each op reads its input for the last time
  // at the step that writes its output, so all three share one buffer even
  // though each pair is live at the same step.
  std::vector<LifetimeBuffer> b = {buffer(64, 0, 1), buffer(64, 1, 2, 0), buffer(64, 2, 3, 1)};
  Result<uint64_t> arena = p.plan(b);
  ASSERT_TRUE(arena.ok()) << last_error_message();
  EXPECT_EQ(*arena, 64u);
  EXPECT_EQ(b[1].offset, b[0].offset);
  EXPECT_EQ(b[2].offset, b[0].offset);

  // Without the reuse hints the lifetimes touch, so they need two buffers.
  for (LifetimeBuffer& x : b) x.reuse = -1;
  ASSERT_TRUE(p.plan(b).ok());
  EXPECT_NE(b[1].offset, b[0].offset);
}

TEST(LifetimePlanner, InPlaceReuseOnlyWhenTheTargetDiesThere) {
  Planner p;
  // The target is still read at step 3, after the reuser is born at step 1.
  std::vector<LifetimeBuffer> b = {buffer(64, 0, 3), buffer(64, 1, 2, 0)};
  ASSERT_TRUE(p.plan(b).ok());
  EXPECT_FALSE(bytes_meet(b[0], b[1]));
}

TEST(LifetimePlanner, OneBufferIsTakenOverAtMostOnce) {
  Planner p;
  // Two outputs both ask for x's memory at step 1; only the first gets it.
  std::vector<LifetimeBuffer> b = {buffer(64, 0, 1), buffer(64, 1, 2, 0), buffer(64, 1, 2, 0)};
  ASSERT_TRUE(p.plan(b).ok());
  EXPECT_EQ(b[1].offset, b[0].offset);
  EXPECT_FALSE(bytes_meet(b[1], b[2]));
  EXPECT_FALSE(bytes_meet(b[0], b[2]));
}

TEST(LifetimePlanner, AReuserLargerThanItsTargetGrowsTheSharedSlot) {
  Planner p;
  std::vector<LifetimeBuffer> b = {buffer(32, 0, 1), buffer(96, 1, 2, 0), buffer(16, 0, 2)};
  Result<uint64_t> arena = p.plan(b);
  ASSERT_TRUE(arena.ok());
  EXPECT_EQ(b[1].offset, b[0].offset);
  EXPECT_FALSE(bytes_meet(b[1], b[2]));
  EXPECT_EQ(*arena, 96u + 16u);
}

// Random graphs: whatever the sizes, lifetimes and hints, buffers live at the
// same step never share a byte unless one took the other over in place, all
// offsets are aligned and inside the arena, and the arena is no larger than
// placing everything side by side.
TEST(LifetimePlanner, RandomPlansAreSafe) {
  Planner p;
  std::mt19937 rng(1234);
  for (int round = 0; round < 300; ++round) {
    const size_t n = 1 + rng() % 40;
    std::vector<LifetimeBuffer> b(n);
    uint64_t side_by_side = 0;
    for (size_t i = 0; i < n; ++i) {
      const int32_t first = static_cast<int32_t>(rng() % 30);
      b[i] = buffer(rng() % 5000, first, first + static_cast<int32_t>(rng() % 8),
                    rng() % 3 == 0 ? static_cast<int32_t>(rng() % n) : -1);
      side_by_side += (b[i].size + 63) / 64 * 64;
    }
    Result<uint64_t> arena = p.plan(b, 64);
    ASSERT_TRUE(arena.ok()) << last_error_message();
    EXPECT_LE(*arena, side_by_side);
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(b[i].offset % 64, 0u);
      EXPECT_LE(b[i].offset + b[i].size, *arena);
      for (size_t j = i + 1; j < n; ++j) {
        if (!lifetimes_meet(b[i], b[j]) || !bytes_meet(b[i], b[j])) continue;
        // Sharing is allowed only along an in-place chain, where the earlier
        // buffer dies at the step the later one is born.
        const LifetimeBuffer& early = b[i].first < b[j].first ? b[i] : b[j];
        const LifetimeBuffer& late = b[i].first < b[j].first ? b[j] : b[i];
        EXPECT_EQ(early.last, late.first) << "round " << round << ": " << i << " and " << j;
        EXPECT_NE(late.reuse, -1) << "round " << round << ": " << i << " and " << j;
      }
    }
  }
}

TEST(LifetimePlanner, PlansAreReproducible) {
  Planner p;
  std::vector<LifetimeBuffer> a = {buffer(64, 0, 3), buffer(64, 1, 2), buffer(64, 2, 4),
                                   buffer(64, 0, 0)};
  std::vector<LifetimeBuffer> b = a;
  ASSERT_TRUE(p.plan(a).ok());
  ASSERT_TRUE(p.plan(b).ok());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].offset, b[i].offset);
}

TEST(LifetimePlanner, RefusesBadRequests) {
  Planner p;
  std::vector<LifetimeBuffer> b = {buffer(64, 0, 1)};
  EXPECT_EQ(p.plan(b, 24).error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("alignment 24 is not a power of two"),
            std::string::npos);
  std::vector<LifetimeBuffer> backwards = {buffer(64, 3, 1)};
  EXPECT_EQ(p.plan(backwards).error(), Error::InvalidArgument);
  std::vector<LifetimeBuffer> huge = {buffer(UINT64_MAX - 8, 0, 1)};
  EXPECT_EQ(p.plan(huge).error(), Error::LimitExceeded);
  std::vector<LifetimeBuffer> many(10000, buffer(1, 0, 1));
  EXPECT_EQ(p.plan(many).error(), Error::MemoryAllocationFailed);
  std::vector<LifetimeBuffer> none;
  Result<uint64_t> empty = p.plan(none);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, 0u);
}

}  // namespace
}  // namespace tri
