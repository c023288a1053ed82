// The per-shape binder HostModel gives a method: it grows by chunks up to its
// cap, folds them into one at the next run, and places the same sizes in the
// same order at the same addresses.
#include "cpp/host/growing_tensor_arena.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tri::host {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

std::vector<Tensor> lazy_tensors(size_t n, GrowingTensorArena* arena) {
  std::vector<Tensor> tensors(n);
  const SizesType bound[] = {1 << 24};
  for (Tensor& t : tensors) {
    EXPECT_EQ(t.init(ScalarType::Float, Span<const SizesType>(bound, 1), {}, nullptr, 0,
                     ShapeDynamism::DynamicBound),
              Error::Ok);
    t.set_binder(arena);
  }
  return tensors;
}

Error size(Tensor& t, SizesType elements) {
  const SizesType sizes[] = {elements};
  return t.resize(Span<const SizesType>(sizes, 1));
}

TEST(GrowingTensorArena, ResizeBindsAtTheNewShapeAndGrowsTheBinding) {
  GrowingTensorArena arena(64 * kMiB);
  std::vector<Tensor> t = lazy_tensors(1, &arena);
  ASSERT_EQ(size(t[0], 10), Error::Ok) << last_error_message();
  ASSERT_NE(t[0].data(), nullptr);
  EXPECT_EQ(t[0].capacity_bytes(), 40u);
  t[0].data_ptr<float>()[9] = 1.0f;
  ASSERT_EQ(size(t[0], 5), Error::Ok);  // smaller: the same memory
  EXPECT_EQ(t[0].capacity_bytes(), 40u);
  ASSERT_EQ(size(t[0], 1000), Error::Ok);
  EXPECT_EQ(t[0].capacity_bytes(), 4000u);
  EXPECT_EQ(arena.peak_bytes(), 4000u);
  arena.release(t[0]);
  EXPECT_EQ(t[0].data(), nullptr);
}

TEST(GrowingTensorArena, ChunksFoldIntoOneAndTheSameRunLandsTheSameWay) {
  GrowingTensorArena arena(64 * kMiB);
  std::vector<Tensor> t = lazy_tensors(3, &arena);
  auto run = [&]() {
    arena.release_all();
    for (Tensor& x : t) x.set_data(nullptr, 0);
    std::vector<const void*> where;
    for (size_t i = 0; i < t.size(); ++i) {
      EXPECT_EQ(size(t[i], static_cast<SizesType>((i + 1) * 200000)), Error::Ok) << last_error_message();
      where.push_back(t[i].data());
    }
    arena.release(t[0]);
    return where;
  };
  run();
  EXPECT_GT(arena.num_chunks(), 1u);  // 0.8, 1.6 and 2.4 MB do not fit the first 1 MiB chunk
  const size_t held = arena.capacity();
  const std::vector<const void*> second = run();
  EXPECT_EQ(arena.num_chunks(), 1u);
  EXPECT_EQ(arena.capacity(), held);
  EXPECT_EQ(run(), second);
  EXPECT_EQ(arena.capacity(), held);
  EXPECT_EQ(arena.peak_bytes(), size_t{4800000});
}

TEST(GrowingTensorArena, ACapTooSmallForTheRunIsALimitErrorThatNamesIt) {
  GrowingTensorArena arena(2 * kMiB);
  std::vector<Tensor> t = lazy_tensors(2, &arena);
  ASSERT_EQ(size(t[0], 300000), Error::Ok);  // 1.2 MB
  EXPECT_EQ(size(t[1], 300000), Error::LimitExceeded);
  EXPECT_NE(std::string(last_error_message()).find("maxPlannedBytes"), std::string::npos)
      << last_error_message();
  EXPECT_EQ(t[1].data(), nullptr);
  // The arena is still usable: the next run fits once the first is released.
  arena.release_all();
  for (Tensor& x : t) x.set_data(nullptr, 0);
  EXPECT_EQ(size(t[1], 300000), Error::Ok) << last_error_message();
}

}  // namespace
}  // namespace tri::host
