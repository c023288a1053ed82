#include <gtest/gtest.h>

#include <cstring>

#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {
namespace {

TEST(Tensor, ContiguousStridesAndNumel) {
  float data[24];
  Tensor t;
  const SizesType sizes[] = {2, 3, 4};
  ASSERT_EQ(t.init(ScalarType::Float, sizes, {}, data, sizeof(data),
                   ShapeDynamism::Static),
            Error::Ok);
  EXPECT_EQ(t.numel(), 24u);
  EXPECT_EQ(t.nbytes(), 96u);
  EXPECT_EQ(t.strides()[0], 12);
  EXPECT_EQ(t.strides()[1], 4);
  EXPECT_EQ(t.strides()[2], 1);
  EXPECT_TRUE(t.is_contiguous());
}

TEST(Tensor, ChannelsLastStrides) {
  float data[2 * 3 * 4 * 5];
  Tensor t;
  const SizesType sizes[] = {2, 3, 4, 5};
  const DimOrderType order[] = {0, 2, 3, 1};
  ASSERT_EQ(t.init(ScalarType::Float, sizes, order, data, sizeof(data),
                   ShapeDynamism::Static),
            Error::Ok);
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(t.strides()[1], 1);
  EXPECT_EQ(t.strides()[3], 3);
  EXPECT_EQ(t.strides()[2], 15);
  EXPECT_EQ(t.strides()[0], 60);
}

TEST(Tensor, RejectsBadDimOrderAndSizes) {
  Tensor t;
  const SizesType sizes[] = {2, 3};
  const DimOrderType repeated[] = {0, 0};
  EXPECT_EQ(t.init(ScalarType::Float, sizes, repeated, nullptr, 0,
                   ShapeDynamism::Static),
            Error::InvalidArgument);
  EXPECT_NE(strstr(last_error_message(), "permutation"), nullptr);
  const SizesType negative[] = {2, -1};
  EXPECT_EQ(t.init(ScalarType::Float, negative, {}, nullptr, 0,
                   ShapeDynamism::Static),
            Error::InvalidArgument);
}

TEST(Tensor, RejectsSizesBeyond32BitStrides) {
  Tensor t;
  const SizesType huge[] = {0, 1 << 20, 1 << 20};
  EXPECT_EQ(t.init(ScalarType::Float, huge, {}, nullptr, 0, ShapeDynamism::Static),
            Error::NotSupported);
  EXPECT_NE(strstr(last_error_message(), "too large"), nullptr);
}

TEST(Tensor, ResizeRespectsDynamism) {
  float data[8];
  Tensor t;
  const SizesType bound[] = {8};
  ASSERT_EQ(t.init(ScalarType::Float, bound, {}, data, sizeof(data),
                   ShapeDynamism::DynamicBound),
            Error::Ok);
  const SizesType four[] = {4};
  EXPECT_EQ(t.resize(four), Error::Ok);
  EXPECT_EQ(t.numel(), 4u);
  const SizesType nine[] = {9};
  EXPECT_EQ(t.resize(nine), Error::InvalidArgument);
  EXPECT_NE(strstr(last_error_message(), "upper bound [8]"), nullptr)
      << last_error_message();
  EXPECT_EQ(t.numel(), 4u);

  Tensor s;
  ASSERT_EQ(s.init(ScalarType::Float, bound, {}, data, sizeof(data),
                   ShapeDynamism::Static),
            Error::Ok);
  EXPECT_EQ(s.resize(four), Error::InvalidArgument);
  EXPECT_EQ(s.resize(bound), Error::Ok);
}

TEST(MemoryAllocator, AlignsAndRunsOut) {
  alignas(16) uint8_t buffer[64];
  MemoryAllocator a(buffer, sizeof(buffer));
  void* p = a.allocate(3);
  ASSERT_NE(p, nullptr);
  void* q = a.allocate(8);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % 16, 0u);
  EXPECT_EQ(a.allocate(64), nullptr);
  EXPECT_EQ(a.allocate(4, 3), nullptr);
  EXPECT_EQ(a.allocate_array<int64_t>(SIZE_MAX / 4), nullptr);
}

TEST(PlannedMemory, ChecksRanges) {
  uint8_t b0[32];
  Span<uint8_t> buffers[] = {Span<uint8_t>(b0, sizeof(b0))};
  PlannedMemory planned(Span<Span<uint8_t>>(buffers, 1));
  auto ok = planned.address(1, 16, 16);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, static_cast<void*>(b0 + 16));
  EXPECT_FALSE(planned.address(1, 17, 16).ok());
  EXPECT_FALSE(planned.address(0, 0, 1).ok());
  EXPECT_FALSE(planned.address(2, 0, 1).ok());
  EXPECT_FALSE(planned.address(1, UINT64_MAX, 2).ok());
}

TEST(Error, ContextIsPrepended) {
  fail(Error::InvalidType, "dtype Long, expected Float");
  add_context(Error::InvalidType, "instruction %d (%s)", 7, "aten::add.out");
  EXPECT_STREQ(last_error_message(),
               "instruction 7 (aten::add.out): dtype Long, expected Float");
  EXPECT_EQ(last_error_code(), Error::InvalidType);
}

TEST(EValue, IntListIsBoxed) {
  EValue a = EValue::from_int(3);
  EValue b = EValue::from_int(4);
  EValue* items[] = {&a, &b};
  int64_t scratch[2];
  EValue list;
  list.tag = Tag::IntList;
  list.payload.as_int_list = {items, scratch, 2};
  Span<const int64_t> values;
  ASSERT_EQ(read_int_list(list, &values), Error::Ok);
  EXPECT_EQ(values[1], 4);
  b = EValue::from_int(9);
  ASSERT_EQ(read_int_list(list, &values), Error::Ok);
  EXPECT_EQ(values[1], 9);
  b = EValue::from_double(1.0);
  EXPECT_EQ(read_int_list(list, &values), Error::InvalidType);
}

}  // namespace
}  // namespace tri
