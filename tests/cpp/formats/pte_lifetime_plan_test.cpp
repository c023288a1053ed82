// A .pte method's memory plan made again by lifetimes: live tensors never
// share bytes, element-wise ops write over the input they consume, views
// that keep the bytes sit on them, and every
// method where a new plan could change what runs keeps the file's plan, with
// the reason.
#include "cpp/formats/pte/pte_lifetime_plan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cpp/formats/pte/pte_program.h"
#include "cpp/formats/pte/schema/program_generated.h"

namespace tri::pte {
namespace {

namespace fb = executorch_flatbuffer;

// One method, written value by value and call by call, with the file's plan
// given per tensor.
class MethodWriter {
 public:
  // A float tensor of `n` elements; planned at `offset` in buffer
  // `memory_id` unless memory_id is 0.
  int32_t tensor(int32_t n, uint32_t offset, uint32_t memory_id = 1, uint32_t data_buffer = 0) {
    const std::vector<int32_t> sizes = {n};
    const std::vector<uint8_t> dim_order = {0};
    auto alloc = memory_id ? fb::CreateAllocationDetails(b_, memory_id, offset, 0) : 0;
    auto t = fb::CreateTensorDirect(b_, executorch::ScalarType::FLOAT, 0, &sizes, &dim_order, false,
                                    data_buffer, alloc);
    values_.push_back(fb::CreateEValue(b_, fb::KernelTypes::Tensor, t.Union()));
    return static_cast<int32_t>(values_.size() - 1);
  }
  // A float tensor of `sizes` laid out in `dim_order`, planned at `offset`
  // in buffer 1.
  int32_t shaped(const std::vector<int32_t>& sizes, const std::vector<uint8_t>& dim_order,
                 uint32_t offset) {
    auto alloc = fb::CreateAllocationDetails(b_, 1, offset, 0);
    auto t = fb::CreateTensorDirect(b_, executorch::ScalarType::FLOAT, 0, &sizes, &dim_order, false,
                                    0, alloc);
    values_.push_back(fb::CreateEValue(b_, fb::KernelTypes::Tensor, t.Union()));
    return static_cast<int32_t>(values_.size() - 1);
  }
  int32_t int_list(const std::vector<int64_t>& items) {
    values_.push_back(fb::CreateEValue(b_, fb::KernelTypes::IntList,
                                       fb::CreateIntListDirect(b_, &items).Union()));
    return static_cast<int32_t>(values_.size() - 1);
  }
  int32_t tensor_list(const std::vector<int32_t>& items) {
    values_.push_back(fb::CreateEValue(b_, fb::KernelTypes::TensorList,
                                       fb::CreateTensorListDirect(b_, &items).Union()));
    return static_cast<int32_t>(values_.size() - 1);
  }
  int32_t integer(int64_t v) {
    values_.push_back(fb::CreateEValue(b_, fb::KernelTypes::Int, fb::CreateInt(b_, v).Union()));
    return static_cast<int32_t>(values_.size() - 1);
  }
  void call(const char* name, const char* overload, std::vector<int32_t> args) {
    const int32_t op = static_cast<int32_t>(operators_.size());
    operators_.push_back(fb::CreateOperatorDirect(b_, name, overload));
    instructions_.push_back(fb::CreateInstruction(
        b_, fb::InstructionArguments::KernelCall, fb::CreateKernelCallDirect(b_, op, &args).Union()));
  }
  void delegate_call(std::vector<int32_t> args) {
    instructions_.push_back(fb::CreateInstruction(
        b_, fb::InstructionArguments::DelegateCall,
        fb::CreateDelegateCallDirect(b_, 0, &args).Union()));
  }
  std::vector<uint8_t> finish(const std::vector<int32_t>& inputs, const std::vector<int32_t>& outputs,
                              int64_t planned_bytes) {
    std::vector<flatbuffers::Offset<fb::Chain>> chains = {
        fb::CreateChain(b_, 0, 0, b_.CreateVector(instructions_))};
    const std::vector<int64_t> sizes = {0, planned_bytes};
    auto plan = fb::CreateExecutionPlan(b_, b_.CreateString("forward"), 0, b_.CreateVector(values_),
                                        b_.CreateVector(inputs), b_.CreateVector(outputs),
                                        b_.CreateVector(chains), b_.CreateVector(operators_), 0,
                                        b_.CreateVector(sizes));
    std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans = {plan};
    b_.Finish(fb::CreateProgram(b_, 0, b_.CreateVector(plans)), fb::ProgramIdentifier());
    return std::vector<uint8_t>(b_.GetBufferPointer(), b_.GetBufferPointer() + b_.GetSize());
  }

 private:
  flatbuffers::FlatBufferBuilder b_;
  std::vector<flatbuffers::Offset<fb::EValue>> values_;
  std::vector<flatbuffers::Offset<fb::Operator>> operators_;
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions_;
};

struct Replanned {
  Result<uint64_t> bytes = Error::Internal;
  std::vector<uint64_t> offsets;
};

Replanned replan(const std::vector<uint8_t>& file, uint64_t max_bytes = uint64_t{1} << 30) {
  Replanned r;
  PteLoadOptions options;
  options.max_planned_bytes = max_bytes;
  Result<PteProgram> program = PteProgram::load(ByteSpan(file.data(), file.size()), options);
  EXPECT_TRUE(program.ok()) << last_error_message();
  if (!program.ok()) return r;
  const size_t nv = program->plan(0)->values()->size();
  r.offsets.assign(nv, ~uint64_t{0});
  std::vector<uint64_t> scratch((kLifetimePlanScratchFixed + nv * kLifetimePlanScratchPerValue) / 8);
  r.bytes = program->plan_by_lifetimes(0, Span<uint64_t>(r.offsets.data(), nv),
                                       MemoryAllocator(scratch.data(), scratch.size() * 8));
  return r;
}

// The method keeps the file's plan, with an error that says why.
void expect_refused(const std::vector<uint8_t>& file, const char* why,
                    Error code = Error::NotSupported, uint64_t max_bytes = uint64_t{1} << 30) {
  Replanned r = replan(file, max_bytes);
  ASSERT_FALSE(r.bytes.ok());
  EXPECT_EQ(r.bytes.error(), code);
  EXPECT_NE(std::string(last_error_message()).find(why), std::string::npos) << last_error_message();
}

TEST(PteLifetimePlan, AnElementWiseChainRunsInOneBuffer) {
  // x -> relu -> relu -> relu -> y, each [16] float, every tensor apart in
  // the file: each relu may write over the input it consumes.
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t a = w.tensor(16, 64);
  const int32_t b = w.tensor(16, 128);
  const int32_t y = w.tensor(16, 192);
  w.call("aten::relu", "out", {x, a, a});
  w.call("aten::relu", "out", {a, b, b});
  w.call("aten::relu", "out", {b, y, y});
  Replanned r = replan(w.finish({x}, {y}, 256));
  ASSERT_TRUE(r.bytes.ok()) << last_error_message();
  EXPECT_EQ(*r.bytes, 64u);
  for (int32_t v : {x, a, b, y}) EXPECT_EQ(r.offsets[v], 0u) << "value " << v;
}

TEST(PteLifetimePlan, TensorsLiveAtOnceNeverShareBytes) {
  // y = x + relu(x): x still lives when relu writes, so relu cannot take it
  // over; the add's out may take over the relu's.
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t r1 = w.tensor(16, 64);
  const int32_t one = w.integer(1);
  const int32_t y = w.tensor(16, 128);
  w.call("aten::relu", "out", {x, r1, r1});
  w.call("aten::add", "out", {x, r1, one, y, y});
  Replanned r = replan(w.finish({x}, {y}, 192));
  ASSERT_TRUE(r.bytes.ok()) << last_error_message();
  EXPECT_EQ(*r.bytes, 128u);
  EXPECT_NE(r.offsets[x], r.offsets[r1]);
  // The add reads both; its out takes over one of them in place.
  EXPECT_TRUE(r.offsets[y] == r.offsets[x] || r.offsets[y] == r.offsets[r1]);
  EXPECT_EQ(r.offsets[one], 0u);
}

TEST(PteLifetimePlan, NonElementWiseOpsGetFreshMemory) {
  // A matrix op reads its input across the whole out: never in place.
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t y = w.tensor(16, 64);
  w.call("aten::cumsum", "out", {x, y, y});
  Replanned r = replan(w.finish({x}, {y}, 128));
  ASSERT_TRUE(r.bytes.ok()) << last_error_message();
  EXPECT_EQ(*r.bytes, 128u);
  EXPECT_NE(r.offsets[x], r.offsets[y]);
}

TEST(PteLifetimePlan, AViewOfAnInputThatDiesThereIsTheInputsBytes) {
  // x [16] -> view_copy [4, 4] -> relu -> unsqueeze_copy [1, 4, 4]: one
  // buffer, so neither copy moves a byte.
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t shape = w.int_list({4, 4});
  const int32_t v = w.shaped({4, 4}, {0, 1}, 64);
  const int32_t r1 = w.shaped({4, 4}, {0, 1}, 128);
  const int32_t dim = w.integer(0);
  const int32_t y = w.shaped({1, 4, 4}, {0, 1, 2}, 192);
  w.call("aten::view_copy", "out", {x, shape, v, v});
  w.call("aten::relu", "out", {v, r1, r1});
  w.call("aten::unsqueeze_copy", "out", {r1, dim, y, y});
  Replanned r = replan(w.finish({x}, {y}, 256));
  ASSERT_TRUE(r.bytes.ok()) << last_error_message();
  EXPECT_EQ(*r.bytes, 64u);
  for (int32_t value : {x, v, r1, y}) EXPECT_EQ(r.offsets[value], 0u) << "value " << value;
}

TEST(PteLifetimePlan, AViewThatMovesBytesGetsFreshMemory) {
  {
    // A channels-last [1, 4, 2, 2] seen as [16]: its bytes are not in the
    // view's order.
    MethodWriter w;
    const int32_t x = w.shaped({1, 4, 2, 2}, {0, 2, 3, 1}, 0);
    const int32_t shape = w.int_list({16});
    const int32_t v = w.tensor(16, 64);
    w.call("aten::view_copy", "out", {x, shape, v, v});
    Replanned r = replan(w.finish({x}, {v}, 128));
    ASSERT_TRUE(r.bytes.ok()) << last_error_message();
    EXPECT_NE(r.offsets[x], r.offsets[v]);
  }
  {
    // x is read again after the view: the view cannot take it over.
    MethodWriter w;
    const int32_t x = w.tensor(16, 0);
    const int32_t shape = w.int_list({4, 4});
    const int32_t v = w.shaped({4, 4}, {0, 1}, 64);
    const int32_t y = w.tensor(16, 128);
    w.call("aten::view_copy", "out", {x, shape, v, v});
    w.call("aten::relu", "out", {x, y, y});
    Replanned r = replan(w.finish({x}, {v, y}, 192));
    ASSERT_TRUE(r.bytes.ok()) << last_error_message();
    EXPECT_NE(r.offsets[x], r.offsets[v]);
  }
  {
    // permute_copy moves elements: never over its input.
    MethodWriter w;
    const int32_t x = w.shaped({4, 4}, {0, 1}, 0);
    const int32_t dims = w.int_list({1, 0});
    const int32_t y = w.shaped({4, 4}, {0, 1}, 64);
    w.call("aten::permute_copy", "out", {x, dims, y, y});
    Replanned r = replan(w.finish({x}, {y}, 128));
    ASSERT_TRUE(r.bytes.ok()) << last_error_message();
    EXPECT_NE(r.offsets[x], r.offsets[y]);
  }
}

TEST(PteLifetimePlan, AnOutputOutlivesTheLastInstruction) {
  // y is returned: the later relu's out may not take its memory.
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t y = w.tensor(16, 64);
  const int32_t z = w.tensor(16, 128);
  w.call("aten::relu", "out", {x, y, y});
  w.call("aten::relu", "out", {y, z, z});
  Replanned r = replan(w.finish({x}, {y, z}, 192));
  ASSERT_TRUE(r.bytes.ok()) << last_error_message();
  EXPECT_NE(r.offsets[y], r.offsets[z]);
}

TEST(PteLifetimePlan, TheMembersOfAnOutputListOutliveTheLastInstruction) {
  // y is returned inside a list; w, born after y's last use, may not take
  // its memory (the file's plan keeps them apart too).
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t y = w.tensor(16, 64);
  const int32_t later = w.tensor(16, 128);
  const int32_t list = w.tensor_list({y});
  w.call("aten::relu", "out", {x, y, y});
  w.call("aten::cumsum", "out", {x, later, later});
  Replanned r = replan(w.finish({x}, {list}, 192));
  ASSERT_TRUE(r.bytes.ok()) << last_error_message();
  EXPECT_NE(r.offsets[later], r.offsets[y]);
  EXPECT_NE(r.offsets[x], r.offsets[y]);
}

// y = x + s, where s is planned, not an input, and read first: it holds what
// the last run left (a buffer mutated across runs), so its bytes must stay
// its own.
std::vector<uint8_t> method_reading_state() {
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t s = w.tensor(16, 64);
  const int32_t one = w.integer(1);
  const int32_t y = w.tensor(16, 128);
  w.call("aten::add", "out", {x, s, one, y, y});
  return w.finish({x}, {y}, 192);
}

TEST(PteLifetimePlan, StateReadBeforeItIsWrittenKeepsTheFilePlan) {
  expect_refused(method_reading_state(), "value 1 is read by instruction 0 before any kernel writes it");
}

TEST(PteLifetimePlan, AnInPlaceOpIsNotAFirstWrite) {
  // index_put_ names its self twice (argument and return) but reads it.
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t cache = w.tensor(16, 64);
  w.call("aten::index_put_", "", {cache, x, cache});
  expect_refused(w.finish({x}, {cache}, 128), "before any kernel writes it");
}

TEST(PteLifetimePlan, InitialDataKeepsTheFilePlan) {
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t state = w.tensor(16, 64, 1, /*data_buffer=*/1);
  const int32_t y = w.tensor(16, 128);
  const int32_t one = w.integer(1);
  w.call("aten::add", "out", {x, state, one, y, y});
  expect_refused(w.finish({x}, {y}, 192), "value 1 has data of its own");
}

TEST(PteLifetimePlan, OtherBuffersDelegatesAndAliasesKeepTheFilePlan) {
  {
    MethodWriter w;
    const int32_t x = w.tensor(16, 0);
    const int32_t y = w.tensor(16, 0, /*memory_id=*/2);
    w.call("aten::relu", "out", {x, y, y});
    expect_refused(w.finish({x}, {y}, 64), "lives in planned buffer 2");
  }
  {
    MethodWriter w;
    const int32_t x = w.tensor(16, 0);
    const int32_t y = w.tensor(16, 64);
    w.delegate_call({x, y});
    expect_refused(w.finish({x}, {y}, 128), "instruction 0 is a DelegateCall");
  }
  {
    // y and z live together and overlap in the file: an alias the file
    // means (an elided view), which a new plan would split.
    MethodWriter w;
    const int32_t x = w.tensor(16, 0);
    const int32_t y = w.tensor(16, 64);
    const int32_t z = w.tensor(16, 96);
    w.call("aten::relu", "out", {x, y, y});
    w.call("aten::relu", "out", {x, z, z});
    expect_refused(w.finish({x}, {y, z}, 192),
                   "shares bytes between two tensors live at the same step");
  }
}

TEST(PteLifetimePlan, HostileIndicesAndLimitsAreErrorsNotCrashes) {
  {
    MethodWriter w;
    const int32_t x = w.tensor(16, 0);
    w.call("aten::relu", "out", {x, 99, 99});
    expect_refused(w.finish({x}, {x}, 64), "names a value out of range");
  }
  {
    // The file's plan would refuse to bind y; the new one must not run it.
    MethodWriter w;
    const int32_t x = w.tensor(16, 0);
    const int32_t y = w.tensor(16, 4096);
    w.call("aten::relu", "out", {x, y, y});
    expect_refused(w.finish({x}, {y}, 128), "value 1 lies outside planned buffer 1 in the file");
  }
  {
    // 16-byte tensors packed by the file, a cache line each here.
    MethodWriter w;
    const int32_t x = w.tensor(4, 0);
    const int32_t y = w.tensor(4, 16);
    w.call("aten::cumsum", "out", {x, y, y});
    expect_refused(w.finish({x}, {y}, 32), "over the limit of 64", Error::LimitExceeded,
                   /*max_bytes=*/64);
  }
}

TEST(PteLifetimePlan, AnInstalledPlanIsTheProgramsPlan) {
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t y = w.tensor(16, 64);
  w.call("aten::relu", "out", {x, y, y});
  const std::vector<uint8_t> file = w.finish({x}, {y}, 128);
  Result<PteProgram> program = PteProgram::load(ByteSpan(file.data(), file.size()));
  ASSERT_TRUE(program.ok()) << last_error_message();
  EXPECT_STREQ(program->memory_plan(0), "file");
  ASSERT_EQ(*program->planned_buffer_size(0, 0), 128u);
  std::vector<uint64_t> offsets(2);
  std::vector<uint64_t> scratch(1024);
  Result<uint64_t> bytes = program->plan_by_lifetimes(0, Span<uint64_t>(offsets.data(), 2),
                                                      MemoryAllocator(scratch.data(), 8192));
  ASSERT_TRUE(bytes.ok()) << last_error_message();
  const LifetimePlan plan{offsets.data(), *bytes};
  program->set_lifetime_plans(Span<const LifetimePlan>(&plan, 1));
  EXPECT_STREQ(program->memory_plan(0), "lifetimes");
  EXPECT_EQ(program->num_planned_buffers(0), 1u);
  EXPECT_EQ(*program->planned_buffer_size(0, 0), 64u);
  EXPECT_EQ(program->lifetime_offsets(0), offsets.data());
}

// x -> linear-like out variant -> a -> et_view -> v (planned at a's bytes, as
// ExecuTorch plans views) -> relu -> y.
std::vector<uint8_t> method_with_a_view(uint32_t view_memory_id = 1) {
  MethodWriter w;
  const int32_t x = w.tensor(16, 0);
  const int32_t a = w.tensor(16, 64);
  const int32_t v = w.tensor(16, 64, view_memory_id);
  const int32_t y = w.tensor(16, 128);
  const int32_t sizes = w.int_list({16});
  w.call("aten::relu", "out", {x, a, a});
  w.call("executorch_prim::et_view", "default", {a, sizes, v});
  w.call("aten::relu", "out", {v, y, y});
  return w.finish({x}, {y}, 192);
}

TEST(PteLifetimePlan, AViewAKernelReturnsKeepsTheFilePlanButMayBePlannedPerShape) {
  const std::vector<uint8_t> file = method_with_a_view();
  // Planned at its base's bytes, the view looks read before it is written.
  expect_refused(file, "before any kernel writes it");
  Result<PteProgram> program = PteProgram::load(ByteSpan(file.data(), file.size()));
  ASSERT_TRUE(program.ok()) << last_error_message();
  std::vector<uint8_t> views(5, 7);
  std::vector<uint64_t> scratch(1024);
  ASSERT_EQ(program->check_per_shape(0, MemoryAllocator(scratch.data(), 8192),
                                     Span<uint8_t>(views.data(), views.size())),
            Error::Ok)
      << last_error_message();
  // Values x, a, v, y, sizes: only v is a view.
  EXPECT_EQ(views, (std::vector<uint8_t>{0, 0, 1, 0, 0}));
}

TEST(PteLifetimePlan, AnUnplannedViewIsRefusedByTheLifetimePlanner) {
  // The view with no memory of its own: the planner would let a die at the
  // view's birth while v still reads its bytes.
  expect_refused(method_with_a_view(/*view_memory_id=*/0), "a view with no memory of its own");
}

TEST(PteLifetimePlan, StateIsNotPlannedPerShapeEither) {
  const std::vector<uint8_t> file = method_reading_state();
  Result<PteProgram> program = PteProgram::load(ByteSpan(file.data(), file.size()));
  ASSERT_TRUE(program.ok()) << last_error_message();
  std::vector<uint8_t> views(4);
  std::vector<uint64_t> scratch(1024);
  EXPECT_EQ(program->check_per_shape(0, MemoryAllocator(scratch.data(), 8192),
                                     Span<uint8_t>(views.data(), views.size())),
            Error::NotSupported);
  EXPECT_NE(std::string(last_error_message()).find("before any kernel writes it"), std::string::npos)
      << last_error_message();
}

TEST(PteLifetimePlan, AFilePlanOverTheLimitLoadsWhenTheLimitIsDeferred) {
  const std::vector<uint8_t> file = method_with_a_view();
  PteLoadOptions options;
  options.max_planned_bytes = 100;
  Result<PteProgram> refused = PteProgram::load(ByteSpan(file.data(), file.size()), options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(), Error::LimitExceeded);
  options.defer_plan_limit = true;
  Result<PteProgram> program = PteProgram::load(ByteSpan(file.data(), file.size()), options);
  ASSERT_TRUE(program.ok()) << last_error_message();
  EXPECT_EQ(program->check_plan_limit(0), Error::LimitExceeded);
  EXPECT_NE(std::string(last_error_message()).find("memory plan needs 192 bytes"), std::string::npos)
      << last_error_message();
  const LifetimePlan per_shape{nullptr, 0, true, nullptr};
  program->set_lifetime_plans(Span<const LifetimePlan>(&per_shape, 1));
  EXPECT_STREQ(program->memory_plan(0), "per-shape");
  EXPECT_EQ(program->num_planned_buffers(0), 0u);
}

}  // namespace
}  // namespace tri::pte
