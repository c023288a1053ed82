// FlatTensorDataMap against the real `.ptd` files of the corpus (both FT01
// layouts) and against hostile copies of them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cpp/formats/pte/flat_tensor/flat_tensor_data_map.h"
#include "cpp/formats/pte/schema/flat_tensor_generated.h"
#include "cpp/formats/pte/schema/flat_tensor_v0_generated.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/named_data_map.h"
#include "tests/cpp/support/hostile_bytes.h"
#include "tests/cpp/support/shared_corpus.h"

namespace {

using tri::ByteSpan;
using tri::Error;
using tri::Span;
using tri::pte::FlatTensorDataMap;
using tri::pte::FlatTensorLayout;
using namespace tri::testing;  // corpus and hostile-bytes helpers

// Current layout; keys a, b (float32 [2,2]); the model computes x * a + b.
constexpr const char* kBarakugavPtd =
    "pte/barakugav__executorch-rs/"
    "examples__data_map__model___default_external_constant.ptd";
// Current layout; the four parameters of a 2-10-2 MLP.
constexpr const char* kXorPtd =
    "pte/pytorch__executorch/"
    "extension__android__executorch_android__src__androidTest__resources__xor."
    "ptd";
// First (early 2025) layout: tensors[] with offsets inside one segment.
constexpr const char* kLinearPtd =
    "pte/pytorch__executorch/extension__module__test__resources__linear.ptd";
constexpr const char* kSomePte =
    "pte/barakugav__executorch-rs/examples__models__add.pte";

// Reads everything a loaded map offers, so that ASan sees every byte of
// every view it hands out.
void touch_everything(const FlatTensorDataMap& map) {
  uint32_t sum = 0;
  for (size_t i = 0; i < map.size(); ++i) {
    auto k = map.key_at(i);
    ASSERT_TRUE(k.ok()) << tri::last_error_message();
    for (char c : k.get()) sum += static_cast<uint8_t>(c);
    auto data = map.get(k.get());
    ASSERT_TRUE(data.ok()) << tri::last_error_message();
    for (uint8_t b : data.get()) sum += b;
    auto layout = map.tensor_layout_at(i);
    if (layout.ok()) {
      for (int32_t s : layout->sizes) sum += static_cast<uint32_t>(s);
      for (uint8_t d : layout->dim_order) sum += d;
    } else {
      EXPECT_EQ(layout.error(), Error::NotFound);
    }
  }
  (void)sum;
}

TEST(FlatTensorDataMap, BarakugavCurrentLayoutKeysAndValues) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBarakugavPtd);
  ASSERT_EQ(file.size(), 336u);
  auto map = FlatTensorDataMap::load(span_of(file));
  ASSERT_TRUE(map.ok()) << tri::last_error_message();
  EXPECT_EQ(map->layout(), FlatTensorLayout::NamedData);
  EXPECT_EQ(map->version(), 0u);
  EXPECT_EQ(map->header().header_length, 40u);
  EXPECT_EQ(map->header().flatbuffer_offset, 48u);
  EXPECT_EQ(map->header().flatbuffer_size, 256u);
  EXPECT_EQ(map->header().segment_base_offset, 304u);
  EXPECT_EQ(map->header().segment_data_size, 32u);

  ASSERT_EQ(map->size(), 2u);
  EXPECT_EQ(str(map->key_at(0).get()), "a");
  EXPECT_EQ(str(map->key_at(1).get()), "b");

  auto a = map->get(span_of("a"));
  auto b = map->get(span_of("b"));
  ASSERT_TRUE(a.ok() && b.ok()) << tri::last_error_message();
  // Zero copy: views into the file, at the segment base.
  EXPECT_EQ(a->data(), file.data() + 304);
  EXPECT_EQ(b->data(), file.data() + 320);
  EXPECT_EQ(map->file_offset_at(1).get(), 320u);
  EXPECT_EQ(values_of<float>(a.get()), (std::vector<float>{3, 3, 3, 3}));
  EXPECT_EQ(values_of<float>(b.get()), (std::vector<float>{2, 2, 2, 2}));

  for (const char* name : {"a", "b"}) {
    auto layout = map->tensor_layout(span_of(name));
    ASSERT_TRUE(layout.ok()) << tri::last_error_message();
    EXPECT_EQ(layout->dtype, tri::ScalarType::Float);
    ASSERT_EQ(layout->sizes.size(), 2u);
    EXPECT_EQ(layout->sizes[0], 2);
    EXPECT_EQ(layout->sizes[1], 2);
    ASSERT_EQ(layout->dim_order.size(), 2u);
    EXPECT_EQ(layout->dim_order[0], 0);
    EXPECT_EQ(layout->dim_order[1], 1);
  }

  // The model (model.pte next to it) computes x * a + b = 3x + 2; with the
  // golden input [[1,2],[3,4]] that is [[5,8],[11,14]].
  const std::vector<float> x = {1, 2, 3, 4};
  const std::vector<float> av = values_of<float>(a.get());
  const std::vector<float> bv = values_of<float>(b.get());
  std::vector<float> y(4);
  for (size_t i = 0; i < 4; ++i) y[i] = x[i] * av[i] + bv[i];
  EXPECT_EQ(y, (std::vector<float>{5, 8, 11, 14}));
}

TEST(FlatTensorDataMap, XorCurrentLayoutKeysAndShapes) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kXorPtd);
  ASSERT_EQ(file.size(), 760u);
  auto map = FlatTensorDataMap::load(span_of(file));
  ASSERT_TRUE(map.ok()) << tri::last_error_message();
  EXPECT_EQ(map->layout(), FlatTensorLayout::NamedData);
  ASSERT_EQ(map->size(), 4u);

  struct Expected {
    const char* key;
    std::vector<int32_t> sizes;
  };
  const Expected expected[] = {
      {"net.linear.weight", {10, 2}},
      {"net.linear.bias", {10}},
      {"net.linear2.weight", {2, 10}},
      {"net.linear2.bias", {2}},
  };
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(expected[i].key);
    EXPECT_EQ(str(map->key_at(i).get()), expected[i].key);
    auto layout = map->tensor_layout(span_of(expected[i].key));
    ASSERT_TRUE(layout.ok()) << tri::last_error_message();
    EXPECT_EQ(layout->dtype, tri::ScalarType::Float);
    EXPECT_EQ(std::vector<int32_t>(layout->sizes.begin(), layout->sizes.end()),
              expected[i].sizes);
    auto data = map->get(span_of(expected[i].key));
    ASSERT_TRUE(data.ok()) << tri::last_error_message();
    size_t numel = 1;
    for (int32_t s : expected[i].sizes) numel *= static_cast<size_t>(s);
    EXPECT_EQ(data->size(), numel * sizeof(float));
    // Initial weights of a freshly built torch.nn.Linear: small and finite.
    for (float v : values_of<float>(data.get())) {
      EXPECT_TRUE(v > -1.0f && v < 1.0f) << v;
    }
  }
  // The bias of the second layer is the last 8 bytes of the file.
  EXPECT_EQ(map->get(span_of("net.linear2.bias"))->data(),
            file.data() + file.size() - 8);
}

TEST(FlatTensorDataMap, LinearEarlyLayoutKeysAndBytes) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kLinearPtd);
  ASSERT_EQ(file.size(), 336u);
  auto map = FlatTensorDataMap::load(span_of(file));
  ASSERT_TRUE(map.ok()) << tri::last_error_message();
  EXPECT_EQ(map->layout(), FlatTensorLayout::Tensors);
  EXPECT_EQ(map->tensor_alignment(), 16u);
  EXPECT_EQ(map->header().segment_base_offset, 272u);
  ASSERT_EQ(map->size(), 2u);
  EXPECT_EQ(str(map->key_at(0).get()), "linear.weight");
  EXPECT_EQ(str(map->key_at(1).get()), "linear.bias");

  auto weight = map->get(span_of("linear.weight"));
  ASSERT_TRUE(weight.ok()) << tri::last_error_message();
  EXPECT_EQ(weight->size(), 9 * sizeof(float));
  EXPECT_EQ(weight->data(), file.data() + 272);
  auto bias = map->get(span_of("linear.bias"));
  ASSERT_TRUE(bias.ok()) << tri::last_error_message();
  EXPECT_EQ(bias->size(), 3 * sizeof(float));
  EXPECT_EQ(bias->data(), file.data() + 272 + 48);  // offset 48 in segment 0
  // First element of each, as stored in the file.
  const uint8_t weight0[] = {0x97, 0x51, 0x81, 0x3e};
  const uint8_t bias0[] = {0xb9, 0x3c, 0x82, 0x3e};
  EXPECT_EQ(std::memcmp(weight->data(), weight0, 4), 0);
  EXPECT_EQ(std::memcmp(bias->data(), bias0, 4), 0);

  auto layout = map->tensor_layout(span_of("linear.weight"));
  ASSERT_TRUE(layout.ok()) << tri::last_error_message();
  EXPECT_EQ(layout->dtype, tri::ScalarType::Float);
  ASSERT_EQ(layout->sizes.size(), 2u);
  EXPECT_EQ(layout->sizes[0], 3);
  EXPECT_EQ(layout->sizes[1], 3);
}

TEST(FlatTensorDataMap, UnknownKeyIsNotFoundNamingTheKey) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBarakugavPtd);
  auto map = FlatTensorDataMap::load(span_of(file));
  ASSERT_TRUE(map.ok()) << tri::last_error_message();
  auto missing = map->get(span_of("encoder.missing_weight"));
  ASSERT_FALSE(missing.ok());
  expect_error(missing.error(), Error::NotFound,
               {"key 'encoder.missing_weight' not found"});
  // A key that is a prefix of, or longer than, a stored one is not a match.
  EXPECT_EQ(map->get(span_of("")).error(), Error::NotFound);
  EXPECT_EQ(map->get(span_of("ab")).error(), Error::NotFound);
  expect_error(map->tensor_layout(span_of("zz")).error(), Error::NotFound,
               {"'zz'"});

  auto out_of_range = map->key_at(2);
  ASSERT_FALSE(out_of_range.ok());
  expect_error(out_of_range.error(), Error::InvalidArgument, {"index 2"});
}

TEST(FlatTensorDataMap, WorksThroughTheNamedDataMapInterface) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> a_file = corpus_file(kBarakugavPtd);
  const std::vector<uint8_t> xor_file = corpus_file(kXorPtd);
  auto a_map = FlatTensorDataMap::load(span_of(a_file));
  auto xor_map = FlatTensorDataMap::load(span_of(xor_file));
  ASSERT_TRUE(a_map.ok() && xor_map.ok()) << tri::last_error_message();
  const tri::NamedDataMap* maps[] = {&a_map.get(), &xor_map.get()};
  tri::NamedDataMapChain chain(maps, 2);
  EXPECT_EQ(chain.size(), 6u);
  EXPECT_EQ(str(chain.key_at(3).get()), "net.linear.bias");
  auto bias = chain.get(span_of("net.linear2.bias"));
  ASSERT_TRUE(bias.ok()) << tri::last_error_message();
  EXPECT_EQ(bias->size(), 8u);
  EXPECT_EQ(chain.get(span_of("nope")).error(), Error::NotFound);
}

// ---- Hostile input ----

TEST(FlatTensorDataMapHostile, EveryTruncationFailsCleanly) {
  TRI_REQUIRE_SHARED();
  for (const char* path : {kBarakugavPtd, kXorPtd, kLinearPtd}) {
    SCOPED_TRACE(path);
    const std::vector<uint8_t> file = corpus_file(path);
    ASSERT_NO_FATAL_FAILURE(
        expect_every_truncation_fails<FlatTensorDataMap>(file));
  }
  const std::vector<uint8_t> file = corpus_file(kBarakugavPtd);
  expect_load_error<FlatTensorDataMap>(
      std::vector<uint8_t>(file.begin(), file.begin() + 20),
      Error::InvalidArgument, {"20 bytes", "too small"});
  expect_load_error<FlatTensorDataMap>(
      std::vector<uint8_t>(file.begin(), file.begin() + 320),
      Error::InvalidExternalData,
      {"segment data", "past the end", "320-byte file"});
  expect_load_error<FlatTensorDataMap>(
      std::vector<uint8_t>(file.begin(), file.begin() + 200),
      Error::InvalidExternalData, {"flatbuffer", "past the end", "truncated"});
}

TEST(FlatTensorDataMapHostile, WrongIdentifierOrHeaderMagic) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBarakugavPtd);
  std::vector<uint8_t> bad = file;
  std::memcpy(bad.data() + 4, "XT01", 4);
  expect_load_error<FlatTensorDataMap>(
      bad, Error::InvalidExternalData,
      {"identifier 'XT01'", "expected 'FT01'"});
  bad = file;
  std::memcpy(bad.data() + 4, "FT02", 4);
  expect_load_error<FlatTensorDataMap>(bad, Error::NotSupported,
                                       {"'FT02'", "not supported"});
  bad = file;
  std::memcpy(bad.data() + 8, "\x01\x02zz", 4);
  expect_load_error<FlatTensorDataMap>(bad, Error::InvalidExternalData,
                                       {"FH01", "'..zz'"});
  // A .pte is not a .ptd.
  expect_load_error<FlatTensorDataMap>(
      corpus_file(kSomePte), Error::InvalidExternalData, {"identifier 'ET12'"});
}

TEST(FlatTensorDataMapHostile, HeaderFieldsOutOfRange) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBarakugavPtd);
  std::vector<uint8_t> bad = file;
  put_u32(bad, 12, 16);  // header length
  expect_load_error<FlatTensorDataMap>(bad, Error::InvalidExternalData,
                                       {"header length 16", "less than"});
  bad = file;
  put_u32(bad, 12, 0xFFFFFFF0u);
  expect_load_error<FlatTensorDataMap>(bad, Error::InvalidExternalData,
                                       {"header length", "past the end"});
  bad = file;
  put_u64(bad, 24, uint64_t{1} << 40);  // flatbuffer_size
  expect_load_error<FlatTensorDataMap>(
      bad, Error::InvalidExternalData,
      {"flatbuffer [offset 48, size 1099511627776)",
       "past the end of the 336-byte file"});
  bad = file;
  put_u64(bad, 24, UINT64_MAX);  // offset + size overflows
  expect_load_error<FlatTensorDataMap>(bad, Error::InvalidExternalData,
                                       {"past the end"});
  bad = file;
  put_u64(bad, 16, 4);  // flatbuffer_offset inside the header
  expect_load_error<FlatTensorDataMap>(
      bad, Error::InvalidExternalData,
      {"flatbuffer_offset 4", "inside the header"});
  bad = file;
  put_u64(bad, 40, 1000);  // segment_data_size
  expect_load_error<FlatTensorDataMap>(
      bad, Error::InvalidExternalData,
      {"segment data [offset 304, size 1000)", "past the end"});
  bad = file;
  put_u64(bad, 32, UINT64_MAX - 8);  // segment_base_offset
  expect_load_error<FlatTensorDataMap>(bad, Error::InvalidExternalData,
                                       {"segment data", "past the end"});
  bad = file;
  put_u64(bad, 32, 100);  // segment base inside the flatbuffer
  expect_load_error<FlatTensorDataMap>(
      bad, Error::InvalidExternalData,
      {"segment_base_offset 100", "overlaps the flatbuffer"});
}

TEST(FlatTensorDataMapHostile, FlatbufferOffsetsOutOfRange) {
  TRI_REQUIRE_SHARED();
  std::vector<uint8_t> bad = corpus_file(kBarakugavPtd);
  put_u32(bad, 0, 0x7FFFFF00u);  // root offset
  expect_load_error<FlatTensorDataMap>(
      bad, Error::InvalidExternalData,
      {"fails verification", "both known layouts"});
}

TEST(FlatTensorDataMapHostile, SegmentIndexOutOfRange) {
  TRI_REQUIRE_SHARED();
  std::vector<uint8_t> bad = corpus_file(kBarakugavPtd);
  const auto* root = flat_tensor_flatbuffer::GetFlatTensor(bad.data());
  const auto* b = root->named_data()->Get(1);
  ASSERT_EQ(b->key()->str(), "b");
  put_u32(bad,
          field_offset(bad, b, flat_tensor_flatbuffer::NamedData::VT_SEGMENT_INDEX),
          7);
  expect_load_error<FlatTensorDataMap>(
      bad, Error::InvalidExternalData,
      {"named_data[1] (key 'b')", "segment_index 7", "out of range",
       "2 segments"});
}

TEST(FlatTensorDataMapHostile, SegmentPastTheEnd) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBarakugavPtd);
  const auto* seg1 =
      flat_tensor_flatbuffer::GetFlatTensor(file.data())->segments()->Get(1);
  const size_t size_at =
      field_offset(file, seg1, flat_tensor_flatbuffer::DataSegment::VT_SIZE);
  const size_t offset_at =
      field_offset(file, seg1, flat_tensor_flatbuffer::DataSegment::VT_OFFSET);

  std::vector<uint8_t> bad = file;
  put_u64(bad, size_at, 4096);
  expect_load_error<FlatTensorDataMap>(
      bad, Error::InvalidExternalData,
      {"segments[1] [offset 16, size 4096)", "past the 32 bytes",
       "file offset 304"});
  bad = file;
  put_u64(bad, offset_at, UINT64_MAX - 4);  // offset + size overflows
  expect_load_error<FlatTensorDataMap>(bad, Error::InvalidExternalData,
                                       {"segments[1]", "past"});
}

TEST(FlatTensorDataMapHostile, TensorLayoutLargerThanItsSegment) {
  TRI_REQUIRE_SHARED();
  std::vector<uint8_t> bad = corpus_file(kBarakugavPtd);
  const auto* a =
      flat_tensor_flatbuffer::GetFlatTensor(bad.data())->named_data()->Get(0);
  const size_t sizes_at =
      static_cast<size_t>(reinterpret_cast<const uint8_t*>(
                              a->tensor_layout()->sizes()->data()) -
                          bad.data());
  put_u32(bad, sizes_at + 4, 2000);  // [2, 2] -> [2, 2000]
  expect_load_error<FlatTensorDataMap>(
      bad, Error::InvalidExternalData,
      {"named_data[0] (key 'a')", "needs 16000 bytes", "segment 0 holds 16"});
  put_u32(bad, sizes_at + 4, 0xFFFFFFFFu);  // [2, -1]
  expect_load_error<FlatTensorDataMap>(bad, Error::InvalidExternalData,
                                       {"key 'a'", "negative or overflow"});
}

TEST(FlatTensorDataMapHostile, EarlyLayoutTensorPastItsSegment) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kLinearPtd);
  const auto* bias =
      flat_tensor_v0_flatbuffer::GetFlatTensor(file.data())->tensors()->Get(1);
  ASSERT_EQ(bias->fully_qualified_name()->str(), "linear.bias");

  std::vector<uint8_t> bad = file;
  put_u64(bad,
          field_offset(file, bias,
                       flat_tensor_v0_flatbuffer::TensorMetadata::VT_OFFSET),
          60);
  expect_load_error<FlatTensorDataMap>(
      bad, Error::InvalidExternalData,
      {"tensors[1] (key 'linear.bias')", "[offset 60, size 12)",
       "extend past segment 0"});

  bad = file;
  bad[field_offset(file, bias,
                   flat_tensor_v0_flatbuffer::TensorMetadata::VT_SCALAR_TYPE)] =
      99;
  expect_load_error<FlatTensorDataMap>(bad, Error::InvalidExternalData,
                                       {"key 'linear.bias'", "scalar_type 99"});
}

TEST(FlatTensorDataMapHostile, MisalignedBytesAreRefused) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBarakugavPtd);
  std::vector<uint8_t> storage(file.size() + 8);
  std::memcpy(storage.data() + 1, file.data(), file.size());
  expect_load_error<FlatTensorDataMap>(
      ByteSpan(storage.data() + 1, file.size()), Error::InvalidArgument,
      {"aligned"});
}

// Every single-byte corruption either loads (and then every view it hands out
// is inside the file) or fails with a message. Never a crash.
TEST(FlatTensorDataMapHostile, SingleByteCorruptionsNeverCrash) {
  TRI_REQUIRE_SHARED();
  for (const char* path : {kBarakugavPtd, kXorPtd, kLinearPtd}) {
    SCOPED_TRACE(path);
    const std::vector<uint8_t> file = corpus_file(path);
    CorruptionCounts counts;
    ASSERT_NO_FATAL_FAILURE(corrupt_every_byte<FlatTensorDataMap>(
        file, {0x01, 0x80, 0xFF},
        [](const FlatTensorDataMap& map, const std::vector<uint8_t>& bad) {
          touch_everything(map);
          for (size_t k = 0; k < map.size(); ++k) {
            ByteSpan data = map.data_at(k).get();
            ASSERT_GE(data.data(), bad.data());
            ASSERT_LE(data.data() + data.size(), bad.data() + bad.size());
          }
        },
        &counts));
    EXPECT_GT(counts.refused, 0u);
    EXPECT_GT(counts.loaded, 0u);  // e.g. flips inside the tensor data
  }
}

}  // namespace
