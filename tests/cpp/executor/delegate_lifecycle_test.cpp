// The delegate lifecycle around a method: memory_needs before init, init in
// order, and on any failure the handles already initialized are destroyed
// before the error is returned; a loaded method destroys them all once.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cpp/formats/pte/pte_program.h"
#include "cpp/formats/pte/schema/program_generated.h"
#include "cpp/runtime/backend/backend.h"
#include "tests/cpp/support/counting_backend.h"

namespace tri {
namespace {

namespace fb = executorch_flatbuffer;

constexpr const char* kId = "TridentCountingBackend";

// forward(): one DelegateCall per blob, each to the counting backend, blobs
// inline in the program.
std::vector<uint8_t> program_with_delegates(const std::vector<std::string>& blobs) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<fb::BackendDelegateInlineData>> data;
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates;
  std::vector<flatbuffers::Offset<fb::Instruction>> instrs;
  for (size_t i = 0; i < blobs.size(); ++i) {
    const std::vector<uint8_t> bytes(blobs[i].begin(), blobs[i].end());
    data.push_back(fb::CreateBackendDelegateInlineDataDirect(b, &bytes));
    delegates.push_back(fb::CreateBackendDelegate(
        b, b.CreateString(kId),
        fb::CreateBackendDelegateDataReference(b, fb::DataLocation::INLINE,
                                               static_cast<uint32_t>(i))));
    const std::vector<int32_t> args;
    instrs.push_back(fb::CreateInstruction(b, fb::InstructionArguments::DelegateCall,
                                           fb::CreateDelegateCallDirect(b, static_cast<int32_t>(i), &args).Union()));
  }
  auto chain = fb::CreateChain(b, 0, 0, b.CreateVector(instrs));
  std::vector<flatbuffers::Offset<fb::Chain>> chains = {chain};
  auto plan = fb::CreateExecutionPlan(b, b.CreateString("forward"), 0, 0, 0, 0,
                                      b.CreateVector(chains), 0, b.CreateVector(delegates));
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans = {plan};
  b.Finish(fb::CreateProgram(b, 0, b.CreateVector(plans), 0, b.CreateVector(data)),
           fb::ProgramIdentifier());
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

class DelegateLifecycle : public ::testing::Test {
 protected:
  testing::CountingBackend& backend_ = testing::counting_backend(kId);

  void SetUp() override {
    backend_.reset_counts();
  }

  Result<Method> load(const std::vector<uint8_t>& bytes, MethodMemoryNeeds* needs) {
    program_ = pte::PteProgram::load(ByteSpan(bytes.data(), bytes.size()));
    if (!program_.ok()) return program_.error();
    MemoryAllocator trial(arena_, sizeof(arena_));
    MemoryAllocator scratch(scratch_, sizeof(scratch_));
    Result<MethodMemoryNeeds> n = program_->memory_needs(0, trial, scratch, MethodLoadOptions());
    if (!n.ok()) return n.error();
    *needs = *n;
    method_alloc_ = MemoryAllocator(arena_, needs->method_bytes);
    temp_ = MemoryAllocator(scratch_, sizeof(scratch_));
    memory_.method = &method_alloc_;
    memory_.temp = &temp_;
    return program_->load_method(0, memory_, MethodLoadOptions());
  }

  Result<pte::PteProgram> program_ = Error::NotFound;
  alignas(64) uint8_t arena_[1 << 14];
  alignas(64) uint8_t scratch_[1 << 14];
  MemoryAllocator method_alloc_;
  MemoryAllocator temp_;
  MemoryManager memory_;
};

TEST_F(DelegateLifecycle, SecondDelegateFailingDestroysTheFirst) {
  MethodMemoryNeeds needs;
  Result<Method> method = load(program_with_delegates({"good", "fail"}), &needs);
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), Error::DelegateInvalidCompatibility);
  EXPECT_NE(std::string(last_error_message()).find("initializing delegate 1"), std::string::npos)
      << last_error_message();
  // Delegate 0 was initialized, then destroyed when delegate 1 failed.
  EXPECT_EQ(backend_.live, 0);
}

TEST_F(DelegateLifecycle, LoadedMethodDestroysEveryDelegateOnce) {
  MethodMemoryNeeds needs;
  Result<Method> method = load(program_with_delegates({"one", "two", "three"}), &needs);
  ASSERT_TRUE(method.ok()) << last_error_message();
  // Each delegate's memory was asked for before init, and the method
  // allocator was sized from the answers.
  EXPECT_EQ(backend_.queries, 3);
  EXPECT_EQ(needs.temp_bytes, 5000u);  // the largest blob, "three"
  EXPECT_LE(method_alloc_.used(), needs.method_bytes);
  EXPECT_EQ(backend_.live, 3);
  ASSERT_EQ(method->execute(), Error::Ok) << last_error_message();
  method->destroy();
  EXPECT_EQ(backend_.live, 0);
  method->destroy();
  EXPECT_EQ(backend_.live, 0);
}

}  // namespace
}  // namespace tri
