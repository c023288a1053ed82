// The .pte front end on real files and on hostile variants of them: header
// forms, verification, segment bounds, constants, memory-plan limits.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cpp/formats/pte/pte_program.h"
#include "cpp/formats/pte/schema/program_generated.h"
#include "tests/cpp/support/hostile_bytes.h"
#include "tests/cpp/support/shared_corpus.h"

namespace tri::pte {
namespace {

using ::tri::testing::corpus_file;
using ::tri::testing::expect_load_error;
using ::tri::testing::put_u64;
using ::tri::testing::span_of;

const char kAppleAdd[] =
    "pte/pytorch__executorch/"
    "extension__apple__ExecuTorch____tests____resources__add.pte";
const char kArduinoAdd[] =
    "pte/pytorch__executorch/examples__arduino__examples__AddModel__model.pte";
const char kXor[] =
    "pte/pytorch__executorch/"
    "extension__android__executorch_android__src__androidTest__resources__xor."
    "pte";
const char kDeprecated[] =
    "pte/pytorch__executorch/"
    "test__models__deprecated__ModuleLinear-no-constant-segment.pte";
const char kDnf[] = "pte/berndporr__dnf_executorch/test__dnf_executorch1.pte";

bool message_has(const char* text) {
  return std::string(last_error_message()).find(text) != std::string::npos;
}

TEST(PteHeader, AllThreeFormsOfTheCorpus) {
  TRI_REQUIRE_SHARED();
  const auto none = corpus_file(kAppleAdd);
  auto header = parse_pte_header(span_of(none));
  ASSERT_TRUE(header.ok()) << last_error_message();
  EXPECT_FALSE(header->has_extended_header);
  EXPECT_EQ(header->file_version, 12u);

  const auto long_form = corpus_file(kArduinoAdd);
  header = parse_pte_header(span_of(long_form));
  ASSERT_TRUE(header.ok()) << last_error_message();
  EXPECT_TRUE(header->has_extended_header);
  EXPECT_EQ(header->extended_header_length, 32u);
  EXPECT_GT(header->segment_data_size, 0u);
  EXPECT_GE(header->segment_base_offset, header->program_size);

  const auto short_form = corpus_file(kXor);
  header = parse_pte_header(span_of(short_form));
  ASSERT_TRUE(header.ok()) << last_error_message();
  EXPECT_EQ(header->extended_header_length, 24u);
  EXPECT_EQ(header->segment_data_size, 0u);
}

TEST(PteProgram, DescribesMethods) {
  TRI_REQUIRE_SHARED();
  const auto bytes = corpus_file(kDnf);
  auto program = PteProgram::load(span_of(bytes));
  ASSERT_TRUE(program.ok()) << last_error_message();
  ASSERT_EQ(program->num_methods(), 4u);
  auto forward = program->method_index("forward");
  ASSERT_TRUE(forward.ok());
  EXPECT_EQ(program->num_inputs(*forward), 2u);
  auto input = program->input_info(*forward, 0);
  ASSERT_TRUE(input.ok());
  EXPECT_EQ(input->tag, Tag::Tensor);
  EXPECT_EQ(input->dtype, ScalarType::Float);
  ASSERT_EQ(input->dim, 2);
  EXPECT_EQ(input->sizes[1], 50);
  EXPECT_FALSE(program->method_index("backward").ok());
  EXPECT_TRUE(message_has("no method 'backward'"));
  EXPECT_TRUE(message_has("'forward'"));
}

TEST(PteProgram, ConstantsFromSegmentAndDeprecatedBuffer) {
  TRI_REQUIRE_SHARED();
  // AddModel computes x + 1.0 with the 1.0 in the constant segment.
  const auto seg = corpus_file(kArduinoAdd);
  auto program = PteProgram::load(span_of(seg));
  ASSERT_TRUE(program.ok()) << last_error_message();
  // The constant is a 0-d float: 4 bytes in a 4-byte segment.
  auto data = program->constant_data(1, 4);
  ASSERT_TRUE(data.ok()) << last_error_message();
  float one;
  memcpy(&one, data->data(), sizeof(one));
  EXPECT_EQ(one, 1.0f);
  EXPECT_FALSE(program->constant_data(1, 8).ok());
  EXPECT_TRUE(message_has("lies outside constant segment")) << last_error_message();
  EXPECT_FALSE(program->constant_data(99, 4).ok());

  const auto old = corpus_file(kDeprecated);
  program = PteProgram::load(span_of(old));
  ASSERT_TRUE(program.ok()) << last_error_message();
  data = program->constant_data(1, 16);
  ASSERT_TRUE(data.ok()) << last_error_message();
  EXPECT_FALSE(program->constant_data(1, 1 << 20).ok());
  EXPECT_TRUE(message_has("needs"));
}

TEST(PteHostile, TruncatedFiles) {
  TRI_REQUIRE_SHARED();
  const auto bytes = corpus_file(kArduinoAdd);
  for (size_t cut : {size_t{0}, size_t{7}, size_t{20}, bytes.size() / 2,
                     bytes.size() - 1}) {
    SCOPED_TRACE(cut);
    auto program = PteProgram::load(ByteSpan(bytes.data(), cut));
    EXPECT_FALSE(program.ok());
    EXPECT_EQ(program.error(), Error::InvalidProgram);
    EXPECT_GT(strlen(last_error_message()), 10u);
  }
  // Cutting the segment data off (the program data intact) is reported as a
  // segment past the end.
  const auto dnf = corpus_file(kDnf);
  auto header = parse_pte_header(span_of(dnf));
  ASSERT_TRUE(header.ok());
  auto program = PteProgram::load(
      ByteSpan(dnf.data(), static_cast<size_t>(header->segment_base_offset) + 8));
  EXPECT_FALSE(program.ok());
  EXPECT_TRUE(message_has("past the end")) << last_error_message();
}

TEST(PteHostile, WrongMagic) {
  TRI_REQUIRE_SHARED();
  auto bytes = corpus_file(kAppleAdd);
  bytes[4] = 'X';
  expect_load_error<PteProgram>(bytes, Error::InvalidProgram,
                                {"not a .pte file"});
  bytes[4] = 'E';
  bytes[6] = '9';
  expect_load_error<PteProgram>(bytes, Error::NotSupported, {"ET92"});
}

TEST(PteHostile, FlatbufferOffsetsOutOfRange) {
  TRI_REQUIRE_SHARED();
  auto bytes = corpus_file(kAppleAdd);
  // The root offset points past the end.
  bytes[0] = 0xF0;
  bytes[1] = 0xFF;
  expect_load_error<PteProgram>(bytes, Error::InvalidProgram, {"verification"});
  // Every single-byte corruption of the table area is either caught or
  // harmless: nothing reads out of bounds (run under ASan in CI's sanitizer
  // job).
  const auto good = corpus_file(kAppleAdd);
  for (size_t i = 8; i < good.size(); i += 3) {
    auto copy = good;
    copy[i] ^= 0xA5;
    auto p = PteProgram::load(span_of(copy));
    if (p.ok()) {
      for (size_t m = 0; m < p->num_methods(); ++m) {
        for (size_t k = 0; k < p->num_inputs(m); ++k) (void)p->input_info(m, k);
        std::vector<uint8_t> scratch_bytes(1 << 16);
        std::vector<uint8_t> trial_bytes(1 << 16);
        MemoryAllocator trial(trial_bytes.data(), trial_bytes.size());
        MemoryAllocator scratch(scratch_bytes.data(), scratch_bytes.size());
        (void)p->memory_needs(m, trial, scratch, MethodLoadOptions());
      }
    }
  }
}

TEST(PteHostile, SegmentPastTheEnd) {
  TRI_REQUIRE_SHARED();
  auto bytes = corpus_file(kArduinoAdd);
  auto header = parse_pte_header(span_of(bytes));
  ASSERT_TRUE(header.ok());
  // Point the segment base far beyond the file.
  put_u64(bytes, 24, uint64_t{1} << 40);
  expect_load_error<PteProgram>(bytes, Error::InvalidProgram, {"past the end"});
}

TEST(PteHostile, MemoryPlanOverTheLimit) {
  TRI_REQUIRE_SHARED();
  const auto bytes = corpus_file(kArduinoAdd);
  PteLoadOptions options;
  options.max_planned_bytes = 16;
  auto program = PteProgram::load(span_of(bytes), options);
  EXPECT_EQ(program.error(), Error::LimitExceeded);
  EXPECT_TRUE(message_has("over the limit of 16 bytes")) << last_error_message();
}

}  // namespace
}  // namespace tri::pte

namespace tri::pte {
namespace {

// The flatbuffers verifier accepts a union whose type is set but whose table
// is absent (found by the fuzzer); loading must report it, not dereference it.
std::vector<uint8_t> program_with_bare_unions(bool bare_value,
                                              bool bare_instruction) {
  namespace fb = executorch_flatbuffer;
  flatbuffers::FlatBufferBuilder b;
  fb::EValueBuilder value(b);
  value.add_val_type(fb::KernelTypes::Int);
  auto bare = value.Finish();
  auto good = fb::CreateEValue(b, fb::KernelTypes::Int,
                               fb::CreateInt(b, 7).Union());
  std::vector<flatbuffers::Offset<fb::EValue>> values = {bare_value ? bare : good};
  fb::InstructionBuilder instr(b);
  instr.add_instr_args_type(fb::InstructionArguments::MoveCall);
  auto bare_instr = instr.Finish();
  auto move = fb::CreateInstruction(b, fb::InstructionArguments::MoveCall,
                                    fb::CreateMoveCall(b, 0, 0).Union());
  std::vector<flatbuffers::Offset<fb::Instruction>> instrs = {
      bare_instruction ? bare_instr : move};
  auto chain = fb::CreateChain(b, 0, 0, b.CreateVector(instrs));
  std::vector<flatbuffers::Offset<fb::Chain>> chains = {chain};
  std::vector<int32_t> outputs = {0};
  auto plan = fb::CreateExecutionPlan(b, b.CreateString("forward"), 0,
                                      b.CreateVector(values), 0,
                                      b.CreateVector(outputs), b.CreateVector(chains));
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans = {plan};
  b.Finish(fb::CreateProgram(b, 0, b.CreateVector(plans)), fb::ProgramIdentifier());
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

Error load_forward(const std::vector<uint8_t>& bytes) {
  auto program = PteProgram::load(ByteSpan(bytes.data(), bytes.size()));
  if (!program.ok()) return program.error();
  alignas(16) static uint8_t arena[1 << 16];
  MemoryAllocator alloc(arena, sizeof(arena));
  MemoryManager memory;
  memory.method = &alloc;
  auto method = program->load_method(0, memory, MethodLoadOptions());
  return method.ok() ? Error::Ok : method.error();
}

TEST(PteHostile, UnionTypeWithoutTable) {
  // std::vector's storage comes from operator new: aligned for any scalar.
  ASSERT_EQ(load_forward(program_with_bare_unions(false, false)), Error::Ok)
      << last_error_message();
  for (auto [bare_value, bare_instruction] :
       {std::pair{true, false}, std::pair{false, true}}) {
    EXPECT_EQ(load_forward(program_with_bare_unions(bare_value, bare_instruction)),
              Error::InvalidProgram);
    EXPECT_TRUE(message_has("table is missing")) << last_error_message();
  }
}

}  // namespace
}  // namespace tri::pte
