// The convolution + batch norm + activation fusion (cpp/kernels/fusion) on
// hand-built methods: a chain it may fuse runs as one instruction and gives
// the unfused method's outputs; a chain whose intermediates or parameters
// are visible elsewhere is left alone.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "cpp/kernels/fusion/conv_batch_norm.h"
#include "cpp/runtime/executor/method.h"
#include "tests/cpp/support/tensor_factory.h"

namespace tri {
namespace {

using testing::TensorFactory;

std::vector<double> ramp(size_t n, double scale, double offset) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<double>(i) * 1.7) * scale + offset;
  return v;
}

// conv(x) -> batch norm -> activation ("hardtanh", "relu" or none) as
// hand-built KernelCalls over one value table.
class ConvBnChain {
 public:
  enum Slot {
    kX, kW, kBias, kStride, kPad, kDil, kTransposed, kOutPad, kGroups, kConvOut,
    kGamma, kBeta, kMean, kVar, kMomentum, kEps, kBnOut, kSaveMean, kSaveInvstd,
    kMin, kMax, kActOut, kNumValues
  };

  explicit ConvBnChain(const char* activation) : activation_(activation) {
    const int32_t c = 3;
    values_.resize(kNumValues);
    values_[kX] = EValue::from_tensor(tf_.make(ScalarType::Float, {1, 2, 5, 5}, ramp(50, 1.0, 0.1)));
    values_[kW] = EValue::from_tensor(tf_.make(ScalarType::Float, {c, 2, 3, 3}, ramp(54, 0.5, 0.0)));
    values_[kBias] = EValue::from_tensor(tf_.make(ScalarType::Float, {c}, {0.25, -0.5, 1.0}));
    values_[kStride] = *tf_.int_list({1, 1});
    values_[kPad] = *tf_.int_list({1, 1});
    values_[kDil] = *tf_.int_list({1, 1});
    values_[kTransposed] = EValue::from_bool(false);
    values_[kOutPad] = *tf_.int_list({0, 0});
    values_[kGroups] = EValue::from_int(1);
    values_[kConvOut] = EValue::from_tensor(tf_.zeros(ScalarType::Float, {1, c, 5, 5}));
    values_[kGamma] = EValue::from_tensor(tf_.make(ScalarType::Float, {c}, {1.5, 0.5, -2.0}));
    values_[kBeta] = EValue::from_tensor(tf_.make(ScalarType::Float, {c}, {0.1, 2.0, -0.3}));
    values_[kMean] = EValue::from_tensor(tf_.make(ScalarType::Float, {c}, {0.2, -1.0, 0.5}));
    values_[kVar] = EValue::from_tensor(tf_.make(ScalarType::Float, {c}, {0.9, 2.5, 0.04}));
    values_[kMomentum] = EValue::from_double(0.1);
    values_[kEps] = EValue::from_double(1e-5);
    values_[kBnOut] = EValue::from_tensor(tf_.zeros(ScalarType::Float, {1, c, 5, 5}));
    values_[kSaveMean] = EValue::from_tensor(tf_.zeros(ScalarType::Float, {0}));
    values_[kSaveInvstd] = EValue::from_tensor(tf_.zeros(ScalarType::Float, {0}));
    values_[kMin] = EValue::from_double(0.0);
    values_[kMax] = EValue::from_int(6);
    values_[kActOut] = EValue::from_tensor(tf_.zeros(ScalarType::Float, {1, c, 5, 5}));

    ops_ = {{find_kernel("aten::convolution.out"), "aten::convolution.out"},
            {find_kernel("aten::_native_batch_norm_legit_no_training.out"),
             "aten::_native_batch_norm_legit_no_training.out"},
            {find_kernel("aten::hardtanh.out"), "aten::hardtanh.out"},
            {find_kernel("aten::relu.out"), "aten::relu.out"}};
    for (const ResolvedOperator& op : ops_) EXPECT_NE(op.kernel, nullptr) << op.name;
    conv_args_ = slots({kX, kW, kBias, kStride, kPad, kDil, kTransposed, kOutPad, kGroups, kConvOut,
                        kConvOut});
    bn_args_ = slots({kConvOut, kGamma, kBeta, kMean, kVar, kMomentum, kEps, kBnOut, kSaveMean,
                      kSaveInvstd, kBnOut, kSaveMean, kSaveInvstd});
    instructions_.push_back(call(0, conv_args_));
    instructions_.push_back(call(1, bn_args_));
    if (strcmp(activation_, "hardtanh") == 0) {
      act_args_ = slots({kBnOut, kMin, kMax, kActOut, kActOut});
      instructions_.push_back(call(2, act_args_));
    } else if (strcmp(activation_, "relu") == 0) {
      act_args_ = slots({kBnOut, kActOut, kActOut});
      instructions_.push_back(call(3, act_args_));
    }
    inputs_ = {kX};
    outputs_ = {strcmp(activation_, "none") == 0 ? kBnOut : kActOut};
  }

  // The chain's output after running the instructions as they are now.
  std::vector<double> run() {
    MethodPlan plan;
    plan.name = "forward";
    plan.values = Span<EValue>(values_.data(), values_.size());
    plan.instructions = instructions_span_;
    plan.inputs = Span<const int32_t>(inputs_.data(), inputs_.size());
    plan.outputs = Span<const int32_t>(outputs_.data(), outputs_.size());
    plan.operators = ops_span_;
    Method m(plan, &temp_allocator_);
    EXPECT_EQ(m.execute(), Error::Ok) << last_error_message();
    return TensorFactory::values(m.output(0).to_tensor());
  }

  // Runs the pass; the spans then describe the rewritten method.
  Error fuse(bool sizing = false) {
    MethodPassContext ctx;
    ctx.method_name = "forward";
    ctx.values = Span<EValue>(values_.data(), values_.size());
    ctx.inputs = Span<const int32_t>(inputs_.data(), inputs_.size());
    ctx.outputs = Span<const int32_t>(outputs_.data(), outputs_.size());
    ctx.alloc = &method_allocator_;
    ctx.sizing = sizing;
    return kernels::fuse_conv_batch_norm(ctx, &instructions_span_, &ops_span_);
  }

  void reset_spans() {
    instructions_span_ = Span<Instruction>(instructions_.data(), instructions_.size());
    ops_span_ = Span<ResolvedOperator>(ops_.data(), ops_.size());
  }

  size_t num_instructions() const { return instructions_span_.size(); }
  size_t method_bytes_used() const { return method_allocator_.used(); }
  const char* op_name(size_t i) const { return ops_span_[instructions_span_[i].target].name; }
  std::vector<int32_t>& inputs() { return inputs_; }
  EValue& value(Slot s) { return values_[s]; }
  std::vector<int32_t>& outputs() { return outputs_; }

 private:
  std::vector<EValue*> slots(std::initializer_list<Slot> which) {
    std::vector<EValue*> out;
    for (Slot s : which) out.push_back(&values_[s]);
    return out;
  }
  Instruction call(uint32_t op, std::vector<EValue*>& args) {
    Instruction in;
    in.kind = InstructionKind::KernelCall;
    in.target = op;
    in.args = args.data();
    in.num_args = static_cast<uint32_t>(args.size());
    return in;
  }

  const char* activation_;
  TensorFactory tf_;
  std::vector<EValue> values_;
  std::vector<ResolvedOperator> ops_;
  std::vector<EValue*> conv_args_, bn_args_, act_args_;
  std::vector<Instruction> instructions_;
  std::vector<int32_t> inputs_, outputs_;
  Span<Instruction> instructions_span_;
  Span<ResolvedOperator> ops_span_;
  std::vector<uint8_t> method_bytes_ = std::vector<uint8_t>(1 << 16);
  std::vector<uint8_t> temp_bytes_ = std::vector<uint8_t>(1 << 20);
  MemoryAllocator method_allocator_{method_bytes_.data(), method_bytes_.size()};
  MemoryAllocator temp_allocator_{temp_bytes_.data(), temp_bytes_.size()};

 public:
  void init_spans() { reset_spans(); }
};

void expect_close(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-5 * std::max(1.0, std::fabs(want[i]))) << "element " << i;
  }
}

TEST(ConvBatchNormFusion, ChainsRunAsOneInstructionWithTheSameOutputs) {
  for (const char* activation : {"hardtanh", "relu", "none"}) {
    SCOPED_TRACE(activation);
    ConvBnChain chain(activation);
    chain.init_spans();
    const size_t before = chain.num_instructions();
    const std::vector<double> unfused = chain.run();
    ASSERT_EQ(chain.fuse(), Error::Ok) << last_error_message();
    ASSERT_EQ(chain.num_instructions(), 1u);
    EXPECT_STREQ(chain.op_name(0), "trident::conv_affine_clamp.out");
    EXPECT_GT(before, 1u);
    const std::vector<double> fused = chain.run();
    expect_close(fused, unfused);
    if (strcmp(activation, "hardtanh") == 0) {
      // The clamp took effect: values within ReLU6's bounds, some at 0.
      bool low = false;
      for (double v : fused) {
        low = low || v == 0.0;
        EXPECT_GE(v, 0.0);
        EXPECT_LE(v, 6.0);
      }
      EXPECT_TRUE(low);
    }
  }
}

TEST(ConvBatchNormFusion, SizingAllocatesWhatTheRealRewriteDoes) {
  ConvBnChain sized("hardtanh"), real("hardtanh");
  sized.init_spans();
  real.init_spans();
  ASSERT_EQ(sized.fuse(/*sizing=*/true), Error::Ok);
  ASSERT_EQ(real.fuse(), Error::Ok);
  EXPECT_EQ(sized.num_instructions(), real.num_instructions());
  EXPECT_GT(real.method_bytes_used(), 0u);
  EXPECT_EQ(sized.method_bytes_used(), real.method_bytes_used());
}

TEST(ConvBatchNormFusion, VisibleIntermediatesOrSharedParametersBlockIt) {
  {
    // The convolution's output is also a method output.
    ConvBnChain chain("hardtanh");
    chain.outputs().push_back(ConvBnChain::kConvOut);
    chain.init_spans();
    ASSERT_EQ(chain.fuse(), Error::Ok);
    EXPECT_EQ(chain.num_instructions(), 3u);
  }
  {
    // The batch norm's output is an output too: conv + batch norm fuse,
    // the activation stays.
    ConvBnChain chain("hardtanh");
    chain.outputs().push_back(ConvBnChain::kBnOut);
    chain.init_spans();
    const std::vector<double> unfused = chain.run();
    ASSERT_EQ(chain.fuse(), Error::Ok);
    ASSERT_EQ(chain.num_instructions(), 2u);
    EXPECT_STREQ(chain.op_name(0), "trident::conv_affine_clamp.out");
    EXPECT_STREQ(chain.op_name(1), "aten::hardtanh.out");
    expect_close(chain.run(), unfused);
  }
  {
    // running_mean is an input of the method (it could change between runs).
    ConvBnChain chain("relu");
    chain.inputs().push_back(ConvBnChain::kMean);
    chain.init_spans();
    ASSERT_EQ(chain.fuse(), Error::Ok);
    EXPECT_EQ(chain.num_instructions(), 3u);
  }
}

// The convolution's out and the last out over one buffer, at float offsets
// `conv_at` and `last_at` (a memory plan may overlap them: unfused, the
// convolution's out is dead when the activation writes).
void place(ConvBnChain& chain, std::vector<float>& buffer, size_t conv_at, size_t last_at,
           std::vector<DimOrderType> order, Tensor* conv_out, Tensor* last_out) {
  const SizesType sizes[] = {1, 3, 5, 5};
  const Span<const DimOrderType> dim_order(order.data(), order.size());
  ASSERT_EQ(conv_out->init(ScalarType::Float, Span<const SizesType>(sizes, 4), dim_order,
                           buffer.data() + conv_at, 75 * sizeof(float), ShapeDynamism::Static),
            Error::Ok);
  ASSERT_EQ(last_out->init(ScalarType::Float, Span<const SizesType>(sizes, 4), dim_order,
                           buffer.data() + last_at, 75 * sizeof(float), ShapeDynamism::Static),
            Error::Ok);
  chain.value(ConvBnChain::kConvOut) = EValue::from_tensor(conv_out);
  chain.value(ConvBnChain::kActOut) = EValue::from_tensor(last_out);
}

TEST(ConvBatchNormFusion, OverlappingOutsFuseWhenContiguous) {
  struct Case {
    size_t conv_at, last_at;
    std::vector<DimOrderType> order;
  };
  // Contiguous outs overlapping either way (the epilogue walks like
  // memmove), and channels-last outs apart (it runs pixel by pixel).
  for (const Case& c : {Case{8, 0, {}}, Case{0, 8, {}}, Case{0, 100, {0, 2, 3, 1}}}) {
    SCOPED_TRACE(::testing::Message() << "conv out at " << c.conv_at << ", last out at " << c.last_at);
    ConvBnChain chain("hardtanh");
    std::vector<float> buffer(200, 0.0f);
    Tensor conv_out, last_out;
    place(chain, buffer, c.conv_at, c.last_at, c.order, &conv_out, &last_out);
    chain.init_spans();
    const std::vector<double> unfused = chain.run();
    ASSERT_EQ(chain.fuse(), Error::Ok);
    ASSERT_EQ(chain.num_instructions(), 1u);
    expect_close(chain.run(), unfused);
  }
  {
    // Channels-last outs that overlap partly: the chain stays. Sizing
    // cannot see memory and plans for the fusion.
    ConvBnChain chain("hardtanh");
    std::vector<float> buffer(100, 0.0f);
    Tensor conv_out, last_out;
    place(chain, buffer, 0, 8, {0, 2, 3, 1}, &conv_out, &last_out);
    chain.init_spans();
    ASSERT_EQ(chain.fuse(), Error::Ok);
    EXPECT_EQ(chain.num_instructions(), 3u);
    chain.init_spans();
    ASSERT_EQ(chain.fuse(/*sizing=*/true), Error::Ok);
    EXPECT_EQ(chain.num_instructions(), 1u);
  }
}

TEST(ConvBatchNormFusion, TheLastOutMayBeTheConvolutionsOwnMemory) {
  // A plan that reuses the convolution's out for the activation's: fused,
  // the epilogue runs in place.
  ConvBnChain chain("relu");
  chain.value(ConvBnChain::kActOut) = chain.value(ConvBnChain::kConvOut);
  chain.init_spans();
  const std::vector<double> unfused = chain.run();
  ASSERT_EQ(chain.fuse(), Error::Ok);
  ASSERT_EQ(chain.num_instructions(), 1u);
  expect_close(chain.run(), unfused);
}

}  // namespace
}  // namespace tri
