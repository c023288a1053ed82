// The two real .pt2 archives in ../shared/corpus/pt2 run through HostModel
// and match what their MANIFEST.md records: linear.pt2 (layout C, training
// IR) on its stored sample input, and hades-pid's legacy archive (layout A,
// torch 2.2, decomposed, training-mode batch norm) on the MANIFEST's input,
// with its buffer mutations applied and persisting across runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "cpp/formats/pt2/host/pt2_program.h"
#include "cpp/host/host_model.h"
#include "tests/cpp/support/shared_corpus.h"

namespace tri::host {
namespace {

using ::tri::testing::corpus_file;

const char kLinear[] = "pt2/pytorch__executorch/linear.pt2";
const char kHades[] = "pt2/KladovValentin__hades-pid/exported_program.pt2";

std::vector<float> floats(const EValue& value) {
  const Tensor& t = value.to_tensor();
  const float* p = t.data_ptr<const float>();
  return std::vector<float>(p, p + t.numel());
}

TEST(Pt2Corpus, LinearRunsItsSampleInput) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> bytes = corpus_file(kLinear);
  HostModel model;
  ASSERT_EQ(model.load(OwnedBytes::copy_of(bytes.data(), bytes.size())), Error::Ok)
      << last_error_message();
  EXPECT_STREQ(model.format(), "pt2");
  ASSERT_EQ(model.program().num_methods(), 1u);
  EXPECT_STREQ(model.program().method_name(0), "model");
  Result<std::string> samples = model.sample_inputs_json("model");
  ASSERT_TRUE(samples.ok()) << last_error_message();
  const nlohmann::json inputs = nlohmann::json::parse(*samples);
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_EQ(inputs[0]["shape"], nlohmann::json::array({3}));
  const std::vector<float> x = inputs[0]["values"].get<std::vector<float>>();
  EXPECT_FLOAT_EQ(x[0], 0.23096680641174316f);
  Result<uint8_t*> dst = model.prepare_input("model", 0, {3});
  ASSERT_TRUE(dst.ok()) << last_error_message();
  std::memcpy(*dst, x.data(), 12);
  ASSERT_EQ(model.execute("model"), Error::Ok) << last_error_message();
  Result<const EValue*> y = model.output("model", 0);
  ASSERT_TRUE(y.ok());
  const std::vector<float> got = floats(**y);
  const double want[] = {-0.32473868, -0.12328657, -0.12577079};
  ASSERT_EQ(got.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i], 1e-6) << i;
}

TEST(Pt2Corpus, LegacyTrainingModeArchiveMatchesTheManifest) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> bytes = corpus_file(kHades);
  HostModel model;
  ASSERT_EQ(model.load(OwnedBytes::copy_of(bytes.data(), bytes.size())), Error::Ok)
      << last_error_message();
  ASSERT_EQ(model.program().num_inputs(0), 1u);
  ASSERT_EQ(model.program().num_outputs(0), 2u);  // addmm_6, squeeze; mutations are state
  std::vector<float> x(20);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 10; ++j) x[i * 10 + j] = (10.0f * i + j) / 20.0f - 0.5f;
  }
  auto run = [&]() {
    Result<uint8_t*> dst = model.prepare_input("model", 0, {2, 10});
    ASSERT_TRUE(dst.ok()) << last_error_message();
    std::memcpy(*dst, x.data(), x.size() * 4);
    ASSERT_EQ(model.execute("model"), Error::Ok) << last_error_message();
  };
  run();
  const std::vector<float> addmm6 = floats(**model.output("model", 0));
  const double want_addmm6[] = {-0.2881288, -0.7204041, 0.9200709,  0.5160028,  0.178767,
                                -0.07786625, 0.7666453, 0.2766277, -0.5435733, 0.3397685};
  ASSERT_EQ(addmm6.size(), 10u);
  // Float32 rounding through batch norm over a batch of 2 (MANIFEST.md).
  for (size_t i = 0; i < 10; ++i) EXPECT_NEAR(addmm6[i], want_addmm6[i], 2e-5) << i;
  const std::vector<float> squeeze = floats(**model.output("model", 1));
  const double want_squeeze[] = {-0.6919238, -0.6922219, -0.694372, -0.6940733};
  ASSERT_EQ(squeeze.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(squeeze[i], want_squeeze[i], 1e-5) << i;

  // The buffer mutations landed in the module state.
  ASSERT_STREQ(model.program().format(), "pt2");
  const auto& program = static_cast<const pt2::Pt2Program&>(model.program());
  auto state = [&](const char* name) {
    Result<pt2::HostTensor> t = program.state(0, name);
    EXPECT_TRUE(t.ok()) << last_error_message();
    return t.ok() ? *t : pt2::HostTensor();
  };
  auto counter = [&](const char* name) {
    int64_t v = -1;
    std::memcpy(&v, state(name).data, 8);
    return v;
  };
  EXPECT_EQ(counter("class_classifier.1.num_batches_tracked"), 1);
  EXPECT_EQ(counter("class_classifier.4.num_batches_tracked"), 1);
  const pt2::HostTensor mean = state("class_classifier.1.running_mean");
  const pt2::HostTensor var = state("class_classifier.1.running_var");
  const double want_mean[] = {-0.01218445, 0.002259533, -0.003280414, 0.005510544};
  const double want_var[] = {0.9000006, 0.9000003, 0.9000003};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(reinterpret_cast<const float*>(mean.data)[i], want_mean[i], 1e-6) << i;
  }
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(reinterpret_cast<const float*>(var.data)[i], want_var[i], 1e-6) << i;
  }
  EXPECT_FALSE(program.state(0, "class_classifier.0.weight").ok());

  // State persists: a second run starts from the updated statistics, as a
  // module's second forward call does. Batch statistics normalise, so the
  // outputs are the same.
  run();
  EXPECT_EQ(counter("class_classifier.1.num_batches_tracked"), 2);
  EXPECT_NEAR(reinterpret_cast<const float*>(mean.data)[0], want_mean[0] * 1.9, 1e-6);
  const std::vector<float> again = floats(**model.output("model", 0));
  for (size_t i = 0; i < 10; ++i) EXPECT_FLOAT_EQ(again[i], addmm6[i]) << i;
}

}  // namespace
}  // namespace tri::host
