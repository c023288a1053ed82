// The convolution + batch norm + activation fusion (cpp/kernels/fusion) on
// hand-built methods: a chain it may fuse runs as one instruction and gives
// the unfused method's outputs; a chain whose intermediates or parameters
// are visible elsewhere is left alone.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "cpp/kernels/fusion/conv_batch_norm.h"
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

std::vector<double> ramp(size_t n, double scale, double offset) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<double>(i) * 1.7) * scale + offset;
  return v;
}

// The convolution's shape: [1, in, h, h] input, [out, in / groups, k, k]
// weight; the default is a plain 3x3 convolution.
struct ChainGeometry {
  int32_t in = 2, out = 3, k = 3, groups = 1, stride = 1, pad = 1, h = 5;
  std::vector<DimOrderType> order = {};  // the input's and outs' dim order
};

// conv(x) -> batch norm -> activation ("hardtanh", "relu" or none) as
// hand-built KernelCalls over one value table.
class ConvBnChain {
 public:
  enum Slot {
    kX, kW, kBias, kStride, kPad, kDil, kTransposed, kOutPad, kGroups, kConvOut,
    kGamma, kBeta, kMean, kVar, kMomentum, kEps, kBnOut, kSaveMean, kSaveInvstd,
    kMin, kMax, kActOut, kNumValues
  };

  using Geometry = ChainGeometry;

  explicit ConvBnChain(const char* activation, Geometry geo = Geometry())
      : activation_(activation), geo_(std::move(geo)) {
    const Geometry& g = geo_;
    const int32_t c = g.out;
    const int32_t o = (g.h + 2 * g.pad - g.k) / g.stride + 1;
    const size_t xn = static_cast<size_t>(g.in * g.h * g.h);
    const size_t wn = static_cast<size_t>(c * (g.in / g.groups) * g.k * g.k);
    out_sizes_ = {1, c, o, o};
    // Per-channel parameters repeat these three values.
    auto per_channel = [c](std::initializer_list<double> three) {
      std::vector<double> v(static_cast<size_t>(c));
      for (size_t i = 0; i < v.size(); ++i) v[i] = three.begin()[i % 3];
      return v;
    };
    m_.values.resize(kNumValues);
    m_.values[kX] = EValue::from_tensor(
        tf_.make(ScalarType::Float, {1, g.in, g.h, g.h}, ramp(xn, 1.0, 0.1), g.order));
    m_.values[kW] = EValue::from_tensor(
        tf_.make(ScalarType::Float, {c, g.in / g.groups, g.k, g.k}, ramp(wn, 0.5, 0.0)));
    m_.values[kBias] = EValue::from_tensor(tf_.make(ScalarType::Float, {c}, per_channel({0.25, -0.5, 1.0})));
    m_.values[kStride] = *tf_.int_list({g.stride, g.stride});
    m_.values[kPad] = *tf_.int_list({g.pad, g.pad});
    m_.values[kDil] = *tf_.int_list({1, 1});
    m_.values[kTransposed] = EValue::from_bool(false);
    m_.values[kOutPad] = *tf_.int_list({0, 0});
    m_.values[kGroups] = EValue::from_int(g.groups);
    m_.values[kConvOut] = EValue::from_tensor(tf_.zeros(ScalarType::Float, out_sizes_, g.order));
    m_.values[kGamma] = EValue::from_tensor(tf_.make(ScalarType::Float, {c}, per_channel({1.5, 0.5, -2.0})));
    m_.values[kBeta] = EValue::from_tensor(tf_.make(ScalarType::Float, {c}, per_channel({0.1, 2.0, -0.3})));
    m_.values[kMean] = EValue::from_tensor(tf_.make(ScalarType::Float, {c}, per_channel({0.2, -1.0, 0.5})));
    m_.values[kVar] = EValue::from_tensor(tf_.make(ScalarType::Float, {c}, per_channel({0.9, 2.5, 0.04})));
    m_.values[kMomentum] = EValue::from_double(0.1);
    m_.values[kEps] = EValue::from_double(1e-5);
    m_.values[kBnOut] = EValue::from_tensor(tf_.zeros(ScalarType::Float, out_sizes_, g.order));
    m_.values[kSaveMean] = EValue::from_tensor(tf_.zeros(ScalarType::Float, {0}));
    m_.values[kSaveInvstd] = EValue::from_tensor(tf_.zeros(ScalarType::Float, {0}));
    m_.values[kMin] = EValue::from_double(0.0);
    m_.values[kMax] = EValue::from_int(6);
    m_.values[kActOut] = EValue::from_tensor(tf_.zeros(ScalarType::Float, out_sizes_, g.order));

    ops_ = {resolved("aten::convolution.out"),
            resolved("aten::_native_batch_norm_legit_no_training.out"),
            resolved("aten::hardtanh.out"),
            resolved("aten::relu.out")};
    for (const ResolvedOperator& op : ops_) EXPECT_NE(op.kernel.fn, nullptr) << op.name;
    conv_args_ = slots({kX, kW, kBias, kStride, kPad, kDil, kTransposed, kOutPad, kGroups, kConvOut,
                        kConvOut});
    bn_args_ = slots({kConvOut, kGamma, kBeta, kMean, kVar, kMomentum, kEps, kBnOut, kSaveMean,
                      kSaveInvstd, kBnOut, kSaveMean, kSaveInvstd});
    instructions_.push_back(kernel_call(0, conv_args_));
    instructions_.push_back(kernel_call(1, bn_args_));
    if (strcmp(activation_, "hardtanh") == 0) {
      act_args_ = slots({kBnOut, kMin, kMax, kActOut, kActOut});
      instructions_.push_back(kernel_call(2, act_args_));
    } else if (strcmp(activation_, "relu") == 0) {
      act_args_ = slots({kBnOut, kActOut, kActOut});
      instructions_.push_back(kernel_call(3, act_args_));
    }
    m_.inputs = {kX};
    m_.outputs = {strcmp(activation_, "none") == 0 ? kBnOut : kActOut};
  }

  // The chain's output after running the instructions as they are now.
  std::vector<double> run() { return run_first_output(m_, &temp_allocator_); }

  // Runs the pass; the spans then describe the rewritten method.
  Error fuse(bool sizing = false) {
    return kernels::fuse_conv_batch_norm(pass_context(m_, &method_allocator_, sizing),
                                         &m_.instructions, &m_.operators);
  }

  void reset_spans() {
    // As the method builder numbers them: each instruction is its own source.
    for (size_t i = 0; i < instructions_.size(); ++i) instructions_[i].source = static_cast<uint32_t>(i);
    m_.instructions = Span<Instruction>(instructions_.data(), instructions_.size());
    m_.operators = Span<ResolvedOperator>(ops_.data(), ops_.size());
  }

  size_t num_instructions() const { return m_.instructions.size(); }
  size_t method_bytes_used() const { return method_allocator_.used(); }
  const char* op_name(size_t i) const { return m_.operators[m_.instructions[i].target].name; }
  std::pair<uint32_t, uint32_t> source(size_t i) const {
    return {m_.instructions[i].source, m_.instructions[i].source_count};
  }
  std::vector<int32_t>& inputs() { return m_.inputs; }
  EValue& value(Slot s) { return m_.values[s]; }
  std::vector<int32_t>& outputs() { return m_.outputs; }

 private:
  std::vector<EValue*> slots(std::initializer_list<Slot> which) {
    std::vector<EValue*> out;
    for (Slot s : which) out.push_back(&m_.values[s]);
    return out;
  }
  const char* activation_;
  Geometry geo_;
  std::vector<SizesType> out_sizes_;
  TensorFactory tf_;
  HandBuiltMethod m_;
  std::vector<ResolvedOperator> ops_;
  std::vector<EValue*> conv_args_, bn_args_, act_args_;
  std::vector<Instruction> instructions_;
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
    // Profiles put its time on the whole chain it replaced.
    EXPECT_EQ(chain.source(0), std::make_pair(0u, static_cast<uint32_t>(before)));
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
    EXPECT_EQ(chain.source(0), std::make_pair(0u, 2u));
    EXPECT_EQ(chain.source(1), std::make_pair(2u, 1u));
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

namespace tri {
namespace {

// The fused tail runs inside each convolution path (im2col + gemm, 1x1
// straight from the image, grouped, the depthwise kernel's planar and
// channels-last rows), writing the last out directly: the convolution's
// own out is never touched.
TEST(ConvBatchNormFusion, EveryConvolutionPathFinishesInPlace) {
  using G = ConvBnChain::Geometry;
  const std::vector<DimOrderType> nhwc = {0, 2, 3, 1};
  struct Case {
    const char* name;
    G geo;
  };
  const Case cases[] = {
      {"3x3 stride 2", G{2, 5, 3, 1, 2, 1, 7, {}}},
      {"1x1", G{6, 4, 1, 1, 1, 0, 5, {}}},
      {"1x1 channels-last", G{6, 4, 1, 1, 1, 0, 5, nhwc}},
      {"grouped", G{4, 6, 3, 2, 1, 1, 5, {}}},
      {"depthwise", G{5, 5, 3, 5, 1, 1, 9, {}}},
      {"depthwise stride 2", G{5, 5, 3, 5, 2, 1, 9, {}}},
      {"depthwise channels-last", G{8, 8, 3, 8, 1, 1, 6, nhwc}},
  };
  for (const Case& c : cases) {
    for (const char* activation : {"hardtanh", "relu", "none"}) {
      SCOPED_TRACE(::testing::Message() << c.name << ", " << activation);
      ConvBnChain chain(activation, c.geo);
      chain.init_spans();
      const std::vector<double> unfused = chain.run();
      // Zero the convolution's out again: the unfused run wrote it.
      Tensor& conv_out = chain.value(ConvBnChain::kConvOut).to_tensor();
      memset(conv_out.mutable_data(), 0, conv_out.nbytes());
      ASSERT_EQ(chain.fuse(), Error::Ok) << last_error_message();
      ASSERT_EQ(chain.num_instructions(), 1u);
      expect_close(chain.run(), unfused);
      for (double v : TensorFactory::values(conv_out)) ASSERT_EQ(v, 0.0);
    }
  }
}

// A plan may put the last out over the convolution's input (dead after
// it). Where the convolution reads all of its input into its column buffer
// first (im2col, and a 1x1 taking that copy instead of reading the image),
// it writes the last out in place and leaves its own out alone. A
// depthwise layer whose last out is its input exactly (stride 1, padding
// 1) saves each input row before writing over it. Where it cannot (other
// depthwise overlaps, several groups), it convolves into its own out and
// the kernel moves that over.
TEST(ConvBatchNormFusion, ALastOutOverTheInputIsWrittenOnlyAfterTheInputIsRead) {
  using G = ConvBnChain::Geometry;
  struct Case {
    const char* name;
    G geo;
    size_t last_at;  // where the last out starts in x's buffer
    bool in_place;
  };
  const Case cases[] = {
      {"3x3", G{2, 3, 3, 1, 1, 1, 5, {}}, 10, true},
      {"3x3 stride 2", G{2, 5, 3, 1, 2, 1, 7, {}}, 10, true},
      {"1x1 expansion", G{2, 6, 1, 1, 1, 0, 5, {}}, 10, true},
      {"grouped", G{4, 6, 3, 2, 1, 1, 5, {}}, 10, false},
      {"depthwise, shifted", G{5, 5, 3, 5, 1, 1, 9, {}}, 10, false},
      {"depthwise, the same memory", G{5, 5, 3, 5, 1, 1, 9, {}}, 0, true},
      {"depthwise stride 2, the same start", G{5, 5, 3, 5, 2, 1, 9, {}}, 0, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const G& g = c.geo;
    const int32_t o = (g.h + 2 * g.pad - g.k) / g.stride + 1;
    const SizesType x_sizes[] = {1, g.in, g.h, g.h}, out_sizes[] = {1, g.out, o, o};
    const size_t x_numel = static_cast<size_t>(g.in * g.h * g.h);
    const size_t out_numel = static_cast<size_t>(g.out * o * o);
    // x first, the last out from x's value last_at on (over the rest of
    // x), the convolution's out after both.
    const size_t last_at = c.last_at;
    const size_t conv_at = std::max(x_numel, last_at + out_numel) + 8;
    std::vector<float> buffer(conv_at + out_numel, 0.0f);
    ConvBnChain chain("hardtanh", g);
    const std::vector<double> x_values =
        TensorFactory::values(chain.value(ConvBnChain::kX).to_tensor());
    Tensor x, conv_out, last_out;
    ASSERT_EQ(x.init(ScalarType::Float, Span<const SizesType>(x_sizes, 4), {}, buffer.data(),
                     x_numel * sizeof(float), ShapeDynamism::Static),
              Error::Ok);
    ASSERT_EQ(last_out.init(ScalarType::Float, Span<const SizesType>(out_sizes, 4), {},
                            buffer.data() + last_at, out_numel * sizeof(float),
                            ShapeDynamism::Static),
              Error::Ok);
    ASSERT_EQ(conv_out.init(ScalarType::Float, Span<const SizesType>(out_sizes, 4), {},
                            buffer.data() + conv_at, out_numel * sizeof(float),
                            ShapeDynamism::Static),
              Error::Ok);
    chain.value(ConvBnChain::kX) = EValue::from_tensor(&x);
    chain.value(ConvBnChain::kConvOut) = EValue::from_tensor(&conv_out);
    chain.value(ConvBnChain::kActOut) = EValue::from_tensor(&last_out);
    auto load_x = [&] {
      for (size_t i = 0; i < x_values.size(); ++i) buffer[i] = static_cast<float>(x_values[i]);
    };
    load_x();
    chain.init_spans();
    const std::vector<double> unfused = chain.run();
    load_x();
    std::fill(buffer.begin() + static_cast<std::ptrdiff_t>(conv_at), buffer.end(), 0.0f);
    ASSERT_EQ(chain.fuse(), Error::Ok) << last_error_message();
    ASSERT_EQ(chain.num_instructions(), 1u);
    expect_close(chain.run(), unfused);
    const std::vector<double> through = TensorFactory::values(conv_out);
    if (c.in_place) {
      for (double v : through) ASSERT_EQ(v, 0.0);
    } else {
      expect_close(through, unfused);
    }
  }
}

}  // namespace
}  // namespace tri
