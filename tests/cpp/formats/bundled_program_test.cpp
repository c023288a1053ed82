// BundledProgram against the corpus `.bpte` and hostile copies of it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cpp/formats/pte/bundled/bundled_program.h"
#include "cpp/formats/pte/schema/bundled_program_generated.h"
#include "cpp/runtime/core/error.h"

namespace {

using tri::ByteSpan;
using tri::Error;
using tri::Span;
using tri::pte::BundledProgram;
using tri::pte::BundledTestCase;
using tri::pte::BundledValue;
using tri::pte::BundledValueKind;

namespace fb = bundled_program_flatbuffer;

// forward(x: int32[2,2], q: int32[2,2]) -> int32[2,2]; y = 3x + 2 + q.
// 10 embedded test cases (extension/module/test/resources/
// gen_bundled_program.py upstream).
constexpr const char* kBundle =
    "pytorch__executorch/extension__module__test__resources__bundled_program."
    "bpte";
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

Span<const char> name(const char* text) {
  return Span<const char>(text, std::strlen(text));
}

std::string str(Span<const char> s) { return std::string(s.data(), s.size()); }

std::vector<int32_t> ints(ByteSpan bytes) {
  std::vector<int32_t> out(bytes.size() / sizeof(int32_t));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(int32_t));
  return out;
}

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

void expect_load_error(const std::vector<uint8_t>& bytes, Error code,
                       std::initializer_list<const char*> parts) {
  tri::clear_error();
  auto bundle = BundledProgram::load(span_of(bytes));
  ASSERT_FALSE(bundle.ok());
  EXPECT_EQ(bundle.error(), code) << tri::error_name(bundle.error()) << ": "
                                  << tri::last_error_message();
  const std::string message = tri::last_error_message();
  for (const char* part : parts) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "message \"" << message << "\" lacks \"" << part << "\"";
  }
}

// The first test case's first input, as a flatbuffer Tensor, for mutating.
const fb::Tensor* first_input_tensor(const std::vector<uint8_t>& bytes) {
  return fb::GetBundledProgram(bytes.data())
      ->method_test_suites()
      ->Get(0)
      ->test_cases()
      ->Get(0)
      ->inputs()
      ->Get(0)
      ->val_as_Tensor();
}

void expect_int32_2x2(const BundledValue& v, const std::vector<int32_t>& values) {
  ASSERT_EQ(v.kind, BundledValueKind::Tensor);
  EXPECT_EQ(v.dtype, tri::ScalarType::Int);
  ASSERT_EQ(v.sizes.size(), 2u);
  EXPECT_EQ(v.sizes[0], 2);
  EXPECT_EQ(v.sizes[1], 2);
  ASSERT_EQ(v.dim_order.size(), 2u);
  EXPECT_EQ(v.dim_order[0], 0);
  EXPECT_EQ(v.dim_order[1], 1);
  ASSERT_EQ(v.data.size(), 16u);
  EXPECT_EQ(ints(v.data), values);
}

// Reads every value of every test case (so ASan sees every byte).
void touch_everything(const BundledProgram& bundle) {
  uint32_t sum = 0;
  for (uint8_t b : bundle.program()) sum += b;
  for (size_t s = 0; s < bundle.num_method_suites(); ++s) {
    auto method = bundle.method_name(s);
    ASSERT_TRUE(method.ok()) << tri::last_error_message();
    for (char c : method.get()) sum += static_cast<uint8_t>(c);
    const size_t n = bundle.num_test_cases(s).get();
    for (size_t c = 0; c < n; ++c) {
      auto tc = bundle.test_case(s, c);
      ASSERT_TRUE(tc.ok()) << tri::last_error_message();
      for (size_t io = 0; io < 2; ++io) {
        const size_t count =
            io == 0 ? tc->num_inputs() : tc->num_expected_outputs();
        for (size_t i = 0; i < count; ++i) {
          auto v = io == 0 ? tc->input(i) : tc->expected_output(i);
          ASSERT_TRUE(v.ok()) << tri::last_error_message();
          for (int32_t d : v->sizes) sum += static_cast<uint32_t>(d);
          for (uint8_t d : v->dim_order) sum += d;
          for (uint8_t d : v->data) sum += d;
          sum += static_cast<uint32_t>(v->int_value) + v->bool_value;
        }
      }
    }
  }
  (void)sum;
}

TEST(BundledProgram, CorpusBundleProgramAndSuites) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBundle);
  ASSERT_EQ(file.size(), 4608u);
  EXPECT_TRUE(BundledProgram::has_bundled_program_magic(span_of(file)));
  auto bundle = BundledProgram::load(span_of(file));
  ASSERT_TRUE(bundle.ok()) << tri::last_error_message();
  EXPECT_EQ(bundle->version(), 2u);

  // The inner program is a complete .pte (ET12, 24-byte eh00 header), in
  // place inside the bundle at a 32-byte aligned offset.
  ByteSpan program = bundle->program();
  ASSERT_EQ(program.size(), 1696u);
  EXPECT_EQ(bundle->program_offset(), 64u);
  EXPECT_EQ(program.data(), file.data() + 64);
  EXPECT_EQ(bundle->program_offset() % 32, 0u);
  EXPECT_EQ(std::memcmp(program.data() + 4, "ET12", 4), 0);
  EXPECT_EQ(std::memcmp(program.data() + 8, "eh00", 4), 0);

  ASSERT_EQ(bundle->num_method_suites(), 1u);
  EXPECT_EQ(str(bundle->method_name(0).get()), "forward");
  EXPECT_EQ(bundle->find_method_suite(name("forward")).get(), 0u);
  EXPECT_EQ(bundle->num_test_cases(0).get(), 10u);
  EXPECT_EQ(bundle->total_test_cases(), 10u);
}

TEST(BundledProgram, CorpusBundleTestCases) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBundle);
  auto bundle = BundledProgram::load(span_of(file));
  ASSERT_TRUE(bundle.ok()) << tri::last_error_message();
  for (size_t c = 0; c < 10; ++c) {
    SCOPED_TRACE(c);
    auto tc = bundle->test_case(0, c);
    ASSERT_TRUE(tc.ok()) << tri::last_error_message();
    ASSERT_EQ(tc->num_inputs(), 2u);
    ASSERT_EQ(tc->num_expected_outputs(), 1u);
    auto x = tc->input(0);
    auto q = tc->input(1);
    auto y = tc->expected_output(0);
    ASSERT_TRUE(x.ok() && q.ok() && y.ok()) << tri::last_error_message();
    // GOLDENS.json: x = q = 0 -> y = 2 everywhere.
    expect_int32_2x2(x.get(), {0, 0, 0, 0});
    expect_int32_2x2(q.get(), {0, 0, 0, 0});
    expect_int32_2x2(y.get(), {2, 2, 2, 2});
    // And the model's formula, element by element.
    const std::vector<int32_t> xv = ints(x->data), qv = ints(q->data),
                               yv = ints(y->data);
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(yv[i], 3 * xv[i] + 2 + qv[i]);
    // Tensor data is a view into the bundle.
    EXPECT_GE(x->data.data(), file.data());
    EXPECT_LE(x->data.data() + 16, file.data() + file.size());
  }
}

TEST(BundledProgram, OutOfRangeAndUnknownNames) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBundle);
  auto bundle = BundledProgram::load(span_of(file));
  ASSERT_TRUE(bundle.ok()) << tri::last_error_message();

  auto missing = bundle->find_method_suite(name("backward"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), Error::NotFound);
  EXPECT_NE(std::string(tri::last_error_message()).find("'backward'"),
            std::string::npos)
      << tri::last_error_message();

  EXPECT_EQ(bundle->method_name(1).error(), Error::InvalidArgument);
  EXPECT_EQ(bundle->num_test_cases(1).error(), Error::InvalidArgument);
  auto tc_missing = bundle->test_case(0, 10);
  ASSERT_FALSE(tc_missing.ok());
  EXPECT_EQ(tc_missing.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(tri::last_error_message()).find("test case 10"),
            std::string::npos)
      << tri::last_error_message();
  auto tc = bundle->test_case(0, 0);
  ASSERT_TRUE(tc.ok());
  EXPECT_EQ(tc->input(2).error(), Error::InvalidArgument);
  EXPECT_EQ(tc->expected_output(1).error(), Error::InvalidArgument);
  EXPECT_NE(std::string(tri::last_error_message()).find("expected output 1"),
            std::string::npos)
      << tri::last_error_message();
  // A default view is empty, not a crash.
  BundledTestCase empty;
  EXPECT_EQ(empty.num_inputs(), 0u);
  EXPECT_EQ(empty.input(0).error(), Error::InvalidArgument);
}

// ---- Hostile input ----

TEST(BundledProgramHostile, EveryTruncationFailsCleanly) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBundle);
  for (size_t n = 0; n < file.size(); ++n) {
    std::vector<uint8_t> cut(file.begin(), file.begin() + n);
    tri::clear_error();
    auto bundle = BundledProgram::load(span_of(cut));
    ASSERT_FALSE(bundle.ok()) << "loaded a " << n << "-byte prefix";
    ASSERT_STRNE(tri::last_error_message(), "") << n;
  }
  expect_load_error(std::vector<uint8_t>(file.begin(), file.begin() + 5),
                    Error::InvalidArgument, {"5 bytes", "too small"});
  expect_load_error(std::vector<uint8_t>(file.begin(), file.begin() + 4000),
                    Error::InvalidProgram, {"fails verification", "4000 bytes"});
}

TEST(BundledProgramHostile, WrongIdentifier) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBundle);
  std::vector<uint8_t> bad = file;
  std::memcpy(bad.data() + 4, "BP07", 4);
  expect_load_error(bad, Error::NotSupported, {"'BP07'", "not supported"});
  bad = file;
  std::memcpy(bad.data() + 4, "\xff" "BAD", 4);
  expect_load_error(bad, Error::InvalidProgram,
                    {"identifier '.BAD'", "expected 'BP08'"});
  // A plain .pte is not a bundle.
  expect_load_error(read_corpus(kSomePte), Error::InvalidProgram,
                    {"not a bundled program", "'ET12'"});
}

TEST(BundledProgramHostile, FlatbufferOffsetsOutOfRange) {
  REQUIRE_CORPUS();
  std::vector<uint8_t> bad = read_corpus(kBundle);
  put_u32(bad, 0, 0x00100000u);  // root offset past the end
  expect_load_error(bad, Error::InvalidProgram, {"fails verification"});
  // The program vector's length word, made larger than the file.
  bad = read_corpus(kBundle);
  put_u32(bad, 0x3c, 0x10000u);
  expect_load_error(bad, Error::InvalidProgram, {"fails verification"});
}

TEST(BundledProgramHostile, MisalignedInnerProgram) {
  REQUIRE_CORPUS();
  std::vector<uint8_t> bad = read_corpus(kBundle);
  // Point the program field 4 bytes further: the vector's length word is then
  // the inner program's first word (60), and its bytes start at offset 68.
  const size_t at = field_offset(bad, fb::GetBundledProgram(bad.data()),
                                 fb::BundledProgram::VT_PROGRAM);
  uint32_t offset = 0;
  std::memcpy(&offset, bad.data() + at, 4);
  put_u32(bad, at, offset + 4);
  expect_load_error(bad, Error::InvalidProgram,
                    {"inner program at offset 68", "not 8-byte aligned"});
}

TEST(BundledProgramHostile, UnknownValueType) {
  REQUIRE_CORPUS();
  std::vector<uint8_t> bad = read_corpus(kBundle);
  const fb::Value* value = fb::GetBundledProgram(bad.data())
                               ->method_test_suites()
                               ->Get(0)
                               ->test_cases()
                               ->Get(3)
                               ->expected_outputs()
                               ->Get(0);
  bad[field_offset(bad, value, fb::Value::VT_VAL_TYPE)] = 9;
  expect_load_error(
      bad, Error::InvalidProgram,
      {"method_test_suites[0] ('forward') test_cases[3] expected_outputs[0]",
       "unknown value type 9"});
}

TEST(BundledProgramHostile, BadTensors) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBundle);
  const fb::Tensor* t = first_input_tensor(file);
  const char* where = "test_cases[0] inputs[0]";

  std::vector<uint8_t> bad = file;
  bad[field_offset(file, t, fb::Tensor::VT_SCALAR_TYPE)] = 99;
  expect_load_error(bad, Error::InvalidProgram, {where, "scalar_type 99"});

  const size_t sizes_at = static_cast<size_t>(
      reinterpret_cast<const uint8_t*>(t->sizes()->data()) - file.data());
  bad = file;
  put_u32(bad, sizes_at + 4, 0xFFFFFFFFu);  // [2, -1]
  expect_load_error(bad, Error::InvalidProgram,
                    {where, "sizes [2, -1]", "negative"});
  bad = file;
  put_u32(bad, sizes_at + 4, 3);  // [2, 3]: 24 bytes needed, 16 stored
  expect_load_error(bad, Error::InvalidProgram,
                    {where, "data is 16 bytes", "Int [2, 3] needs 24"});

  // Shorter data vector than the shape needs.
  const size_t data_len_at = static_cast<size_t>(
      t->data()->data() - file.data() - sizeof(uint32_t));
  bad = file;
  put_u32(bad, data_len_at, 8);
  expect_load_error(bad, Error::InvalidProgram,
                    {where, "data is 8 bytes", "needs 16"});

  const size_t order_at = static_cast<size_t>(t->dim_order()->data() - file.data());
  bad = file;
  bad[order_at + 1] = 0;  // [0, 0]
  expect_load_error(bad, Error::InvalidProgram,
                    {where, "dim_order is not a permutation"});
}

TEST(BundledProgramHostile, MisalignedBytesAreRefused) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBundle);
  std::vector<uint8_t> storage(file.size() + 8);
  std::memcpy(storage.data() + 4, file.data(), file.size());
  tri::clear_error();
  auto bundle = BundledProgram::load(ByteSpan(storage.data() + 4, file.size()));
  ASSERT_FALSE(bundle.ok());
  EXPECT_EQ(bundle.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(tri::last_error_message()).find("aligned"),
            std::string::npos);
}

TEST(BundledProgramHostile, SingleByteCorruptionsNeverCrash) {
  REQUIRE_CORPUS();
  const std::vector<uint8_t> file = read_corpus(kBundle);
  size_t loaded = 0;
  size_t refused = 0;
  for (size_t i = 0; i < file.size(); ++i) {
    for (uint8_t mask : {uint8_t{0x01}, uint8_t{0xFF}}) {
      std::vector<uint8_t> bad = file;
      bad[i] ^= mask;
      tri::clear_error();
      auto bundle = BundledProgram::load(span_of(bad));
      if (bundle.ok()) {
        ++loaded;
        touch_everything(bundle.get());
        ASSERT_GE(bundle->program().data(), bad.data());
        ASSERT_LE(bundle->program().data() + bundle->program().size(),
                  bad.data() + bad.size());
      } else {
        ++refused;
        ASSERT_STRNE(tri::last_error_message(), "") << "byte " << i;
      }
    }
  }
  EXPECT_GT(refused, 0u);
  EXPECT_GT(loaded, 0u);  // e.g. flips inside the inner program's bytes
}

}  // namespace
