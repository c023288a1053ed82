// Per-shape planning in the core: the schedule plan_lazy_tensors makes from a
// method's instructions (a view keeps its base alive; outputs live to the end),
// and the interpreter binding lazy tensors as kernels size them and releasing
// them after their last use, through a binder that records what it is asked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "cpp/runtime/executor/lazy_plan.h"
#include "cpp/runtime/executor/method.h"

namespace tri {
namespace {

std::vector<std::string>* g_events = nullptr;

void note(const std::string& event) {
  if (g_events != nullptr) g_events->push_back(event);
}

// test::increment(Tensor self, *, Tensor(a!) out) -> out = self + 1, sized first.
Error increment(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor * self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor * out, args.tensor(1));
  TRI_TRY(out->resize(self->sizes()));
  for (size_t i = 0; i < self->numel(); ++i) {
    out->data_ptr<float>()[i] = self->data_ptr<float>()[i] + 1.0f;
  }
  note("increment");
  return Error::Ok;
}

// test::view(Tensor self, *, Tensor out): out shares self's bytes, as et_view.
Error view(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor * self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor * out, args.tensor(1));
  out->set_data(self->mutable_data(), self->nbytes());
  TRI_TRY(out->resize(self->sizes()));
  note("view");
  return Error::Ok;
}

// test::forget(Tensor self, *, Tensor(a!) out): returns without sizing or writing out.
Error forget(KernelContext&, KernelArgs&) { return Error::Ok; }

// Hands out malloc'd blocks (a test may), naming each tensor by its slot.
class RecordingBinder final : public TensorBinder {
 public:
  explicit RecordingBinder(const std::vector<Tensor>* tensors) : tensors_(tensors) {}
  ~RecordingBinder() { release_all(); }
  Error bind(Tensor& t, size_t nbytes) override {
    release(t);
    void* p = std::malloc(nbytes > 0 ? nbytes : 1);
    blocks_.push_back(p);
    t.set_data(p, nbytes);
    note("bind v" + std::to_string(slot(t)) + " " + std::to_string(nbytes));
    return Error::Ok;
  }
  void release(Tensor& t) override {
    if (t.data() == nullptr) return;
    note("release v" + std::to_string(slot(t)));
    t.set_data(nullptr, 0);
  }
  void release_all() override {
    for (void* p : blocks_) std::free(p);
    blocks_.clear();
  }
  Error reserve_scratch(size_t, MemoryAllocator&) override {
    return fail(Error::NotSupported, "no kernel here takes scratch");
  }

 private:
  size_t slot(const Tensor& t) const { return static_cast<size_t>(&t - tensors_->data()); }
  const std::vector<Tensor>* tensors_;
  std::vector<void*> blocks_;
};

// v0 (input) -increment-> v1 -view-> v2 -increment-> v3 -increment-> v4 (output).
// v1, v3 and v4 are lazy and dynamic; v2 has no memory of its own.
class LazyPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ops_.push_back({KernelEntry{"test::increment.out", increment, 3}, "test::increment.out"});
    KernelEntry view_entry{"test::view", view, 3};
    view_entry.returns_view = true;
    ops_.push_back({view_entry, "test::view"});
    ops_.push_back({KernelEntry{"test::forget.out", forget, 3}, "test::forget.out"});
    tensors_.resize(5);
    const SizesType bound[] = {100};
    for (Tensor& t : tensors_) {
      ASSERT_EQ(t.init(ScalarType::Float, Span<const SizesType>(bound, 1), {}, nullptr, 0,
                       ShapeDynamism::DynamicBound),
                Error::Ok);
    }
    for (int v : {1, 3, 4}) tensors_[v].set_binder(&binder_);
    for (Tensor& t : tensors_) values_.push_back(EValue::from_tensor(&t));
    // Each call: (self, out, returned) with returned == out.
    const int calls[4][3] = {{0, 0, 1}, {1, 1, 2}, {2, 0, 3}, {3, 0, 4}};
    args_.resize(4);
    for (int i = 0; i < 4; ++i) {
      const int self = calls[i][0];
      const int out = calls[i][2];
      args_[i] = {&values_[self], &values_[out], &values_[out]};
      Instruction instr;
      instr.kind = InstructionKind::KernelCall;
      instr.target = static_cast<uint32_t>(calls[i][1]);
      instr.args = args_[i].data();
      instr.num_args = 3;
      instructions_.push_back(instr);
    }
  }

  Result<LazySchedule> schedule() {
    return plan_lazy_tensors(Span<EValue>(values_.data(), values_.size()),
                             Span<const Instruction>(instructions_.data(), instructions_.size()),
                             Span<const int32_t>(inputs_.data(), inputs_.size()),
                             Span<const int32_t>(outputs_.data(), outputs_.size()), alloc_);
  }

  Method make(const LazySchedule& s) {
    MethodPlan plan;
    plan.name = "forward";
    plan.values = Span<EValue>(values_.data(), values_.size());
    plan.instructions = Span<Instruction>(instructions_.data(), instructions_.size());
    plan.inputs = Span<const int32_t>(inputs_.data(), inputs_.size());
    plan.outputs = Span<const int32_t>(outputs_.data(), outputs_.size());
    plan.operators = Span<ResolvedOperator>(ops_.data(), ops_.size());
    plan.lazy = s.lazy;
    plan.lazy_by_last = s.lazy_by_last;
    plan.binder = &binder_;
    return Method(plan, nullptr);
  }

  // Points input v0 at `data`, sized [data->size()].
  bool set_input(Method& method, std::vector<float>* data) {
    const SizesType sizes[] = {static_cast<SizesType>(data->size())};
    Result<Tensor*> in = method.prepare_input_tensor(0, Span<const SizesType>(sizes, 1));
    if (!in.ok()) {
      ADD_FAILURE() << last_error_message();
      return false;
    }
    (*in)->set_data(data->data(), data->size() * sizeof(float));
    return true;
  }

  // Schedules and builds the method, then runs it on four ones, expecting
  // `code` and a message that holds `message`.
  void expect_run_fails(Error code, const char* message) {
    Result<LazySchedule> s = schedule();
    ASSERT_TRUE(s.ok()) << last_error_message();
    Method method = make(*s);
    std::vector<float> input(4, 1.0f);
    ASSERT_TRUE(set_input(method, &input));
    EXPECT_EQ(method.execute(), code);
    EXPECT_NE(std::string(last_error_message()).find(message), std::string::npos)
        << last_error_message();
  }

  uint32_t last_of(const LazySchedule& s, int v) {
    for (const LazyTensor& l : s.lazy) {
      if (l.tensor == &tensors_[v]) return l.last;
    }
    ADD_FAILURE() << "v" << v << " is not scheduled";
    return 0;
  }

  std::vector<ResolvedOperator> ops_;
  std::vector<Tensor> tensors_;
  std::vector<EValue> values_;
  std::vector<std::vector<EValue*>> args_;
  std::vector<Instruction> instructions_;
  std::vector<int32_t> inputs_ = {0};
  std::vector<int32_t> outputs_ = {4};
  RecordingBinder binder_{&tensors_};
  alignas(16) uint8_t arena_[4096] = {};
  MemoryAllocator alloc_{arena_, sizeof(arena_)};
};

TEST_F(LazyPlanTest, AViewKeepsItsBaseAliveAndOutputsLiveToTheEnd) {
  Result<LazySchedule> s = schedule();
  ASSERT_TRUE(s.ok()) << last_error_message();
  // v1, v3 and v4, and v2, the view: never bound, only let through.
  ASSERT_EQ(s->lazy.size(), 4u);
  EXPECT_EQ(s->lazy[0].tensor, &tensors_[1]);
  EXPECT_EQ(s->lazy[0].first, 0u);
  EXPECT_FALSE(s->lazy[0].view);
  EXPECT_EQ(s->lazy[1].tensor, &tensors_[2]);
  EXPECT_EQ(s->lazy[1].first, 1u);
  EXPECT_TRUE(s->lazy[1].view);
  EXPECT_EQ(last_of(*s, 2), 2u);
  // v1's own last use is the view (1); the view is read at 2.
  EXPECT_EQ(last_of(*s, 1), 2u);
  EXPECT_EQ(last_of(*s, 3), 3u);
  EXPECT_EQ(last_of(*s, 4), LazyTensor::kLiveToEnd);
  // By last use: v1 and its view, v3, then the output.
  EXPECT_EQ(s->lazy[s->lazy_by_last[0]].tensor, &tensors_[1]);
  EXPECT_EQ(s->lazy[s->lazy_by_last[3]].tensor, &tensors_[4]);
}

TEST_F(LazyPlanTest, AMethodThatIsNotStraightLineKernelCallsIsRefused) {
  Instruction move;
  move.kind = InstructionKind::Move;
  instructions_.push_back(move);
  Result<LazySchedule> s = schedule();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), Error::NotSupported);
  EXPECT_NE(std::string(last_error_message()).find("instruction 4 is not one"), std::string::npos)
      << last_error_message();
}

TEST_F(LazyPlanTest, RunsBindAtTheKernelsSizesAndReleaseAfterTheLastUse) {
  Result<LazySchedule> s = schedule();
  ASSERT_TRUE(s.ok()) << last_error_message();
  Method method = make(*s);
  ASSERT_TRUE(method.plans_per_shape());

  for (const int n : {3, 7}) {
    std::vector<std::string> events;
    g_events = &events;
    std::vector<float> input(static_cast<size_t>(n), 5.0f);
    const SizesType sizes[] = {n};
    tensors_[0].set_data(nullptr, 0);  // the caller rebinds its input, as HostModel does
    Result<Tensor*> in = method.prepare_input_tensor(0, Span<const SizesType>(sizes, 1));
    ASSERT_TRUE(in.ok()) << last_error_message();
    (*in)->set_data(input.data(), input.size() * sizeof(float));
    ASSERT_EQ(method.execute(), Error::Ok) << last_error_message();
    g_events = nullptr;
    const std::string bytes = std::to_string(n * 4);
    const std::vector<std::string> want = {
        "bind v1 " + bytes, "increment",  "view",           "bind v3 " + bytes, "increment",
        "release v1",       "bind v4 " + bytes, "increment", "release v3"};
    EXPECT_EQ(events, want) << "n = " << n;
    const Tensor& out = method.output(0).to_tensor();
    ASSERT_EQ(out.numel(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) EXPECT_EQ(out.data_ptr<float>()[i], 8.0f);
  }
}

TEST_F(LazyPlanTest, AKernelThatLeavesItsDynamicOutUnsizedIsNamed) {
  instructions_[2].target = 2;  // test::forget in the place of v3's increment
  expect_run_fails(Error::Internal, "instruction 2 (test::forget.out) wrote a tensor");
}

TEST_F(LazyPlanTest, OnlyAKernelThatReturnsViewsMayReturnATensorWithNoMemory) {
  // increment in the place of the view: it would write v2 (planned as a
  // view: no memory of its own) through a null pointer.
  instructions_[1].target = 0;
  expect_run_fails(Error::InvalidProgram,
                   "instruction 1 (test::increment.out): argument 1: tensor has no memory");
}

TEST_F(LazyPlanTest, ALazyTensorReadBeforeAnyKernelWritesItIsRefused) {
  // v1 as instruction 0's self: its kernel would read it before it has memory.
  args_[0][0] = &values_[1];
  Result<LazySchedule> s = schedule();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), Error::NotSupported);
  EXPECT_NE(std::string(last_error_message())
                .find("instruction 0 reads, as argument 0, a tensor that no earlier instruction writes"),
            std::string::npos)
      << last_error_message();
}

TEST_F(LazyPlanTest, SeparateOutsGetMemoryBeforeTheirKernelRuns) {
  // Instruction 3 returns [v3, v4] (as values and indices are returned):
  // (self = v3, out0 = v3, out1 = v4, returned). The call, not the kernel,
  // says v4 is an out, so v4 starts empty with memory of its own: a kernel
  // that took it for an input would read no element, never a null pointer.
  EValue* items[] = {&values_[3], &values_[4]};
  Tensor* scratch[2] = {};
  EValue list;
  list.tag = Tag::TensorList;
  list.payload.as_tensor_list = BoxedTensorList{items, scratch, 2};
  args_[3] = {&values_[3], &values_[3], &values_[4], &list};
  instructions_[3].args = args_[3].data();
  instructions_[3].num_args = 4;
  instructions_[3].target = 2;  // test::forget: it writes nothing
  ops_[2].kernel.num_args = 4;
  Result<LazySchedule> s = schedule();
  ASSERT_TRUE(s.ok()) << last_error_message();
  Method method = make(*s);
  std::vector<float> input(4, 1.0f);
  ASSERT_TRUE(set_input(method, &input));
  std::vector<std::string> events;
  g_events = &events;
  ASSERT_EQ(method.execute(), Error::Ok) << last_error_message();
  g_events = nullptr;
  EXPECT_NE(std::find(events.begin(), events.end(), "bind v4 0"), events.end());
  EXPECT_NE(tensors_[4].data(), nullptr);
  EXPECT_EQ(tensors_[4].numel(), 0u);
  EXPECT_EQ(tensors_[4].bound_sizes()[0], 100);
}

}  // namespace
}  // namespace tri
