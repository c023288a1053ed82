// The shared kernel helpers: promotion, half conversion, broadcasting,
// NdIter, dims.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "cpp/kernels/util/broadcast.h"
#include "cpp/kernels/util/cast.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/nd_iter.h"
#include "cpp/kernels/util/scratch_size.h"
#include "cpp/kernels/util/type_promotion.h"
#include "tests/cpp/support/tensor_factory.h"

namespace tri {
namespace {

using ST = ScalarType;

// ScratchSize counts what MemoryAllocator hands out: blocks of the same
// counts always fit in the bytes it reports, whatever the buffer's start.
TEST(ScratchSize, BlocksFitInTheBytesItCounts) {
  ScratchSize size;
  size.add<float>(3).add<double>(0).add<int64_t>(5).add<uint8_t>(1);
  std::vector<uint8_t> buffer(size.bytes() + 64);
  for (size_t start = 0; start < 64; ++start) {
    MemoryAllocator temp(buffer.data() + start, size.bytes());
    EXPECT_NE(temp.allocate_array<float>(3), nullptr) << start;
    EXPECT_NE(temp.allocate_array<double>(0), nullptr) << start;
    EXPECT_NE(temp.allocate_array<int64_t>(5), nullptr) << start;
    EXPECT_NE(temp.allocate_array<uint8_t>(1), nullptr) << start;
    EXPECT_FALSE(temp.exhausted()) << start;
  }
}

TEST(ScratchSize, NegativeCountsAddNothingAndHugeOnesSaturate) {
  EXPECT_EQ(ScratchSize().add<float>(-5).bytes(), 0u);
  const size_t huge = ScratchSize().add<double>(INT64_MAX).add<float>(INT64_MAX).bytes();
  EXPECT_EQ(huge, SIZE_MAX / 2);
  EXPECT_GT(ScratchSize().add<float>(1).bytes(), sizeof(float));
}

TEST(TypePromotion, MatchesPromoteTypesTable) {
  struct Case {
    ST a, b, expected;
  };
  // Checked against torch.promote_types.
  const Case cases[] = {
      {ST::Byte, ST::Char, ST::Short},    {ST::Byte, ST::Bool, ST::Byte},     {ST::Char, ST::Bool, ST::Char},
      {ST::Int, ST::Long, ST::Long},      {ST::Long, ST::Half, ST::Half},     {ST::Half, ST::BFloat16, ST::Float},
      {ST::BFloat16, ST::Int, ST::BFloat16}, {ST::Float, ST::Double, ST::Double}, {ST::Bool, ST::Bool, ST::Bool},
      {ST::Short, ST::Byte, ST::Short},   {ST::Half, ST::Float, ST::Float},   {ST::Bool, ST::Double, ST::Double},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(promote_types(c.a, c.b), c.expected) << scalar_type_name(c.a) << "+" << scalar_type_name(c.b);
    EXPECT_EQ(promote_types(c.b, c.a), c.expected);
  }
  EXPECT_EQ(promote_types(ST::UInt16, ST::Int), kUndefinedType);
  EXPECT_EQ(promote_types(ST::UInt16, ST::Bool), ST::UInt16);
}

TEST(TypePromotion, CanCast) {
  EXPECT_TRUE(can_cast(ST::Int, ST::Float));
  EXPECT_TRUE(can_cast(ST::Bool, ST::Long));
  EXPECT_FALSE(can_cast(ST::Float, ST::Long));
  EXPECT_FALSE(can_cast(ST::Int, ST::Bool));
  EXPECT_FALSE(can_cast(ST::Half, ST::Char));
  EXPECT_TRUE(can_cast(ST::Double, ST::Half));
}

TEST(TypePromotion, ResultTypeWithScalars) {
  testing::TensorFactory tf;
  auto scalar = [](Tag tag) {
    Scalar s;
    s.tag = tag;
    return s;
  };
  struct Case {
    ST tensor;
    std::vector<SizesType> sizes;
    Tag scalar;
    ST expected;
  };
  const Case cases[] = {
      {ST::Int, {2}, Tag::Double, ST::Float},   {ST::Byte, {2}, Tag::Int, ST::Byte},
      {ST::Bool, {2}, Tag::Int, ST::Long},      {ST::Bool, {2}, Tag::Bool, ST::Bool},
      {ST::Half, {2}, Tag::Double, ST::Half},   {ST::Double, {}, Tag::Double, ST::Double},
      {ST::Long, {}, Tag::Double, ST::Float},   {ST::Char, {2}, Tag::Double, ST::Float},
  };
  for (const Case& c : cases) {
    ScalarType r;
    ASSERT_EQ(ResultType().add(*tf.zeros(c.tensor, c.sizes)).add(scalar(c.scalar)).get(&r), Error::Ok);
    EXPECT_EQ(r, c.expected) << scalar_type_name(c.tensor) << " with " << tag_name(c.scalar);
  }
}

TEST(Cast, HalfAndBFloat16RoundTrip) {
  const float values[] = {0.f, -0.f, 1.f, -2.5f, 65504.f, 6.1035156e-05f, 5.9604645e-08f, 0.1f};
  for (float v : values) {
    EXPECT_EQ(half_to_float(float_to_half(v)), cast_value<float>(cast_value<Half>(v)));
  }
  EXPECT_EQ(float_to_half(1.f).bits, 0x3c00);
  EXPECT_EQ(float_to_half(65520.f).bits, 0x7c00);     // rounds to inf
  EXPECT_EQ(float_to_half(5.9604645e-08f).bits, 0x0001);  // smallest subnormal
  EXPECT_EQ(float_to_half(2.9802322e-08f).bits, 0x0000);  // ties to even: 0
  EXPECT_EQ(float_to_half(1.00048828125f).bits, 0x3c00);  // tie, even stays
  EXPECT_EQ(float_to_half(1.00146484375f).bits, 0x3c02);  // tie, odd rounds up
  EXPECT_TRUE(std::isnan(half_to_float(float_to_half(NAN))));
  EXPECT_EQ(half_to_float(Half{0x7c00}), INFINITY);
  EXPECT_EQ(float_to_bfloat16(1.f).bits, 0x3f80);
  EXPECT_EQ(bfloat16_to_float(float_to_bfloat16(3.140625f)), 3.140625f);
  EXPECT_EQ(cast_value<int8_t>(300.7), 44);  // wraps like ATen on x86
  EXPECT_EQ(cast_value<int32_t>(NAN), 0);
  EXPECT_EQ(cast_value<bool>(0.5f), true);
  EXPECT_EQ(cast_value<uint8_t>(int64_t{-1}), 255);
}

TEST(Broadcast, ShapesAndErrors) {
  const SizesType a[] = {2, 1, 3};
  const SizesType b[] = {4, 1};
  SizesType out[kTensorDimLimit];
  int32_t dim = 0;
  ASSERT_EQ(broadcast_shapes(a, b, out, &dim), Error::Ok);
  EXPECT_EQ(dim, 3);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], 4);
  EXPECT_EQ(out[2], 3);
  const SizesType c[] = {2, 3};
  const SizesType d[] = {4};
  EXPECT_EQ(broadcast_shapes(c, d, out, &dim), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("shapes [2, 3] and [4] cannot be broadcast together (dim 1: 3 vs 4)"),
            std::string::npos);
}

TEST(NdIter, CoalescesContiguousIntoOneRow) {
  TensorView v;
  v.type = ST::Float;
  v.dim = 3;
  const int64_t shape[] = {2, 3, 4};
  for (int d = 0; d < 3; ++d) v.sizes[d] = shape[d];
  row_major_strides(v.sizes, 3, v.strides);
  const TensorView* ops[] = {&v, &v};
  const NdIter it(shape, 3, ops, 2);
  int rows = 0;
  it.for_each_row([&](char* const*, const int64_t* s, int64_t n) {
    ++rows;
    EXPECT_EQ(n, 24);
    EXPECT_EQ(s[0], 4);
  });
  EXPECT_EQ(rows, 1);
}

TEST(NdIter, BroadcastOperandGetsStrideZero) {
  TensorView out;
  out.type = ST::Float;
  out.dim = 2;
  out.sizes[0] = 3;
  out.sizes[1] = 5;
  row_major_strides(out.sizes, 2, out.strides);
  TensorView row = out;
  row.dim = 1;
  row.sizes[0] = 5;
  row.strides[0] = 1;
  TensorView col = out;
  col.sizes[1] = 1;
  col.strides[0] = 1;
  // The walk advances real pointers (arithmetic on null would be UB).
  float out_data[15], row_data[5], col_data[3];
  out.data = out_data;
  row.data = row_data;
  col.data = col_data;
  const TensorView* ops[] = {&out, &row, &col};
  const NdIter it(out.sizes, 2, ops, 3);
  int rows = 0;
  it.for_each_row([&](char* const*, const int64_t* s, int64_t n) {
    ++rows;
    EXPECT_EQ(n, 5);
    EXPECT_EQ(s[1], 4);
    EXPECT_EQ(s[2], 0);
  });
  EXPECT_EQ(rows, 3);
}

TEST(Dims, Normalize) {
  int32_t d = -1;
  EXPECT_EQ(normalize_dim(-1, 3, &d), Error::Ok);
  EXPECT_EQ(d, 2);
  EXPECT_EQ(normalize_dim(0, 0, &d), Error::Ok);  // rank 0 accepts 0 and -1
  EXPECT_EQ(normalize_dim(-1, 0, &d), Error::Ok);
  EXPECT_EQ(normalize_dim(3, 3, &d), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("[-3, 2], but got 3"), std::string::npos);
}


// load_row / store_row (chained and strided paths included) must convert
// exactly like cast_value, for every dtype pair and awkward values.
template <typename C>
void check_rows_match_cast_value() {
  const double values[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 2.9, -2.9, 127.0, 128.0, 255.0, 256.0,
                           -129.0, 300.7, 65504.0, 65520.0, 1e10, -1e10, 3.0e38, 1e300,
                           9.2233720368547758e18, 1.8446744073709552e19, -9.3e18, 1.00390625,
                           5.9604645e-08, NAN, INFINITY, -INFINITY};
  constexpr int64_t n = sizeof(values) / sizeof(values[0]);
  for (int32_t code = 0; code < 32; ++code) {
    if (!dtype_in(static_cast<ScalarType>(code), kAllTypes)) continue;
    const ScalarType type = static_cast<ScalarType>(code);
    (void)dispatch_storage<kAllTypes>(type, [&](auto tag) {
      using S = typename decltype(tag)::type;
      // Loads: contiguous, strided (every other element) and broadcast.
      S src[n];
      for (int64_t i = 0; i < n; ++i) src[i] = cast_value<S>(values[i]);
      S strided[2 * n];
      for (int64_t i = 0; i < n; ++i) strided[2 * i] = cast_value<S>(values[i]);
      C got[n], got_strided[n], got_one[n];
      load_row<C>(type, src, sizeof(S), n, got);
      load_row<C>(type, strided, 2 * sizeof(S), n, got_strided);
      load_row<C>(type, &src[3], 0, n, got_one);
      for (int64_t i = 0; i < n; ++i) {
        const C want = cast_value<C>(cast_value<S>(values[i]));
        EXPECT_EQ(std::memcmp(&got[i], &want, sizeof(C)), 0) << scalar_type_name(type) << " value " << values[i];
        EXPECT_EQ(std::memcmp(&got_strided[i], &want, sizeof(C)), 0) << scalar_type_name(type) << " strided";
        const C want3 = cast_value<C>(cast_value<S>(values[3]));
        EXPECT_EQ(std::memcmp(&got_one[i], &want3, sizeof(C)), 0) << scalar_type_name(type) << " broadcast";
      }
      // Stores: contiguous and strided.
      C in[n];
      for (int64_t i = 0; i < n; ++i) in[i] = cast_value<C>(values[i]);
      S out[n], out_strided[2 * n];
      store_row<C>(type, in, out, sizeof(S), n);
      store_row<C>(type, in, out_strided, 2 * sizeof(S), n);
      for (int64_t i = 0; i < n; ++i) {
        const S want = cast_value<S>(in[i]);
        EXPECT_EQ(std::memcmp(&out[i], &want, sizeof(S)), 0) << scalar_type_name(type) << " from value " << values[i];
        EXPECT_EQ(std::memcmp(&out_strided[2 * i], &want, sizeof(S)), 0) << scalar_type_name(type) << " strided";
      }
      return Error::Ok;
    });
  }
}

TEST(Convert, RowsMatchCastValue) {
  check_rows_match_cast_value<int64_t>();
  check_rows_match_cast_value<float>();
  check_rows_match_cast_value<double>();
  // bool results (comparisons) into every dtype.
  const bool flags[] = {true, false, true};
  for (ScalarType type : {ScalarType::Bool, ScalarType::Byte, ScalarType::Int, ScalarType::Long,
                          ScalarType::Half, ScalarType::Float, ScalarType::Double}) {
    double back[3];
    unsigned char buf[3 * 8];
    store_row<bool>(type, flags, buf, static_cast<int64_t>(element_size(type)), 3);
    load_row<double>(type, buf, static_cast<int64_t>(element_size(type)), 3, back);
    EXPECT_EQ(back[0], 1.0) << scalar_type_name(type);
    EXPECT_EQ(back[1], 0.0) << scalar_type_name(type);
  }
}

TEST(Convert, WrapAndScalars) {
  int64_t v[] = {200, -129, 65536 + 5, 2};
  wrap_to_dtype(ScalarType::Char, v, 4);
  EXPECT_EQ(v[0], -56);
  EXPECT_EQ(v[1], 127);
  EXPECT_EQ(v[2], 5);
  wrap_to_dtype(ScalarType::Bool, v, 4);
  EXPECT_EQ(v[0], 1);
  EXPECT_FALSE(needs_wrap(ScalarType::Byte, ScalarType::Short));
  EXPECT_TRUE(needs_wrap(ScalarType::Int, ScalarType::Char));
  EXPECT_FALSE(needs_wrap(ScalarType::Int, ScalarType::Long));
  Scalar s;
  s.i = -1;
  EXPECT_EQ(scalar_to_int_in(s, ScalarType::Byte), 255);
  s.tag = Tag::Double;
  s.d = 0.5;
  EXPECT_EQ(scalar_to_int_in(s, ScalarType::Bool), 1);  // Bool: non-zero is true
  EXPECT_EQ(scalar_as<float>(s, ScalarType::Half), 0.5f);
}

}  // namespace
}  // namespace tri
