// The method builder on a hand-written MethodSource (no file format): it
// resolves and runs kernels, lists every missing operator, checks argument
// counts and every index, initializes delegates with cleanup on failure, and
// sizes the method allocator by running the same build in sizing mode.
#include "cpp/runtime/executor/method_builder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "tests/cpp/support/counting_backend.h"
#include "tests/cpp/support/tensor_factory.h"

namespace tri {
namespace {

using testing::CountingBackend;
using testing::TensorFactory;

constexpr const char* kBackendId = "MethodBuilderTestBackend";

// A method described by plain vectors: float tensors of shape [2] planned
// back to back in buffer 1, then other values (by default an Int, alpha = 1).
// `lie` lets a test make the front end lie about tensor i once it is built.
class FakeSource final : public MethodSource {
 public:
  size_t num_tensors = 3;
  std::vector<OperatorRef> ops = {{"aten::add", "out"}};
  std::vector<InstructionRef> instructions;
  std::vector<std::string> delegate_blobs;
  std::vector<int32_t> ins = {0, 1};
  std::vector<int32_t> outs = {2};
  std::vector<CompileSpec> specs = {{"key", ByteSpan()}};
  std::vector<EValue> others = {EValue::from_int(1)};
  std::function<Error(size_t, Tensor*, const ValueBuildContext&)> lie;

  const char* name() const override { return "forward"; }
  size_t num_values() const override { return num_tensors + others.size(); }
  Error build_values(const ValueBuildContext& context, Span<EValue> values) const override {
    ++builds;
    const SizesType sizes[] = {2};
    for (size_t i = 0; i < num_tensors; ++i) {
      Tensor* t = context.memory->method->allocate_array<Tensor>(1);
      TRI_CHECK(t != nullptr, Error::MemoryAllocationFailed, "method allocator exhausted");
      TRI_TRY(t->init(ScalarType::Float, Span<const SizesType>(sizes, 1), {}, nullptr, 0,
                      ShapeDynamism::Static));
      if (!context.sizing) {
        TRI_ASSIGN_OR_RETURN(void* data, context.memory->planned->address(1, 8 * i, 8));
        t->set_data(data, 8);
        if (lie) TRI_TRY(lie(i, t, context));
      }
      values[i] = EValue::from_tensor(t);
    }
    for (size_t i = 0; i < others.size(); ++i) values[num_tensors + i] = others[i];
    return Error::Ok;
  }
  Span<const int32_t> inputs() const override { return {ins.data(), ins.size()}; }
  Span<const int32_t> outputs() const override { return {outs.data(), outs.size()}; }
  size_t num_planned_buffers() const override { return 1; }
  size_t num_operators() const override { return ops.size(); }
  Result<OperatorRef> operator_at(size_t index) const override { return ops[index]; }
  size_t num_delegates() const override { return delegate_blobs.size(); }
  Result<DelegateRef> delegate_at(size_t index) const override {
    DelegateRef d;
    d.backend_id = backend_id;
    d.processed = ByteSpan(reinterpret_cast<const uint8_t*>(delegate_blobs[index].data()),
                           delegate_blobs[index].size());
    d.num_compile_specs = specs.size();
    return d;
  }
  Result<CompileSpec> compile_spec_at(size_t, size_t index) const override {
    return specs[index];
  }
  size_t num_instructions() const override { return instructions.size(); }
  Result<InstructionRef> instruction_at(size_t index) const override {
    return instructions[index];
  }

  const char* backend_id = kBackendId;
  mutable int builds = 0;
};

// out = x + alpha * y as aten::add.out(self, other, alpha, out) -> out.
InstructionRef add_call(std::vector<int32_t>& args) {
  InstructionRef in;
  in.kind = InstructionKind::KernelCall;
  in.target = 0;
  in.args = Span<const int32_t>(args.data(), args.size());
  return in;
}

class MethodBuilderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_.reset_counts();
    source_.instructions = {add_call(add_args_)};
  }

  Result<MethodMemoryNeeds> size(size_t trial_bytes = sizeof(trial_)) {
    trial_alloc_ = MemoryAllocator(trial_, trial_bytes);
    MemoryAllocator scratch(scratch_, sizeof(scratch_));
    return size_method(source_, trial_alloc_, scratch, load_options_);
  }

  // Sizes the method, then builds it in exactly the memory sizing asked for.
  Result<Method> build() {
    TRI_ASSIGN_OR_RETURN(needs_, size());
    method_alloc_ = MemoryAllocator(arena_, needs_.method_bytes);
    temp_alloc_ = MemoryAllocator(scratch_, sizeof(scratch_));
    buffer_span_ = Span<uint8_t>(planned_, sizeof(planned_));
    planned_memory_ = PlannedMemory(Span<Span<uint8_t>>(&buffer_span_, 1));
    memory_.method = &method_alloc_;
    memory_.planned = &planned_memory_;
    memory_.temp = &temp_alloc_;
    return build_method(source_, memory_, load_options_);
  }

  std::string error_of(Result<Method> result) {
    EXPECT_FALSE(result.ok());
    return last_error_message();
  }

  // Builds the method (which must succeed), runs it on inputs of shape [2]
  // (which must fail), and returns the run's error; a second run must fail
  // the same way.
  std::string run_error() {
    Result<Method> method = build();
    EXPECT_TRUE(method.ok()) << last_error_message();
    if (!method.ok()) return "";
    const SizesType two[] = {2};
    EXPECT_TRUE(method->prepare_input_tensor(0, Span<const SizesType>(two, 1)).ok());
    EXPECT_TRUE(method->prepare_input_tensor(1, Span<const SizesType>(two, 1)).ok());
    EXPECT_NE(method->execute(), Error::Ok);
    const std::string message = last_error_message();
    EXPECT_NE(method->execute(), Error::Ok) << "the same lie, met again";
    return message;
  }

  MethodLoadOptions load_options_;
  std::vector<int32_t> add_args_ = {0, 1, 3, 2, 2};
  CountingBackend& backend_ = testing::counting_backend(kBackendId);
  FakeSource source_;
  MethodMemoryNeeds needs_;
  alignas(64) uint8_t trial_[1 << 14];
  alignas(64) uint8_t arena_[1 << 14];
  alignas(64) uint8_t scratch_[1 << 14];
  alignas(64) uint8_t planned_[64];
  MemoryAllocator trial_alloc_;
  MemoryAllocator method_alloc_;
  MemoryAllocator temp_alloc_;
  Span<uint8_t> buffer_span_;
  PlannedMemory planned_memory_;
  MemoryManager memory_;
};

TEST_F(MethodBuilderTest, BuildsAMethodThatRuns) {
  Result<Method> method = build();
  ASSERT_TRUE(method.ok()) << last_error_message();
  const SizesType two[] = {2};
  Result<Tensor*> x = method->prepare_input_tensor(0, Span<const SizesType>(two, 1));
  Result<Tensor*> y = method->prepare_input_tensor(1, Span<const SizesType>(two, 1));
  ASSERT_TRUE(x.ok() && y.ok()) << last_error_message();
  float* xs = static_cast<float*>((*x)->mutable_data());
  xs[0] = 1;
  xs[1] = 2;
  float* ys = static_cast<float*>((*y)->mutable_data());
  ys[0] = 10;
  ys[1] = 20;
  ASSERT_EQ(method->execute(), Error::Ok) << last_error_message();
  EXPECT_EQ(TensorFactory::values(method->output(0).to_tensor()), (std::vector<double>{11, 22}));
}

TEST_F(MethodBuilderTest, SizingRunsTheSameBuildAndIsExact) {
  ASSERT_TRUE(build().ok()) << last_error_message();
  // One build to size, one to build; the real one used exactly what the
  // trial did (the sizing adds one alignment slack and nothing else).
  EXPECT_EQ(source_.builds, 2);
  EXPECT_EQ(method_alloc_.used() + 64, needs_.method_bytes);
  EXPECT_EQ(needs_.temp_bytes, 0u);
  // A method allocator one byte short of the real need fails cleanly.
  const size_t used = method_alloc_.used();
  method_alloc_ = MemoryAllocator(arena_, used - 1);
  Result<Method> again = build_method(source_, memory_, MethodLoadOptions());
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error(), Error::MemoryAllocationFailed);
}

// A kernel that declares 5000 bytes of scratch (KernelEntry::scratch) and
// fails when it cannot have them: out = self.
size_t scratchy_scratch(KernelArgs&) { return 5000; }

Error scratchy_out(KernelContext& context, KernelArgs& args) {
  TRI_CHECK(context.temp != nullptr && context.temp->allocate(5000) != nullptr,
            Error::MemoryAllocationFailed, "scratchy: no scratch");
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  std::memcpy(out->mutable_data(), self->data(), self->nbytes());
  return Error::Ok;
}

TEST_F(MethodBuilderTest, SizesKernelScratchAndRefusesToBuildWithLess) {
  static const KernelEntry kScratchy = {"trident_test::scratchy.out", &scratchy_out, 3, nullptr,
                                        &scratchy_scratch};
  ASSERT_EQ(register_kernel(kScratchy, /*replace=*/true), Error::Ok);
  source_.ops = {{"trident_test::scratchy", "out"}};
  std::vector<int32_t> args = {0, 2, 2};
  source_.instructions = {add_call(args)};
  Result<Method> method = build();
  ASSERT_TRUE(method.ok()) << last_error_message();
  EXPECT_EQ(needs_.temp_bytes, 5000u);
  // Exactly the declared scratch runs.
  temp_alloc_ = MemoryAllocator(scratch_, 5000);
  method_alloc_ = MemoryAllocator(arena_, needs_.method_bytes);
  Result<Method> exact = build_method(source_, memory_, MethodLoadOptions());
  ASSERT_TRUE(exact.ok()) << last_error_message();
  const SizesType two[] = {2};
  ASSERT_TRUE(exact->prepare_input_tensor(0, Span<const SizesType>(two, 1)).ok());
  ASSERT_TRUE(exact->prepare_input_tensor(1, Span<const SizesType>(two, 1)).ok());
  EXPECT_EQ(exact->execute(), Error::Ok) << last_error_message();
  // One byte less is refused at load, not at the first run.
  temp_alloc_ = MemoryAllocator(scratch_, 4999);
  method_alloc_ = MemoryAllocator(arena_, needs_.method_bytes);
  const std::string error = error_of(build_method(source_, memory_, MethodLoadOptions()));
  EXPECT_NE(error.find("needs 5000 bytes of kernel scratch memory, 4999 were given"),
            std::string::npos)
      << error;
}

TEST_F(MethodBuilderTest, ATrialTooSmallSaysSoAndOtherFailuresDoNot) {
  Result<MethodMemoryNeeds> small = size(64);
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.error(), Error::MemoryAllocationFailed);
  EXPECT_TRUE(trial_alloc_.exhausted());

  source_.ops = {{"test::nowhere", ""}};
  Result<MethodMemoryNeeds> missing = size();
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), Error::OperatorMissing);
  EXPECT_FALSE(trial_alloc_.exhausted());
}

TEST_F(MethodBuilderTest, ListsEveryMissingOperator) {
  source_.ops = {{"aten::add", "out"}, {"test::first", "out"}, {"test::second", ""}};
  EXPECT_EQ(check_method_dependencies(source_), Error::OperatorMissing);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("uses 2 operators not registered in this build: test::first.out, "
                         "test::second"),
            std::string::npos)
      << message;
  EXPECT_EQ(error_of(build()), message);
}

TEST_F(MethodBuilderTest, ChecksArgumentCountsAgainstTheKernel) {
  std::vector<int32_t> four = {0, 1, 3, 2};
  source_.instructions = {add_call(four)};
  const std::string message = error_of(build());
  EXPECT_NE(message.find("instruction 0: aten::add.out takes 5 arguments, the call passes 4"),
            std::string::npos)
      << message;
}

// out = self, and out = 42 everywhere: two kernels under one name, to tell
// which one a built method runs.
Error copy_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  std::memcpy(out->mutable_data(), self->data(), self->nbytes());
  return Error::Ok;
}

Error fill_42_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(1));
  float* data = static_cast<float*>(out->mutable_data());
  for (size_t i = 0; i < out->numel(); ++i) data[i] = 42;
  return Error::Ok;
}

TEST_F(MethodBuilderTest, ABuiltMethodKeepsTheKernelItWasBuiltWith) {
  static const KernelEntry kCopy = {"trident_test::rebound.out", &copy_out, 3, nullptr};
  static const KernelEntry kFill = {"trident_test::rebound.out", &fill_42_out, 3, nullptr};
  ASSERT_EQ(register_kernel(kCopy, /*replace=*/true), Error::Ok);
  source_.ops = {{"trident_test::rebound", "out"}};
  std::vector<int32_t> args = {0, 2, 2};
  source_.instructions = {add_call(args)};
  Result<Method> method = build();
  ASSERT_TRUE(method.ok()) << last_error_message();
  const SizesType two[] = {2};
  Result<Tensor*> x = method->prepare_input_tensor(0, Span<const SizesType>(two, 1));
  ASSERT_TRUE(x.ok() && method->prepare_input_tensor(1, Span<const SizesType>(two, 1)).ok());
  static_cast<float*>((*x)->mutable_data())[0] = 7;
  static_cast<float*>((*x)->mutable_data())[1] = 8;
  auto run = [&] {
    EXPECT_EQ(method->execute(), Error::Ok) << last_error_message();
    return TensorFactory::values(method->output(0).to_tensor());
  };
  // Replacing the registered kernel, then removing it, leaves the built
  // method as it was.
  ASSERT_EQ(register_kernel(kFill, /*replace=*/true), Error::Ok);
  EXPECT_EQ(run(), (std::vector<double>{7, 8}));
  ASSERT_EQ(unregister_kernel("trident_test::rebound.out"), Error::Ok);
  EXPECT_EQ(run(), (std::vector<double>{7, 8}));
  // A method built now finds nothing under that name.
  EXPECT_NE(error_of(build()).find("trident_test::rebound.out"), std::string::npos);
  EXPECT_EQ(unregister_kernel("trident_test::rebound.out"), Error::NotFound);
}

TEST_F(MethodBuilderTest, ChecksDeclaredOutsAgainstWhatTheCallReturns) {
  KernelEntry entry = {"trident_test::outs.out", &copy_out, -1, nullptr};
  source_.ops = {{"trident_test::outs", "out"}};
  // self, out, and the returned out: one out tensor.
  std::vector<int32_t> args = {0, 2, 2};
  source_.instructions = {add_call(args)};
  entry.num_outs = 1;
  ASSERT_EQ(register_kernel(entry, /*replace=*/true), Error::Ok);
  EXPECT_TRUE(build().ok()) << last_error_message();
  entry.num_outs = 3;
  ASSERT_EQ(register_kernel(entry, /*replace=*/true), Error::Ok);
  std::string message = error_of(build());
  EXPECT_NE(message.find("trident_test::outs.out is registered with 3 out tensors, but the "
                         "program's call returns 1"),
            std::string::npos)
      << message;
  entry.num_outs = 0;
  ASSERT_EQ(register_kernel(entry, /*replace=*/true), Error::Ok);
  message = error_of(build());
  EXPECT_NE(message.find("registered with 0 out tensors, but the program's call returns 1"),
            std::string::npos)
      << message;
  ASSERT_EQ(unregister_kernel("trident_test::outs.out"), Error::Ok);
}

struct BadIndexCase {
  const char* what;
  InstructionKind kind;
  int64_t target, a, b;
  std::vector<int32_t> args;
  const char* expected;
};

TEST_F(MethodBuilderTest, RejectsEveryIndexOutOfRange) {
  const std::vector<BadIndexCase> cases = {
      {"operator", InstructionKind::KernelCall, 1, 0, 0, {}, "KernelCall names operator 1 (the method has 1)"},
      {"negative operator", InstructionKind::KernelCall, -1, 0, 0, {}, "names operator -1"},
      {"argument", InstructionKind::KernelCall, 0, 0, 0, {0, 1, 3, 2, 4}, "argument 4 refers to value 4 (the table has 4)"},
      {"delegate", InstructionKind::DelegateCall, 0, 0, 0, {}, "DelegateCall names delegate 0 (the method has 0)"},
      {"move source", InstructionKind::Move, 0, 9, 0, {}, "MoveCall source refers to value 9"},
      {"move destination", InstructionKind::Move, 0, 0, -2, {}, "MoveCall destination refers to value -2"},
      {"jump condition", InstructionKind::JumpFalse, 0, 4, 0, {}, "JumpFalseCall condition refers to value 4"},
      {"jump target", InstructionKind::JumpFalse, 0, 3, 3, {}, "JumpFalseCall jumps to instruction 3 (the method has 2)"},
      {"free", InstructionKind::Free, 0, 100, 0, {}, "FreeCall refers to value 100"},
  };
  for (const BadIndexCase& c : cases) {
    SCOPED_TRACE(c.what);
    std::vector<int32_t> args = c.args;
    InstructionRef bad;
    bad.kind = c.kind;
    bad.target = c.target;
    bad.a = c.a;
    bad.b = c.b;
    bad.args = Span<const int32_t>(args.data(), args.size());
    source_.instructions = {add_call(add_args_), bad};
    const std::string message = error_of(build());
    EXPECT_NE(message.find("method 'forward', instruction 1: "), std::string::npos) << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
  }
  // Jumping to the end is how a method finishes.
  InstructionRef to_end;
  to_end.kind = InstructionKind::JumpFalse;
  to_end.a = 3;
  to_end.b = 2;
  source_.instructions = {add_call(add_args_), to_end};
  EXPECT_TRUE(build().ok()) << last_error_message();
}

TEST_F(MethodBuilderTest, RejectsInputsAndOutputsOutOfRange) {
  source_.ins = {0, 7};
  EXPECT_NE(error_of(build()).find("method 'forward': input 1 refers to value 7 (the table has 4)"),
            std::string::npos);
  source_.ins = {0, 1};
  source_.outs = {-1};
  EXPECT_NE(error_of(build()).find("output 0 refers to value -1"), std::string::npos);
}

// A program that passes its format's checks can still lie. Whatever a front
// end hands the builder, the core checks what it relies on, so each lie here
// (and each bad index above) is an error at load or at run, never a memory
// error: scripts/fuzz.sh runs this suite under ASan and UBSan.
TEST_F(MethodBuilderTest, RefusesATensorWithLessMemoryThanItsSizes) {
  source_.lie = [](size_t i, Tensor* t, const ValueBuildContext&) {
    if (i == 2) t->set_data(t->mutable_data(), 4);
    return Error::Ok;
  };
  EXPECT_NE(error_of(build()).find("method 'forward': value 2: a tensor of 8 bytes has memory for 4"),
            std::string::npos);
}

TEST_F(MethodBuilderTest, RefusesPlannedMemoryThatRunsPastItsBuffer) {
  // A front end that works out addresses itself, wrongly: 8 bytes at 60 of
  // the 64-byte buffer.
  source_.lie = [this](size_t i, Tensor* t, const ValueBuildContext&) {
    if (i == 2) t->set_data(planned_ + 60, 8);
    return Error::Ok;
  };
  EXPECT_NE(error_of(build()).find("value 2: its 8 bytes run past the end of its planned buffer"),
            std::string::npos);
}

TEST_F(MethodBuilderTest, RefusesPlannedRangesOutsideThePlan) {
  struct Case {
    uint32_t memory_id;
    uint64_t offset;
    const char* expected;
  };
  const Case cases[] = {
      {1, 60, "planned range [60, +8) lies outside buffer 1 of 64 bytes"},
      {1, UINT64_MAX, "lies outside buffer 1 of 64 bytes"},
      {2, 0, "memory_id 2 is not a planned buffer (the plan has 1)"},
      {0, 0, "memory_id 0 is not a planned buffer"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expected);
    source_.lie = [&c](size_t i, Tensor* t, const ValueBuildContext& context) {
      if (i != 2) return Error::Ok;
      TRI_ASSIGN_OR_RETURN(void* data, context.memory->planned->address(c.memory_id, c.offset, 8));
      t->set_data(data, 8);
      return Error::Ok;
    };
    EXPECT_NE(error_of(build()).find(c.expected), std::string::npos);
  }
}

TEST_F(MethodBuilderTest, RefusesATensorOverTheElementLimit) {
  load_options_.max_tensor_elements = 1;
  Result<Method> method = build();
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), Error::LimitExceeded);
  EXPECT_NE(std::string(last_error_message())
                .find("value 0: a tensor of 2 elements is over the limit of 1 (maxTensorElements)"),
            std::string::npos)
      << last_error_message();
  load_options_.max_tensor_elements = 2;
  EXPECT_TRUE(build().ok()) << last_error_message();
}

TEST_F(MethodBuilderTest, RefusesATensorListWithAMissingItem) {
  EValue* items[] = {nullptr};
  EValue list;
  list.tag = Tag::TensorList;
  list.payload.as_tensor_list = BoxedTensorList{items, nullptr, 1};
  source_.others.push_back(list);
  EXPECT_NE(error_of(build()).find("value 4: list item 0 is missing"), std::string::npos);
}

// Lies only a run can meet: values of the wrong kind or dtype where a kernel
// or the interpreter needs another. Each run fails with an error that names
// the instruction, and the method stays usable.
TEST_F(MethodBuilderTest, RunsMeetValuesOfTheWrongKindWithAnError) {
  struct Case {
    const char* what;
    std::vector<int32_t> args;  // of aten::add.out: self, other, alpha, out, returned
    std::vector<InstructionRef> before;
    const char* expected;
  };
  InstructionRef int_over_out;  // the Int moved over the out tensor's slot
  int_over_out.kind = InstructionKind::Move;
  int_over_out.a = 3;
  int_over_out.b = 2;
  InstructionRef tensor_condition;  // a Float tensor as a jump's condition
  tensor_condition.kind = InstructionKind::JumpFalse;
  tensor_condition.a = 0;
  tensor_condition.b = 1;
  const std::vector<Case> cases = {
      {"an Int as self", {3, 1, 3, 2, 2}, {},
       "instruction 0 (aten::add.out): argument 0: expected Tensor, got Int"},
      {"a tensor as alpha", {0, 1, 1, 2, 2}, {},
       "instruction 0 (aten::add.out): argument 2: expected Scalar (Int, Double or Bool), got Tensor"},
      {"an Int as the out", {0, 1, 3, 3, 3}, {},
       "instruction 0 (aten::add.out): argument 3: expected Tensor, got Int"},
      {"an Int moved over the out", {0, 1, 3, 2, 2}, {int_over_out},
       "instruction 1 (aten::add.out): argument 3: expected Tensor, got Int"},
      {"a Float tensor as a condition", {0, 1, 3, 2, 2}, {tensor_condition},
       "instruction 0 (JumpFalse): condition value 0 is Tensor, expected Bool"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    std::vector<int32_t> args = c.args;
    source_.instructions = c.before;
    source_.instructions.push_back(add_call(args));
    const std::string message = run_error();
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
  }
}

TEST_F(MethodBuilderTest, RunsMeetDtypesThatDisagreeWithAnError) {
  // The out tensor turns out to hold Bool: add cannot write Float sums there.
  source_.lie = [](size_t i, Tensor* t, const ValueBuildContext&) {
    if (i != 2) return Error::Ok;
    const SizesType two[] = {2};
    return t->init(ScalarType::Bool, Span<const SizesType>(two, 1), {}, t->mutable_data(), 8,
                   ShapeDynamism::Static);
  };
  const std::string message = run_error();
  EXPECT_NE(message.find("instruction 0 (aten::add.out)"), std::string::npos) << message;
}

TEST_F(MethodBuilderTest, NamesAMissingBackend) {
  source_.delegate_blobs = {"x"};
  source_.backend_id = "NoSuchBackend";
  EXPECT_EQ(check_method_dependencies(source_), Error::BackendMissing);
  EXPECT_NE(std::string(last_error_message())
                .find("delegate 0 needs backend 'NoSuchBackend', which is not registered"),
            std::string::npos)
      << last_error_message();
  EXPECT_EQ(backend_.queries, 0);
}

TEST_F(MethodBuilderTest, SizingAsksDelegatesAndInitializesNone) {
  source_.delegate_blobs = {"ab", "abc"};
  Result<MethodMemoryNeeds> needs = size();
  ASSERT_TRUE(needs.ok()) << last_error_message();
  EXPECT_EQ(backend_.queries, 2);
  EXPECT_EQ(backend_.live, 0);
  EXPECT_FALSE(backend_.queried_with_allocator);
  EXPECT_EQ(needs->temp_bytes, 3000u);

  Result<Method> method = build();
  ASSERT_TRUE(method.ok()) << last_error_message();
  EXPECT_EQ(backend_.live, 2);
  EXPECT_EQ(backend_.last_num_specs, 1u);
  EXPECT_LE(method_alloc_.used(), needs_.method_bytes);
  EXPECT_GE(method_alloc_.used(), 200u);
  method->destroy();
  EXPECT_EQ(backend_.live, 0);
}

TEST_F(MethodBuilderTest, AFailingDelegateDestroysTheOnesBeforeIt) {
  source_.delegate_blobs = {"one", "two", "fail"};
  const std::string message = error_of(build());
  EXPECT_EQ(last_error_code(), Error::DelegateInvalidCompatibility);
  EXPECT_NE(message.find("method 'forward': initializing delegate 2 (MethodBuilderTestBackend): "
                         "this blob says fail"),
            std::string::npos)
      << message;
  EXPECT_EQ(backend_.live, 0);
}

}  // namespace
}  // namespace tri
