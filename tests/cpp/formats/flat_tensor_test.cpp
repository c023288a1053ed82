// FlatTensorDataMap against the real `.ptd` files of the corpus (both FT01
// layouts) and against hostile copies of them.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cpp/formats/pte/flat_tensor/flat_tensor_data_map.h"
#include "cpp/formats/pte/schema/flat_tensor_generated.h"
#include "cpp/formats/pte/schema/flat_tensor_v0_generated.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/named_data_map.h"

namespace {

using tri::ByteSpan;
using tri::Error;
using tri::Span;
using tri::pte::FlatTensorDataMap;
using tri::pte::FlatTensorLayout;

// Current layout; keys a, b (float32 [2,2]); the model computes x * a + b.
constexpr const char* kBarakugavPtd =
    "barakugav__executorch-rs/"
    "examples__data_map__model___default_external_constant.ptd";
// Current layout; the four parameters of a 2-10-2 MLP.
constexpr const char* kXorPtd =
    "pytorch__executorch/"
    "extension__android__executorch_android__src__androidTest__resources__xor."
    "ptd";
// First (early 2025) layout: tensors[] with offsets inside one segment.
constexpr const char* kLinearPtd =
    "pytorch__executorch/extension__module__test__resources__linear.ptd";
constexpr const char* kSomePte = "barakugav__executorch-rs/examples__models__add.pte";

std::string corpus_dir() {
  return std::string(TRIDENT_SOURCE_DIR) + "/../shared/corpus/pte/";
}

bool corpus_present() {
  struct stat st;
  return stat(corpus_dir().c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

// Skips the test when ../shared is absent, except on CI where it must exist.
#define REQUIRE_CORPUS()                                                    \
  do {                                                                      \
    if (!corpus_present()) {                                                \
      if (in_ci()) {                                                        \
        FAIL() << "corpus missing at " << corpus_dir() << " (CI=true)";     \
      }                                                                     \
      GTEST_SKIP() << "corpus not found at " << corpus_dir();               \
    }                                                                       \
  } while (0)

std::vector<uint8_t> read_corpus(const char* relative) {
  std::ifstream in(corpus_dir() + relative, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << corpus_dir() + relative;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                              std::istreambuf_iterator<char>());
}

ByteSpan span_of(const std::vector<uint8_t>& bytes) {
  return ByteSpan(bytes.data(), bytes.size());
}

Span<const char> key(const char* text) {
  return Span<const char>(text, std::strlen(text));
}

std::string str(Span<const char> s) { return std::string(s.data(), s.size()); }

std::vector<float> floats(ByteSpan bytes) {
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  return out;
}

// Offset in `buffer` of field `vt` of a flatbuffer table (which must be
// present), for building hostile variants.
template <typename T>
size_t field_offset(const std::vector<uint8_t>& buffer, const T* table,
                    uint16_t vt) {
  const uint8_t* p =
      reinterpret_cast<const flatbuffers::Table*>(table)->GetAddressOf(vt);
  EXPECT_NE(p, nullptr) << "field " << vt << " is absent";
  const bool inside =
      p != nullptr && p >= buffer.data() && p < buffer.data() + buffer.size();
  EXPECT_TRUE(inside) << "the table is not inside this buffer";
  return inside ? static_cast<size_t>(p - buffer.data()) : 0;
}

void put_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

void put_u64(std::vector<uint8_t>& b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// Loads `bytes`, expecting failure with `code` and every one of `parts` in
// the message.
void expect_load_error(const std::vector<uint8_t>& bytes, Error code,
                       std::initializer_list<const char*> parts) {
  tri::clear_error();
  auto map = FlatTensorDataMap::load(span_of(bytes));
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.error(), code) << tri::error_name(map.error()) << ": "
                               << tri::last_error_message();
  const std::string message = tri::last_error_message();
  for (const char* part : parts) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "message \"" << message << "\" lacks \"" << part << "\"";
  }
}

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
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBarakugavPtd);
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

  auto a = map->get(key("a"));
  auto b = map->get(key("b"));
  ASSERT_TRUE(a.ok() && b.ok()) << tri::last_error_message();
  // Zero copy: views into the file, at the segment base.
  EXPECT_EQ(a->data(), file.data() + 304);
  EXPECT_EQ(b->data(), file.data() + 320);
  EXPECT_EQ(map->file_offset_at(1).get(), 320u);
  EXPECT_EQ(floats(a.get()), (std::vector<float>{3, 3, 3, 3}));
  EXPECT_EQ(floats(b.get()), (std::vector<float>{2, 2, 2, 2}));

  for (const char* name : {"a", "b"}) {
    auto layout = map->tensor_layout(key(name));
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
  const std::vector<float> av = floats(a.get());
  const std::vector<float> bv = floats(b.get());
  std::vector<float> y(4);
  for (size_t i = 0; i < 4; ++i) y[i] = x[i] * av[i] + bv[i];
  EXPECT_EQ(y, (std::vector<float>{5, 8, 11, 14}));
}

TEST(FlatTensorDataMap, XorCurrentLayoutKeysAndShapes) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kXorPtd);
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
    auto layout = map->tensor_layout(key(expected[i].key));
    ASSERT_TRUE(layout.ok()) << tri::last_error_message();
    EXPECT_EQ(layout->dtype, tri::ScalarType::Float);
    EXPECT_EQ(std::vector<int32_t>(layout->sizes.begin(), layout->sizes.end()),
              expected[i].sizes);
    auto data = map->get(key(expected[i].key));
    ASSERT_TRUE(data.ok()) << tri::last_error_message();
    size_t numel = 1;
    for (int32_t s : expected[i].sizes) numel *= static_cast<size_t>(s);
    EXPECT_EQ(data->size(), numel * sizeof(float));
    // Initial weights of a freshly built torch.nn.Linear: small and finite.
    for (float v : floats(data.get())) {
      EXPECT_TRUE(v > -1.0f && v < 1.0f) << v;
    }
  }
  // The bias of the second layer is the last 8 bytes of the file.
  EXPECT_EQ(map->get(key("net.linear2.bias"))->data(),
            file.data() + file.size() - 8);
}

TEST(FlatTensorDataMap, LinearEarlyLayoutKeysAndBytes) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kLinearPtd);
  ASSERT_EQ(file.size(), 336u);
  auto map = FlatTensorDataMap::load(span_of(file));
  ASSERT_TRUE(map.ok()) << tri::last_error_message();
  EXPECT_EQ(map->layout(), FlatTensorLayout::Tensors);
  EXPECT_EQ(map->tensor_alignment(), 16u);
  EXPECT_EQ(map->header().segment_base_offset, 272u);
  ASSERT_EQ(map->size(), 2u);
  EXPECT_EQ(str(map->key_at(0).get()), "linear.weight");
  EXPECT_EQ(str(map->key_at(1).get()), "linear.bias");

  auto weight = map->get(key("linear.weight"));
  ASSERT_TRUE(weight.ok()) << tri::last_error_message();
  EXPECT_EQ(weight->size(), 9 * sizeof(float));
  EXPECT_EQ(weight->data(), file.data() + 272);
  auto bias = map->get(key("linear.bias"));
  ASSERT_TRUE(bias.ok()) << tri::last_error_message();
  EXPECT_EQ(bias->size(), 3 * sizeof(float));
  EXPECT_EQ(bias->data(), file.data() + 272 + 48);  // offset 48 in segment 0
  // First element of each, as stored in the file.
  const uint8_t weight0[] = {0x97, 0x51, 0x81, 0x3e};
  const uint8_t bias0[] = {0xb9, 0x3c, 0x82, 0x3e};
  EXPECT_EQ(std::memcmp(weight->data(), weight0, 4), 0);
  EXPECT_EQ(std::memcmp(bias->data(), bias0, 4), 0);

  auto layout = map->tensor_layout(key("linear.weight"));
  ASSERT_TRUE(layout.ok()) << tri::last_error_message();
  EXPECT_EQ(layout->dtype, tri::ScalarType::Float);
  ASSERT_EQ(layout->sizes.size(), 2u);
  EXPECT_EQ(layout->sizes[0], 3);
  EXPECT_EQ(layout->sizes[1], 3);
}

TEST(FlatTensorDataMap, UnknownKeyIsNotFoundNamingTheKey) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBarakugavPtd);
  auto map = FlatTensorDataMap::load(span_of(file));
  ASSERT_TRUE(map.ok()) << tri::last_error_message();
  auto missing = map->get(key("encoder.missing_weight"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), Error::NotFound);
  EXPECT_NE(std::string(tri::last_error_message())
                .find("key 'encoder.missing_weight' not found"),
            std::string::npos)
      << tri::last_error_message();
  // A key that is a prefix of, or longer than, a stored one is not a match.
  EXPECT_EQ(map->get(key("")).error(), Error::NotFound);
  EXPECT_EQ(map->get(key("ab")).error(), Error::NotFound);
  EXPECT_EQ(map->tensor_layout(key("zz")).error(), Error::NotFound);
  EXPECT_NE(std::string(tri::last_error_message()).find("'zz'"),
            std::string::npos);

  auto out_of_range = map->key_at(2);
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_EQ(out_of_range.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(tri::last_error_message()).find("index 2"),
            std::string::npos)
      << tri::last_error_message();
}

TEST(FlatTensorDataMap, WorksThroughTheNamedDataMapInterface) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> a_file = read_corpus(kBarakugavPtd);
  const std::vector<uint8_t> xor_file = read_corpus(kXorPtd);
  auto a_map = FlatTensorDataMap::load(span_of(a_file));
  auto xor_map = FlatTensorDataMap::load(span_of(xor_file));
  ASSERT_TRUE(a_map.ok() && xor_map.ok()) << tri::last_error_message();
  const tri::NamedDataMap* maps[] = {&a_map.get(), &xor_map.get()};
  tri::NamedDataMapChain chain(maps, 2);
  EXPECT_EQ(chain.size(), 6u);
  EXPECT_EQ(str(chain.key_at(3).get()), "net.linear.bias");
  auto bias = chain.get(key("net.linear2.bias"));
  ASSERT_TRUE(bias.ok()) << tri::last_error_message();
  EXPECT_EQ(bias->size(), 8u);
  EXPECT_EQ(chain.get(key("nope")).error(), Error::NotFound);
}

TEST(FlatTensorDataMap, SniffsTheMagic) {
  REQUIRE_CORPUS();
  EXPECT_TRUE(FlatTensorDataMap::has_flat_tensor_magic(
      span_of(read_corpus(kLinearPtd))));
  EXPECT_FALSE(FlatTensorDataMap::has_flat_tensor_magic(
      span_of(read_corpus(kSomePte))));
  EXPECT_FALSE(FlatTensorDataMap::has_flat_tensor_magic(ByteSpan()));
}

// ---- Hostile input ----

TEST(FlatTensorDataMapHostile, EveryTruncationFailsCleanly) {
  REQUIRE_CORPUS();
  for (const char* path : {kBarakugavPtd, kXorPtd, kLinearPtd}) {
    SCOPED_TRACE(path);
    const std::vector<uint8_t> file = read_corpus(path);
    for (size_t n = 0; n < file.size(); ++n) {
      // A fresh allocation of exactly n bytes, so ASan catches any read past
      // the end.
      std::vector<uint8_t> cut(file.begin(), file.begin() + n);
      tri::clear_error();
      auto map = FlatTensorDataMap::load(span_of(cut));
      ASSERT_FALSE(map.ok()) << "loaded a " << n << "-byte prefix";
      ASSERT_STRNE(tri::last_error_message(), "") << n;
    }
  }
  const std::vector<uint8_t> file = read_corpus(kBarakugavPtd);
  expect_load_error(std::vector<uint8_t>(file.begin(), file.begin() + 20),
                    Error::InvalidArgument, {"20 bytes", "too small"});
  expect_load_error(std::vector<uint8_t>(file.begin(), file.begin() + 320),
                    Error::InvalidExternalData,
                    {"segment data", "past the end", "320-byte file"});
  expect_load_error(std::vector<uint8_t>(file.begin(), file.begin() + 200),
                    Error::InvalidExternalData,
                    {"flatbuffer", "past the end", "truncated"});
}

TEST(FlatTensorDataMapHostile, WrongIdentifierOrHeaderMagic) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBarakugavPtd);
  std::vector<uint8_t> bad = file;
  std::memcpy(bad.data() + 4, "XT01", 4);
  expect_load_error(bad, Error::InvalidExternalData,
                    {"identifier 'XT01'", "expected 'FT01'"});
  bad = file;
  std::memcpy(bad.data() + 4, "FT02", 4);
  expect_load_error(bad, Error::NotSupported, {"'FT02'", "not supported"});
  bad = file;
  std::memcpy(bad.data() + 8, "\x01\x02zz", 4);
  expect_load_error(bad, Error::InvalidExternalData, {"FH01", "'..zz'"});
  // A .pte is not a .ptd.
  expect_load_error(read_corpus(kSomePte), Error::InvalidExternalData,
                    {"identifier 'ET12'"});
}

TEST(FlatTensorDataMapHostile, HeaderFieldsOutOfRange) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBarakugavPtd);
  std::vector<uint8_t> bad = file;
  put_u32(bad, 12, 16);  // header length
  expect_load_error(bad, Error::InvalidExternalData,
                    {"header length 16", "less than"});
  bad = file;
  put_u32(bad, 12, 0xFFFFFFF0u);
  expect_load_error(bad, Error::InvalidExternalData,
                    {"header length", "past the end"});
  bad = file;
  put_u64(bad, 24, uint64_t{1} << 40);  // flatbuffer_size
  expect_load_error(bad, Error::InvalidExternalData,
                    {"flatbuffer [offset 48, size 1099511627776)",
                     "past the end of the 336-byte file"});
  bad = file;
  put_u64(bad, 24, UINT64_MAX);  // offset + size overflows
  expect_load_error(bad, Error::InvalidExternalData, {"past the end"});
  bad = file;
  put_u64(bad, 16, 4);  // flatbuffer_offset inside the header
  expect_load_error(bad, Error::InvalidExternalData,
                    {"flatbuffer_offset 4", "inside the header"});
  bad = file;
  put_u64(bad, 40, 1000);  // segment_data_size
  expect_load_error(bad, Error::InvalidExternalData,
                    {"segment data [offset 304, size 1000)", "past the end"});
  bad = file;
  put_u64(bad, 32, UINT64_MAX - 8);  // segment_base_offset
  expect_load_error(bad, Error::InvalidExternalData,
                    {"segment data", "past the end"});
  bad = file;
  put_u64(bad, 32, 100);  // segment base inside the flatbuffer
  expect_load_error(bad, Error::InvalidExternalData,
                    {"segment_base_offset 100", "overlaps the flatbuffer"});
}

TEST(FlatTensorDataMapHostile, FlatbufferOffsetsOutOfRange) {
  REQUIRE_CORPUS();
  std::vector<uint8_t> bad = read_corpus(kBarakugavPtd);
  put_u32(bad, 0, 0x7FFFFF00u);  // root offset
  expect_load_error(bad, Error::InvalidExternalData,
                    {"fails verification", "both known layouts"});
}

TEST(FlatTensorDataMapHostile, SegmentIndexOutOfRange) {
  REQUIRE_CORPUS();
  std::vector<uint8_t> bad = read_corpus(kBarakugavPtd);
  const auto* root = flat_tensor_flatbuffer::GetFlatTensor(bad.data());
  const auto* b = root->named_data()->Get(1);
  ASSERT_EQ(b->key()->str(), "b");
  put_u32(bad,
          field_offset(bad, b, flat_tensor_flatbuffer::NamedData::VT_SEGMENT_INDEX),
          7);
  expect_load_error(bad, Error::InvalidExternalData,
                    {"named_data[1] (key 'b')", "segment_index 7",
                     "out of range", "2 segments"});
}

TEST(FlatTensorDataMapHostile, SegmentPastTheEnd) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBarakugavPtd);
  const auto* seg1 =
      flat_tensor_flatbuffer::GetFlatTensor(file.data())->segments()->Get(1);
  const size_t size_at =
      field_offset(file, seg1, flat_tensor_flatbuffer::DataSegment::VT_SIZE);
  const size_t offset_at =
      field_offset(file, seg1, flat_tensor_flatbuffer::DataSegment::VT_OFFSET);

  std::vector<uint8_t> bad = file;
  put_u64(bad, size_at, 4096);
  expect_load_error(bad, Error::InvalidExternalData,
                    {"segments[1] [offset 16, size 4096)", "past the 32 bytes",
                     "file offset 304"});
  bad = file;
  put_u64(bad, offset_at, UINT64_MAX - 4);  // offset + size overflows
  expect_load_error(bad, Error::InvalidExternalData, {"segments[1]", "past"});
}

TEST(FlatTensorDataMapHostile, TensorLayoutLargerThanItsSegment) {
  REQUIRE_CORPUS();
  std::vector<uint8_t> bad = read_corpus(kBarakugavPtd);
  const auto* a =
      flat_tensor_flatbuffer::GetFlatTensor(bad.data())->named_data()->Get(0);
  const size_t sizes_at =
      static_cast<size_t>(reinterpret_cast<const uint8_t*>(
                              a->tensor_layout()->sizes()->data()) -
                          bad.data());
  put_u32(bad, sizes_at + 4, 2000);  // [2, 2] -> [2, 2000]
  expect_load_error(bad, Error::InvalidExternalData,
                    {"named_data[0] (key 'a')", "needs 16000 bytes",
                     "segment 0 holds 16"});
  put_u32(bad, sizes_at + 4, 0xFFFFFFFFu);  // [2, -1]
  expect_load_error(bad, Error::InvalidExternalData,
                    {"key 'a'", "negative or overflow"});
}

TEST(FlatTensorDataMapHostile, EarlyLayoutTensorPastItsSegment) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kLinearPtd);
  const auto* bias =
      flat_tensor_v0_flatbuffer::GetFlatTensor(file.data())->tensors()->Get(1);
  ASSERT_EQ(bias->fully_qualified_name()->str(), "linear.bias");

  std::vector<uint8_t> bad = file;
  put_u64(bad,
          field_offset(file, bias,
                       flat_tensor_v0_flatbuffer::TensorMetadata::VT_OFFSET),
          60);
  expect_load_error(bad, Error::InvalidExternalData,
                    {"tensors[1] (key 'linear.bias')",
                     "[offset 60, size 12)", "extend past segment 0"});

  bad = file;
  bad[field_offset(file, bias,
                   flat_tensor_v0_flatbuffer::TensorMetadata::VT_SCALAR_TYPE)] =
      99;
  expect_load_error(bad, Error::InvalidExternalData,
                    {"key 'linear.bias'", "scalar_type 99"});
}

TEST(FlatTensorDataMapHostile, MisalignedBytesAreRefused) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBarakugavPtd);
  std::vector<uint8_t> storage(file.size() + 8);
  std::memcpy(storage.data() + 1, file.data(), file.size());
  tri::clear_error();
  auto map = FlatTensorDataMap::load(ByteSpan(storage.data() + 1, file.size()));
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(tri::last_error_message()).find("aligned"),
            std::string::npos);
}

// Every single-byte corruption either loads (and then every view it hands out
// is inside the file) or fails with a message. Never a crash.
TEST(FlatTensorDataMapHostile, SingleByteCorruptionsNeverCrash) {
  REQUIRE_CORPUS();
  for (const char* path : {kBarakugavPtd, kXorPtd, kLinearPtd}) {
    SCOPED_TRACE(path);
    const std::vector<uint8_t> file = read_corpus(path);
    size_t loaded = 0;
    size_t refused = 0;
    for (size_t i = 0; i < file.size(); ++i) {
      for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xFF}}) {
        std::vector<uint8_t> bad = file;
        bad[i] ^= mask;
        tri::clear_error();
        auto map = FlatTensorDataMap::load(span_of(bad));
        if (map.ok()) {
          ++loaded;
          touch_everything(map.get());
          for (size_t k = 0; k < map->size(); ++k) {
            ByteSpan data = map->data_at(k).get();
            ASSERT_GE(data.data(), bad.data());
            ASSERT_LE(data.data() + data.size(), bad.data() + bad.size());
          }
        } else {
          ++refused;
          ASSERT_STRNE(tri::last_error_message(), "") << "byte " << i;
        }
      }
    }
    EXPECT_GT(refused, 0u);
    EXPECT_GT(loaded, 0u);  // e.g. flips inside the tensor data
  }
}

}  // namespace
