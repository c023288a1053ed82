// The XNNPACK-delegated programs of the corpus run natively through the
// XnnpackBackend: numpy-runtime's add/dynamic/quantized goldens, and
// simple-torch-model at two input sizes within its dynamic bound.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "cpp/host/host_model.h"
#include "tests/cpp/support/shared_corpus.h"

namespace tri::host {
namespace {

using ::tri::testing::corpus_file;

constexpr const char* kNumpy = "pte/corey-cole__executorch-numpy-runtime/";

void load_corpus(HostModel& model, const std::string& path) {
  const std::vector<uint8_t> bytes = corpus_file(path);
  ASSERT_EQ(model.load(OwnedBytes::copy_of(bytes.data(), bytes.size())), Error::Ok)
      << last_error_message();
}

void set_input(HostModel& model, size_t index, const std::vector<int32_t>& shape,
               const std::vector<float>& values) {
  Result<uint8_t*> dst = model.prepare_input("forward", index, shape);
  ASSERT_TRUE(dst.ok()) << last_error_message();
  std::memcpy(dst.get(), values.data(), values.size() * sizeof(float));
}

std::vector<float> output(HostModel& model, size_t index, std::vector<int32_t>* shape) {
  Result<const EValue*> y = model.output("forward", index);
  EXPECT_TRUE(y.ok()) << last_error_message();
  const Tensor& t = y.get()->to_tensor();
  shape->assign(t.sizes().begin(), t.sizes().end());
  const float* p = t.data_ptr<const float>();
  return std::vector<float>(p, p + t.numel());
}

TEST(XnnpackCorpus, AddMatchesGoldens) {
  TRI_REQUIRE_SHARED();
  HostModel model;
  ASSERT_NO_FATAL_FAILURE(load_corpus(model, std::string(kNumpy) + "tests__models__add.pte"));
  const float cases[2][3] = {{2, 5, 7}, {9, 9, 18}};
  for (const auto& c : cases) {
    set_input(model, 0, {3}, {c[0], c[0], c[0]});
    set_input(model, 1, {3}, {c[1], c[1], c[1]});
    ASSERT_EQ(model.execute("forward"), Error::Ok) << last_error_message();
    std::vector<int32_t> shape;
    EXPECT_EQ(output(model, 0, &shape), std::vector<float>(3, c[2]));
    EXPECT_EQ(shape, std::vector<int32_t>{3});
  }
}

TEST(XnnpackCorpus, DynamicRunsAtEveryLengthWithinItsBound) {
  TRI_REQUIRE_SHARED();
  HostModel model;
  ASSERT_NO_FATAL_FAILURE(load_corpus(model, std::string(kNumpy) + "tests__models__dynamic.pte"));
  for (int32_t n : {1, 4, 8, 3, 8}) {
    set_input(model, 0, {n}, std::vector<float>(static_cast<size_t>(n), 1.0f));
    ASSERT_EQ(model.execute("forward"), Error::Ok) << last_error_message();
    std::vector<int32_t> shape;
    EXPECT_EQ(output(model, 0, &shape), std::vector<float>(static_cast<size_t>(n), 2.0f));
    EXPECT_EQ(shape, std::vector<int32_t>{n});
  }
  // Past the bound: a clear error, and the model still runs afterwards.
  EXPECT_FALSE(model.prepare_input("forward", 0, {9}).ok());
  set_input(model, 0, {2}, {1, 1});
  ASSERT_EQ(model.execute("forward"), Error::Ok) << last_error_message();
}

TEST(XnnpackCorpus, QuantizedLinearGivesFiniteVaryingOutputs) {
  TRI_REQUIRE_SHARED();
  HostModel model;
  ASSERT_NO_FATAL_FAILURE(load_corpus(model, std::string(kNumpy) + "tests__models__quantized.pte"));
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  std::vector<float> x(16);
  for (float& v : x) v = normal(rng);
  set_input(model, 0, {2, 8}, x);
  ASSERT_EQ(model.execute("forward"), Error::Ok) << last_error_message();
  std::vector<int32_t> shape;
  const std::vector<float> y = output(model, 0, &shape);
  EXPECT_EQ(shape, (std::vector<int32_t>{2, 8}));
  bool varies = false;
  for (float v : y) {
    EXPECT_TRUE(std::isfinite(v));
    varies = varies || v != y[0];
  }
  EXPECT_TRUE(varies);
}

// The same program against a reference computed from its own payload (the
// int8 weights and int32 bias in named data, the scales in the graph) with
// numpy: quantize the input, integer matmul, requantize, dequantize.
TEST(XnnpackCorpus, QuantizedLinearMatchesIntegerReference) {
  TRI_REQUIRE_SHARED();
  HostModel model;
  ASSERT_NO_FATAL_FAILURE(load_corpus(model, std::string(kNumpy) + "tests__models__quantized.pte"));
  std::vector<float> x(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.7f * static_cast<float>(i));
  set_input(model, 0, {2, 8}, x);
  ASSERT_EQ(model.execute("forward"), Error::Ok) << last_error_message();
  std::vector<int32_t> shape;
  const std::vector<float> y = output(model, 0, &shape);
  const float want[16] = {0.74624f, -0.06536f, 0.52291f, 0.2778f,  0.0817f,  -0.53381f,
                          0.32137f, 0.85518f,  0.17975f, -0.22877f, 0.85518f, 0.14707f,
                          0.08715f, -0.19064f, -0.12528f, 0.85518f};
  ASSERT_EQ(y.size(), 16u);
  for (size_t i = 0; i < 16; ++i) EXPECT_NEAR(y[i], want[i], 1e-4) << "element " << i;
}

// Expected outputs computed with PyTorch from the program's own weights (its
// named data: depthwise 3x3 + ReLU, conv 3x3 + ReLU, global average pool,
// linear) for the input sin(0.01 i).
TEST(XnnpackCorpus, SimpleTorchModelMatchesTorchAtTwoSizes) {
  TRI_REQUIRE_SHARED();
  HostModel model;
  ASSERT_NO_FATAL_FAILURE(load_corpus(model, "pte/corey-cole__simple-torch-model/model.pte"));
  const std::vector<std::pair<std::vector<int32_t>, std::vector<float>>> cases = {
      {{28, 28},
       {-0.06867f, 0.26810f, 0.04651f, 0.03743f, 0.02259f, -0.08887f, -0.11476f, -0.05631f,
        -0.05981f, -0.17624f}},
      {{64, 40},
       {-0.07242f, 0.27468f, 0.04682f, 0.03947f, 0.02381f, -0.09517f, -0.11341f, -0.06133f,
        -0.05958f, -0.17576f}}};
  for (const auto& [hw, want] : cases) {
    const size_t n = static_cast<size_t>(hw[0]) * hw[1];
    std::vector<float> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = std::sin(0.01f * static_cast<float>(i));
    set_input(model, 0, {1, 1, hw[0], hw[1]}, x);
    ASSERT_EQ(model.execute("forward"), Error::Ok) << last_error_message();
    std::vector<int32_t> shape;
    const std::vector<float> y = output(model, 0, &shape);
    EXPECT_EQ(shape, (std::vector<int32_t>{1, 10}));
    ASSERT_EQ(y.size(), want.size());
    for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want[i], 2e-5) << hw[0] << "x" << hw[1] << " element " << i;
  }
}

}  // namespace
}  // namespace tri::host
