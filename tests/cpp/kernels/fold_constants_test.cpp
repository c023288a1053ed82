// Constant folding of copy kernels at load (cpp/kernels/fusion/fold_constants):
// permute_copy(W) -> mm on hand-built methods. A constant weight that only
// the permute reads folds: the instruction goes, the permuted weight lives
// in method memory, and the method gives the same outputs. A weight in the
// plan, an input, a shared weight or a permute that is an output stays.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cpp/kernels/fusion/fold_constants.h"
#include "cpp/runtime/kernel/operator_registry.h"
#include "tests/cpp/support/hand_built_method.h"
#include "tests/cpp/support/tensor_factory.h"

namespace tri {
namespace {

using testing::HandBuiltMethod;
using testing::TensorFactory;
using testing::kernel_call;
using testing::resolved;
using testing::pass_context;
using testing::run_first_output;

// x [2, 3] @ permute_copy(W [4, 3], [1, 0]) -> y [2, 4]. W and the permuted
// weight P are bound to chosen memory: W to the test's own buffer (a
// constant) or to the planned buffer, P to the planned buffer.
class PermuteMm {
 public:
  enum Slot { kX, kW, kDims, kP, kY, kNumValues };

  explicit PermuteMm(bool weight_planned) {
    m_.values.resize(kNumValues);
    m_.values[kX] = EValue::from_tensor(tf_.make(ScalarType::Float, {2, 3}, {1, 2, 3, -1, 0.5, 4}));
    const float w[12] = {1, 0, 2, -1, 3, 0.5, 2, 2, -2, 0, 1, 1};
    float* w_memory = weight_planned ? planned_floats(0, 12) : constant_;
    memcpy(w_memory, w, sizeof(w));
    init(&weight_, {4, 3}, w_memory);
    init(&permuted_, {3, 4}, planned_floats(16, 12));
    m_.values[kW] = EValue::from_tensor(&weight_);
    m_.values[kDims] = *tf_.int_list({1, 0});
    m_.values[kP] = EValue::from_tensor(&permuted_);
    m_.values[kY] = EValue::from_tensor(tf_.zeros(ScalarType::Float, {2, 4}));
    ops_ = {resolved("aten::permute_copy.out"),
            resolved("aten::mm.out")};
    for (const ResolvedOperator& op : ops_) EXPECT_NE(op.kernel.fn, nullptr) << op.name;
    permute_args_ = {&m_.values[kW], &m_.values[kDims], &m_.values[kP], &m_.values[kP]};
    mm_args_ = {&m_.values[kX], &m_.values[kP], &m_.values[kY], &m_.values[kY]};
    instructions_ = {kernel_call(0, permute_args_), kernel_call(1, mm_args_)};
    m_.inputs = {kX};
    m_.outputs = {kY};
    reset();
  }

  void reset() {
    m_.instructions = Span<Instruction>(instructions_.data(), instructions_.size());
    m_.operators = Span<ResolvedOperator>(ops_.data(), ops_.size());
  }

  std::vector<double> run() { return run_first_output(m_, &temp_); }

  Error fold(bool sizing = false) {
    return kernels::fold_constant_copies(
        pass_context(m_, &method_, sizing, sizing ? nullptr : &planned_), &m_.instructions,
        &m_.operators);
  }

  // Scribbles over the planned buffer, as other values sharing it would.
  void clobber_planned() { memset(planned_bytes_.data(), 0x7f, planned_bytes_.size()); }

  size_t num_instructions() const { return m_.instructions.size(); }
  size_t method_bytes_used() const { return method_.used(); }
  const Tensor& permuted() const { return permuted_; }
  bool permuted_in_plan() const { return planned_.contains(permuted_.data()); }
  std::vector<int32_t>& inputs() { return m_.inputs; }
  std::vector<int32_t>& outputs() { return m_.outputs; }
  void add_second_reader_of_weight() {
    extra_args_ = {&m_.values[kW], &m_.values[kDims], &m_.values[kY], &m_.values[kY]};
    instructions_.push_back(kernel_call(0, extra_args_));
    reset();
  }

 private:
  float* planned_floats(size_t at, size_t n) {
    EXPECT_LE((at + n) * sizeof(float), planned_bytes_.size());
    return reinterpret_cast<float*>(planned_bytes_.data()) + at;
  }
  void init(Tensor* t, std::vector<SizesType> sizes, float* data) {
    size_t n = 1;
    for (SizesType s : sizes) n *= static_cast<size_t>(s);
    ASSERT_EQ(t->init(ScalarType::Float, Span<const SizesType>(sizes.data(), sizes.size()), {}, data,
                      n * sizeof(float), ShapeDynamism::Static),
              Error::Ok);
  }
  TensorFactory tf_;
  float constant_[12] = {};
  std::vector<uint8_t> planned_bytes_ = std::vector<uint8_t>(256);
  Span<uint8_t> planned_span_{planned_bytes_.data(), planned_bytes_.size()};
  PlannedMemory planned_{Span<Span<uint8_t>>(&planned_span_, 1)};
  Tensor weight_, permuted_;
  HandBuiltMethod m_;
  std::vector<ResolvedOperator> ops_;
  std::vector<EValue*> permute_args_, mm_args_, extra_args_;
  std::vector<Instruction> instructions_;
  std::vector<uint8_t> method_bytes_ = std::vector<uint8_t>(1 << 12);
  std::vector<uint8_t> temp_bytes_ = std::vector<uint8_t>(1 << 12);
  MemoryAllocator method_{method_bytes_.data(), method_bytes_.size()};
  MemoryAllocator temp_{temp_bytes_.data(), temp_bytes_.size()};
};

TEST(FoldConstantCopies, AConstantWeightsPermuteRunsOnceAtLoad) {
  PermuteMm m(/*weight_planned=*/false);
  const std::vector<double> want = m.run();
  ASSERT_EQ(m.fold(), Error::Ok) << last_error_message();
  ASSERT_EQ(m.num_instructions(), 1u);
  EXPECT_FALSE(m.permuted_in_plan());
  EXPECT_EQ(TensorFactory::values(m.permuted()),
            (std::vector<double>{1, -1, 2, 0, 0, 3, 2, 1, 2, 0.5, -2, 1}));
  // Other values may overwrite the planned buffer: the folded weight is not
  // there any more.
  m.clobber_planned();
  EXPECT_EQ(m.run(), want);
  EXPECT_EQ(m.run(), want);
}

TEST(FoldConstantCopies, SizingTakesTheMemoryTheRealBuildDoes) {
  PermuteMm sized(false), real(false);
  ASSERT_EQ(sized.fold(/*sizing=*/true), Error::Ok);
  ASSERT_EQ(real.fold(), Error::Ok);
  EXPECT_EQ(sized.num_instructions(), real.num_instructions());
  EXPECT_GE(real.method_bytes_used(), 12 * sizeof(float));
  EXPECT_EQ(sized.method_bytes_used(), real.method_bytes_used());
}

TEST(FoldConstantCopies, WhatARunCouldChangeStays) {
  {
    // The weight lives in the plan: a run may write it.
    PermuteMm m(/*weight_planned=*/true);
    ASSERT_EQ(m.fold(), Error::Ok);
    EXPECT_EQ(m.num_instructions(), 2u);
    EXPECT_TRUE(m.permuted_in_plan());
  }
  {
    // The weight is a method input.
    PermuteMm m(false);
    m.inputs().push_back(PermuteMm::kW);
    ASSERT_EQ(m.fold(), Error::Ok);
    EXPECT_EQ(m.num_instructions(), 2u);
  }
  {
    // Another instruction reads the weight too.
    PermuteMm m(false);
    m.add_second_reader_of_weight();
    ASSERT_EQ(m.fold(), Error::Ok);
    EXPECT_EQ(m.num_instructions(), 3u);
  }
  {
    // The permuted weight is a method output.
    PermuteMm m(false);
    m.outputs().push_back(PermuteMm::kP);
    ASSERT_EQ(m.fold(), Error::Ok);
    EXPECT_EQ(m.num_instructions(), 2u);
  }
}

}  // namespace
}  // namespace tri
