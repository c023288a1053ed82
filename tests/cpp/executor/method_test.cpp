// The interpreter on hand-built plans: every instruction kind, input binding,
// error context, and the instruction budget that stops runaway jumps.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cpp/runtime/executor/method.h"
#include "tests/cpp/support/tensor_factory.h"

namespace tri {
namespace {

using testing::TensorFactory;

// test::increment(Tensor self, *, Tensor(a!) out) -> Tensor(a!): out = self + 1
Error increment(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor * self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor * out, args.tensor(1));
  TRI_CHECK(self->scalar_type() == ScalarType::Float, Error::InvalidType,
            "self: dtype %s, expected Float", scalar_type_name(self->scalar_type()));
  TRI_TRY(out->resize(self->sizes()));
  for (size_t i = 0; i < self->numel(); ++i) {
    out->data_ptr<float>()[i] = self->data_ptr<float>()[i] + 1.0f;
  }
  return Error::Ok;
}

class MethodTest : public ::testing::Test {
 protected:
  void SetUp() override {
    entry_.name = "test::increment.out";
    entry_.fn = increment;
    entry_.num_args = 3;
    ops_.push_back({entry_, "test::increment.out"});
  }

  Method make(std::vector<EValue>& values, std::vector<Instruction>& instrs,
              std::vector<int32_t>& inputs, std::vector<int32_t>& outputs) {
    MethodPlan plan;
    plan.name = "forward";
    plan.values = Span<EValue>(values.data(), values.size());
    plan.instructions = Span<Instruction>(instrs.data(), instrs.size());
    plan.inputs = Span<const int32_t>(inputs.data(), inputs.size());
    plan.outputs = Span<const int32_t>(outputs.data(), outputs.size());
    plan.operators = Span<ResolvedOperator>(ops_.data(), ops_.size());
    return Method(plan, nullptr);
  }

  // increment.out(in, out=out) where `out` has no memory: refused before
  // the kernel runs.
  void expect_refused(Tensor* in, Tensor* out) {
    std::vector<EValue> values = {EValue::from_tensor(in), EValue::from_tensor(out)};
    std::vector<EValue*> args = {&values[0], &values[1], &values[1]};
    std::vector<Instruction> instrs = {kernel_call(args)};
    std::vector<int32_t> inputs, outputs = {1};
    Method m = make(values, instrs, inputs, outputs);
    EXPECT_EQ(m.execute(), Error::InvalidProgram);
    EXPECT_STREQ(last_error_message(),
                 "method 'forward': instruction 0 (test::increment.out): "
                 "argument 1: tensor has no memory (not memory-planned, not an "
                 "input, or freed)");
  }

  Instruction kernel_call(std::vector<EValue*>& args) {
    Instruction instr;
    instr.kind = InstructionKind::KernelCall;
    instr.target = 0;
    instr.args = args.data();
    instr.num_args = static_cast<uint32_t>(args.size());
    return instr;
  }

  // 0: JumpFalse(cond=v2, dest=3)
  // 1: increment(v0) -> v1
  // 2: JumpFalse(cond=v3 (false), dest=4)   -- unconditional skip
  // 3: Move v0 -> v1
  std::vector<Instruction> jump_and_move(std::vector<EValue*>& args) {
    Instruction jump;
    jump.kind = InstructionKind::JumpFalse;
    jump.a = 2;
    jump.b = 3;
    Instruction skip = jump;
    skip.a = 3;
    skip.b = 4;
    Instruction move;
    move.kind = InstructionKind::Move;
    move.a = 0;
    move.b = 1;
    return {jump, kernel_call(args), skip, move};
  }

  // jump_and_move over in = [5], out, and the conditions true and false;
  // input: the first condition, output: out.
  struct JumpProgram {
    std::vector<EValue> values;
    std::vector<EValue*> args;
    std::vector<Instruction> instrs;
    std::vector<int32_t> inputs = {2}, outputs = {1};
  };
  void build(JumpProgram& p) {
    p.values = {EValue::from_tensor(tf_.make(ScalarType::Float, {1}, {5})),
                EValue::from_tensor(tf_.zeros(ScalarType::Float, {1})), EValue::from_bool(true),
                EValue::from_bool(false)};
    p.args = {&p.values[0], &p.values[1], &p.values[1]};
    p.instrs = jump_and_move(p.args);
  }

  // One JumpFalse on a constant false that jumps to itself forever.
  struct LoopProgram {
    std::vector<EValue> values = {EValue::from_bool(false)};
    std::vector<Instruction> instrs = {self_jump()};
    std::vector<int32_t> inputs, outputs;
    static Instruction self_jump() {
      Instruction loop;
      loop.kind = InstructionKind::JumpFalse;
      loop.a = 0;
      loop.b = 0;
      return loop;
    }
  };

  KernelEntry entry_;
  std::vector<ResolvedOperator> ops_;
  TensorFactory tf_;
};

TEST_F(MethodTest, KernelCallRunsAndOutputsAlias) {
  Tensor* in = tf_.make(ScalarType::Float, {2}, {1, 2});
  Tensor* out = tf_.zeros(ScalarType::Float, {2});
  std::vector<EValue> values = {EValue::from_tensor(in), EValue::from_tensor(out)};
  std::vector<EValue*> args = {&values[0], &values[1], &values[1]};
  std::vector<Instruction> instrs = {kernel_call(args)};
  std::vector<int32_t> inputs = {0}, outputs = {1};
  Method m = make(values, instrs, inputs, outputs);
  ASSERT_EQ(m.execute(), Error::Ok) << last_error_message();
  EXPECT_EQ(TensorFactory::values(m.output(0).to_tensor()),
            (std::vector<double>{2, 3}));
}

TEST_F(MethodTest, KernelErrorsCarryInstructionAndOperator) {
  Tensor* in = tf_.make(ScalarType::Long, {1}, {1});
  Tensor* out = tf_.zeros(ScalarType::Float, {1});
  std::vector<EValue> values = {EValue::from_tensor(in), EValue::from_tensor(out)};
  std::vector<EValue*> args = {&values[0], &values[1], &values[1]};
  std::vector<Instruction> instrs = {kernel_call(args)};
  std::vector<int32_t> inputs = {0}, outputs = {1};
  Method m = make(values, instrs, inputs, outputs);
  EXPECT_EQ(m.execute(), Error::InvalidType);
  EXPECT_STREQ(last_error_message(),
               "method 'forward': instruction 0 (test::increment.out): self: "
               "dtype Long, expected Float");
}

TEST_F(MethodTest, JumpFalseAndMove) {
  JumpProgram p;
  build(p);
  Tensor* in = &p.values[0].to_tensor();
  Method m = make(p.values, p.instrs, p.inputs, p.outputs);
  ASSERT_EQ(m.execute(), Error::Ok) << last_error_message();
  EXPECT_EQ(TensorFactory::values(m.output(0).to_tensor()), (std::vector<double>{6}));
  // With the condition false, the jump skips the kernel and the move makes the
  // output slot alias the input.
  ASSERT_EQ(m.set_input_scalar(0, EValue::from_bool(false)), Error::Ok);
  ASSERT_EQ(m.execute(), Error::Ok) << last_error_message();
  EXPECT_EQ(&m.output(0).to_tensor(), in);
}

TEST_F(MethodTest, JumpConditionMustBeBool) {
  std::vector<EValue> values = {EValue::from_int(1)};
  Instruction jump;
  jump.kind = InstructionKind::JumpFalse;
  jump.a = 0;
  jump.b = 0;
  std::vector<Instruction> instrs = {jump};
  std::vector<int32_t> inputs, outputs;
  Method m = make(values, instrs, inputs, outputs);
  EXPECT_EQ(m.execute(), Error::InvalidType);
  EXPECT_NE(std::string(last_error_message()).find("expected Bool"), std::string::npos);
}

TEST_F(MethodTest, RunawayLoopHitsTheBudget) {
  LoopProgram p;
  Method m = make(p.values, p.instrs, p.inputs, p.outputs);
  ExecuteOptions options;
  options.max_instructions = 1000;
  EXPECT_EQ(m.execute(options), Error::LimitExceeded);
  EXPECT_NE(std::string(last_error_message()).find("without finishing"),
            std::string::npos);
}

// A slice of 1 ns stops after every instruction: a run of the jump program
// (condition true: jump, increment, skip) takes three calls, gives the same
// output as a whole run, and counts its profile across the slices.
TEST_F(MethodTest, SlicedRunStopsBetweenInstructionsAndResumes) {
  JumpProgram p;
  build(p);
  Method m = make(p.values, p.instrs, p.inputs, p.outputs);
  std::vector<InstructionTiming> timings(p.instrs.size());
  ExecuteOptions options;
  options.slice_ns = 1;
  options.timings = {timings.data(), timings.size()};
  bool finished = true;
  ASSERT_EQ(m.execute(options, &finished), Error::Ok) << last_error_message();
  EXPECT_FALSE(finished);
  EXPECT_TRUE(m.suspended());
  EXPECT_EQ(timings[0].calls, 1u);
  EXPECT_EQ(timings[1].calls, 0u);  // the kernel has not run yet
  ASSERT_EQ(m.resume(options, &finished), Error::Ok) << last_error_message();
  EXPECT_FALSE(finished);
  EXPECT_EQ(TensorFactory::values(m.output(0).to_tensor()), (std::vector<double>{6}));
  ASSERT_EQ(m.resume(options, &finished), Error::Ok) << last_error_message();
  EXPECT_TRUE(finished);
  EXPECT_FALSE(m.suspended());
  EXPECT_EQ(timings[2].calls, 1u);
  EXPECT_EQ(timings[3].calls, 0u);
  // Nothing is left to resume.
  EXPECT_EQ(m.resume(options, &finished), Error::InvalidState);
  EXPECT_NE(std::string(last_error_message()).find("no suspended run"), std::string::npos);
}

TEST_F(MethodTest, AbandonedRunCannotBeResumedAndTheNextRunStartsOver) {
  JumpProgram p;
  build(p);
  Method m = make(p.values, p.instrs, p.inputs, p.outputs);
  ExecuteOptions sliced;
  sliced.slice_ns = 1;
  bool finished = true;
  ASSERT_EQ(m.execute(sliced, &finished), Error::Ok);
  ASSERT_FALSE(finished);
  m.abandon();
  EXPECT_FALSE(m.suspended());
  EXPECT_EQ(m.resume(sliced, &finished), Error::InvalidState);
  ASSERT_EQ(m.execute(ExecuteOptions(), &finished), Error::Ok) << last_error_message();
  EXPECT_TRUE(finished);
  EXPECT_EQ(TensorFactory::values(m.output(0).to_tensor()), (std::vector<double>{6}));
}

// The instruction budget counts from the run's start across slices, and a
// failed run is over.
TEST_F(MethodTest, SlicedLoopHitsTheBudgetAcrossSlices) {
  LoopProgram p;
  Method m = make(p.values, p.instrs, p.inputs, p.outputs);
  ExecuteOptions options;
  options.max_instructions = 10;
  options.slice_ns = 1;
  bool finished = true;
  Error status = m.execute(options, &finished);
  int slices = 1;
  while (status == Error::Ok && !finished) {
    status = m.resume(options, &finished);
    ++slices;
  }
  EXPECT_EQ(status, Error::LimitExceeded);
  EXPECT_EQ(slices, 11);
  EXPECT_FALSE(m.suspended());
}

TEST_F(MethodTest, ProfileCountsEveryInstructionThatRan) {
  // Condition true: the kernel and both jumps run, the move is skipped.
  JumpProgram p;
  build(p);
  Method m = make(p.values, p.instrs, p.inputs, p.outputs);
  std::vector<InstructionTiming> timings(p.instrs.size());
  ExecuteOptions options;
  options.timings = {timings.data(), timings.size()};
  ASSERT_EQ(m.execute(options), Error::Ok) << last_error_message();
  ASSERT_EQ(m.execute(options), Error::Ok) << last_error_message();
  EXPECT_EQ(timings[0].calls, 2u);
  EXPECT_EQ(timings[1].calls, 2u);
  EXPECT_EQ(timings[2].calls, 2u);
  EXPECT_EQ(timings[3].calls, 0u);
  EXPECT_EQ(timings[3].nanoseconds, 0u);
  EXPECT_STREQ(m.instruction_name(0), "jump_false");
  EXPECT_STREQ(m.instruction_name(1), "test::increment.out");
  EXPECT_STREQ(m.instruction_name(3), "move");
  EXPECT_STREQ(m.instruction_name(4), "?");
  // A run without timings reads no clock and leaves them alone.
  ASSERT_EQ(m.execute(), Error::Ok);
  EXPECT_EQ(timings[1].calls, 2u);
}

TEST_F(MethodTest, ProfileNeedsOneSlotPerInstruction) {
  std::vector<EValue> values = {EValue::from_bool(true)};
  Instruction jump;
  jump.kind = InstructionKind::JumpFalse;
  jump.a = 0;
  jump.b = 1;
  std::vector<Instruction> instrs = {jump, jump};
  std::vector<int32_t> inputs, outputs;
  Method m = make(values, instrs, inputs, outputs);
  std::vector<InstructionTiming> timings(1);
  ExecuteOptions options;
  options.timings = {timings.data(), timings.size()};
  EXPECT_EQ(m.execute(options), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(), "method 'forward': 1 timing slots for 2 instructions");
  EXPECT_EQ(timings[0].calls, 0u);
}

TEST_F(MethodTest, FreeClearsTensorData) {
  Tensor* t = tf_.make(ScalarType::Float, {1}, {1});
  std::vector<EValue> values = {EValue::from_tensor(t)};
  Instruction free_call;
  free_call.kind = InstructionKind::Free;
  free_call.a = 0;
  std::vector<Instruction> instrs = {free_call};
  std::vector<int32_t> inputs, outputs = {0};
  Method m = make(values, instrs, inputs, outputs);
  ASSERT_EQ(m.execute(), Error::Ok);
  EXPECT_EQ(t->data(), nullptr);
}

TEST_F(MethodTest, TensorWithoutMemoryIsRefusedBeforeTheKernelRuns) {
  Tensor* out = tf_.zeros(ScalarType::Float, {2});
  out->set_data(nullptr, 0);  // e.g. neither planned nor an input
  expect_refused(tf_.make(ScalarType::Float, {2}, {1, 2}), out);
}

// Empty now, but resizable: the kernel would size it to its input's shape
// and write through the null pointer.
TEST_F(MethodTest, EmptyResizableTensorWithoutMemoryIsRefusedToo) {
  Tensor* out = tf_.zeros(ScalarType::Float, {0}, {}, ShapeDynamism::DynamicUnbound);
  out->set_data(nullptr, 0);
  expect_refused(tf_.make(ScalarType::Float, {2}, {1, 2}), out);
}

TEST_F(MethodTest, InputsAreCheckedByKindAndShape) {
  Tensor* in = tf_.zeros(ScalarType::Float, {4}, {}, ShapeDynamism::DynamicBound);
  std::vector<EValue> values = {EValue::from_tensor(in), EValue::from_int(3)};
  std::vector<Instruction> instrs;
  std::vector<int32_t> inputs = {0, 1}, outputs = {0};
  Method m = make(values, instrs, inputs, outputs);
  const SizesType two[] = {2};
  ASSERT_TRUE(m.prepare_input_tensor(0, two).ok());
  EXPECT_EQ(in->numel(), 2u);
  const SizesType five[] = {5};
  EXPECT_FALSE(m.prepare_input_tensor(0, five).ok());
  EXPECT_NE(std::string(last_error_message()).find("input 0 of method 'forward'"),
            std::string::npos);
  EXPECT_FALSE(m.prepare_input_tensor(1, two).ok());
  EXPECT_EQ(m.set_input_scalar(1, EValue::from_double(1.0)), Error::InvalidType);
  EXPECT_EQ(m.set_input_scalar(1, EValue::from_int(7)), Error::Ok);
  EXPECT_EQ(m.input(1).to_int(), 7);
  EXPECT_FALSE(m.prepare_input_tensor(2, two).ok());
}

}  // namespace
}  // namespace tri
