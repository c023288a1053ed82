// BundledProgram against the corpus `.bpte` and hostile copies of it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cpp/formats/pte/bundled/bundled_program.h"
#include "cpp/formats/pte/schema/bundled_program_generated.h"
#include "cpp/runtime/core/error.h"
#include "tests/cpp/support/hostile_bytes.h"
#include "tests/cpp/support/shared_corpus.h"

namespace {

using tri::ByteSpan;
using tri::Error;
using tri::Span;
using tri::pte::BundledProgram;
using tri::pte::BundledTestCase;
using tri::pte::BundledValue;
using tri::pte::BundledValueKind;
using namespace tri::testing;  // corpus and hostile-bytes helpers

namespace fb = bundled_program_flatbuffer;

// forward(x: int32[2,2], q: int32[2,2]) -> int32[2,2]; y = 3x + 2 + q.
// 10 embedded test cases (extension/module/test/resources/
// gen_bundled_program.py upstream).
constexpr const char* kBundle =
    "pte/pytorch__executorch/"
    "extension__module__test__resources__bundled_program."
    "bpte";
constexpr const char* kSomePte =
    "pte/barakugav__executorch-rs/examples__models__add.pte";

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
  EXPECT_EQ(values_of<int32_t>(v.data), values);
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
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBundle);
  ASSERT_EQ(file.size(), 4608u);
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
  EXPECT_EQ(bundle->find_method_suite(span_of("forward")).get(), 0u);
  EXPECT_EQ(bundle->num_test_cases(0).get(), 10u);
  EXPECT_EQ(bundle->total_test_cases(), 10u);
}

TEST(BundledProgram, CorpusBundleTestCases) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBundle);
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
    const std::vector<int32_t> xv = values_of<int32_t>(x->data),
                               qv = values_of<int32_t>(q->data),
                               yv = values_of<int32_t>(y->data);
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(yv[i], 3 * xv[i] + 2 + qv[i]);
    // Tensor data is a view into the bundle.
    EXPECT_GE(x->data.data(), file.data());
    EXPECT_LE(x->data.data() + 16, file.data() + file.size());
  }
}

TEST(BundledProgram, OutOfRangeAndUnknownNames) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBundle);
  auto bundle = BundledProgram::load(span_of(file));
  ASSERT_TRUE(bundle.ok()) << tri::last_error_message();

  auto missing = bundle->find_method_suite(span_of("backward"));
  ASSERT_FALSE(missing.ok());
  expect_error(missing.error(), Error::NotFound, {"'backward'"});

  EXPECT_EQ(bundle->method_name(1).error(), Error::InvalidArgument);
  EXPECT_EQ(bundle->num_test_cases(1).error(), Error::InvalidArgument);
  auto tc_missing = bundle->test_case(0, 10);
  ASSERT_FALSE(tc_missing.ok());
  expect_error(tc_missing.error(), Error::InvalidArgument, {"test case 10"});
  auto tc = bundle->test_case(0, 0);
  ASSERT_TRUE(tc.ok());
  EXPECT_EQ(tc->input(2).error(), Error::InvalidArgument);
  expect_error(tc->expected_output(1).error(), Error::InvalidArgument,
               {"expected output 1"});
  // A default view is empty, not a crash.
  BundledTestCase empty;
  EXPECT_EQ(empty.num_inputs(), 0u);
  EXPECT_EQ(empty.input(0).error(), Error::InvalidArgument);
}

// ---- Hostile input ----

TEST(BundledProgramHostile, EveryTruncationFailsCleanly) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBundle);
  ASSERT_NO_FATAL_FAILURE(expect_every_truncation_fails<BundledProgram>(file));
  expect_load_error<BundledProgram>(
      std::vector<uint8_t>(file.begin(), file.begin() + 5),
      Error::InvalidArgument, {"5 bytes", "too small"});
  expect_load_error<BundledProgram>(
      std::vector<uint8_t>(file.begin(), file.begin() + 4000),
      Error::InvalidProgram, {"fails verification", "4000 bytes"});
}

TEST(BundledProgramHostile, WrongIdentifier) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBundle);
  std::vector<uint8_t> bad = file;
  std::memcpy(bad.data() + 4, "BP07", 4);
  expect_load_error<BundledProgram>(bad, Error::NotSupported,
                                    {"'BP07'", "not supported"});
  bad = file;
  std::memcpy(bad.data() + 4, "\xff" "BAD", 4);
  expect_load_error<BundledProgram>(bad, Error::InvalidProgram,
                                    {"identifier '.BAD'", "expected 'BP08'"});
  // A plain .pte is not a bundle.
  expect_load_error<BundledProgram>(corpus_file(kSomePte),
                                    Error::InvalidProgram,
                                    {"not a bundled program", "'ET12'"});
}

TEST(BundledProgramHostile, FlatbufferOffsetsOutOfRange) {
  TRI_REQUIRE_SHARED();
  std::vector<uint8_t> bad = corpus_file(kBundle);
  put_u32(bad, 0, 0x00100000u);  // root offset past the end
  expect_load_error<BundledProgram>(bad, Error::InvalidProgram,
                                    {"fails verification"});
  // The program vector's length word, made larger than the file.
  bad = corpus_file(kBundle);
  put_u32(bad, 0x3c, 0x10000u);
  expect_load_error<BundledProgram>(bad, Error::InvalidProgram,
                                    {"fails verification"});
}

TEST(BundledProgramHostile, MisalignedInnerProgram) {
  TRI_REQUIRE_SHARED();
  std::vector<uint8_t> bad = corpus_file(kBundle);
  // Point the program field 4 bytes further: the vector's length word is then
  // the inner program's first word (60), and its bytes start at offset 68.
  const size_t at = field_offset(bad, fb::GetBundledProgram(bad.data()),
                                 fb::BundledProgram::VT_PROGRAM);
  uint32_t offset = 0;
  std::memcpy(&offset, bad.data() + at, 4);
  put_u32(bad, at, offset + 4);
  expect_load_error<BundledProgram>(
      bad, Error::InvalidProgram,
      {"inner program at offset 68", "not 8-byte aligned"});
}

TEST(BundledProgramHostile, UnknownValueType) {
  TRI_REQUIRE_SHARED();
  std::vector<uint8_t> bad = corpus_file(kBundle);
  const fb::Value* value = fb::GetBundledProgram(bad.data())
                               ->method_test_suites()
                               ->Get(0)
                               ->test_cases()
                               ->Get(3)
                               ->expected_outputs()
                               ->Get(0);
  bad[field_offset(bad, value, fb::Value::VT_VAL_TYPE)] = 9;
  expect_load_error<BundledProgram>(
      bad, Error::InvalidProgram,
      {"method_test_suites[0] ('forward') test_cases[3] expected_outputs[0]",
       "unknown value type 9"});
}

TEST(BundledProgramHostile, BadTensors) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBundle);
  const fb::Tensor* t = first_input_tensor(file);
  const char* where = "test_cases[0] inputs[0]";

  std::vector<uint8_t> bad = file;
  bad[field_offset(file, t, fb::Tensor::VT_SCALAR_TYPE)] = 99;
  expect_load_error<BundledProgram>(bad, Error::InvalidProgram,
                                    {where, "scalar_type 99"});

  const size_t sizes_at = static_cast<size_t>(
      reinterpret_cast<const uint8_t*>(t->sizes()->data()) - file.data());
  bad = file;
  put_u32(bad, sizes_at + 4, 0xFFFFFFFFu);  // [2, -1]
  expect_load_error<BundledProgram>(bad, Error::InvalidProgram,
                                    {where, "sizes [2, -1]", "negative"});
  bad = file;
  put_u32(bad, sizes_at + 4, 3);  // [2, 3]: 24 bytes needed, 16 stored
  expect_load_error<BundledProgram>(
      bad, Error::InvalidProgram,
      {where, "data is 16 bytes", "Int [2, 3] needs 24"});

  // Shorter data vector than the shape needs.
  const size_t data_len_at = static_cast<size_t>(
      t->data()->data() - file.data() - sizeof(uint32_t));
  bad = file;
  put_u32(bad, data_len_at, 8);
  expect_load_error<BundledProgram>(bad, Error::InvalidProgram,
                                    {where, "data is 8 bytes", "needs 16"});

  const size_t order_at = static_cast<size_t>(t->dim_order()->data() - file.data());
  bad = file;
  bad[order_at + 1] = 0;  // [0, 0]
  expect_load_error<BundledProgram>(bad, Error::InvalidProgram,
                                    {where, "dim_order is not a permutation"});
}

TEST(BundledProgramHostile, MisalignedBytesAreRefused) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBundle);
  std::vector<uint8_t> storage(file.size() + 8);
  std::memcpy(storage.data() + 4, file.data(), file.size());
  expect_load_error<BundledProgram>(ByteSpan(storage.data() + 4, file.size()),
                                    Error::InvalidArgument, {"aligned"});
}

TEST(BundledProgramHostile, SingleByteCorruptionsNeverCrash) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> file = corpus_file(kBundle);
  CorruptionCounts counts;
  ASSERT_NO_FATAL_FAILURE(corrupt_every_byte<BundledProgram>(
      file, {0x01, 0xFF},
      [](const BundledProgram& bundle, const std::vector<uint8_t>& bad) {
        touch_everything(bundle);
        ASSERT_GE(bundle.program().data(), bad.data());
        ASSERT_LE(bundle.program().data() + bundle.program().size(),
                  bad.data() + bad.size());
      },
      &counts));
  EXPECT_GT(counts.refused, 0u);
  EXPECT_GT(counts.loaded, 0u);  // e.g. flips inside the inner program's bytes
}

}  // namespace
