// Weights held once: after load, the bytes of a .pte that only XNNPACK read
// at init (its blob and the named data it packed) are freed. The file's
// owner here "frees" them by filling them with garbage, so a run that still
// read them would go wrong; its outputs must equal those of the same model
// loaded with keep_file_bytes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cpp/host/host_model.h"
#include "tests/cpp/support/shared_corpus.h"

namespace tri::host {
namespace {

using ::tri::testing::read_file;

const std::string kModels = std::string(TRIDENT_SOURCE_DIR) + "/build/models/";

// The block's length before it shrinks, for the poisoning hook below.
size_t g_block_bytes = 0;
size_t g_kept_bytes = 0;

bool poison_tail(uint8_t* data, size_t size) {
  std::memset(data + size, 0xA5, g_block_bytes - size);
  g_kept_bytes = size;
  return true;
}

OwnedBytes poisoning_copy(const std::vector<uint8_t>& file) {
  uint8_t* copy = static_cast<uint8_t*>(std::malloc(file.size()));
  std::memcpy(copy, file.data(), file.size());
  g_block_bytes = file.size();
  g_kept_bytes = file.size();
  return OwnedBytes(copy, file.size(), [](uint8_t* p) { std::free(p); }, &poison_tail);
}

// Fills every tensor input of method 0 with the same values, runs it, and
// returns its first output's floats.
std::vector<float> run_forward(HostModel& model) {
  const Program& program = model.program();
  for (size_t i = 0; i < program.num_inputs(0); ++i) {
    Result<ValueInfo> info = program.input_info(0, i);
    EXPECT_TRUE(info.ok()) << last_error_message();
    if (!info.ok() || info->tag != Tag::Tensor) continue;
    EXPECT_EQ(info->dtype, ScalarType::Float);
    std::vector<int32_t> shape(info->sizes, info->sizes + info->dim);
    Result<uint8_t*> data = model.prepare_input(0, i, Span<const int32_t>(shape.data(), shape.size()));
    EXPECT_TRUE(data.ok()) << last_error_message();
    if (!data.ok()) return {};
    size_t n = 1;
    for (int32_t s : shape) n *= static_cast<size_t>(s);
    float* f = reinterpret_cast<float*>(*data);
    for (size_t k = 0; k < n; ++k) f[k] = std::sin(0.37f * static_cast<float>(k + i));
  }
  EXPECT_EQ(model.execute(size_t{0}), Error::Ok) << last_error_message();
  Result<const EValue*> out = model.output(0, 0);
  EXPECT_TRUE(out.ok() && (*out)->is_tensor()) << last_error_message();
  if (!out.ok() || !(*out)->is_tensor()) return {};
  const Tensor& t = (*out)->to_tensor();
  const float* f = static_cast<const float*>(t.data());
  return std::vector<float>(f, f + t.numel());
}

class ReleaseFileBytes : public ::testing::TestWithParam<const char*> {};

TEST_P(ReleaseFileBytes, RunsOnPackedWeightsAloneAndSaysWhatWasFreed) {
  const std::string path = kModels + GetParam() + ".pte";
  const std::vector<uint8_t> file = read_file(path);
  if (file.empty()) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true") FAIL() << path << " is missing: run bash scripts/fixtures.sh";
    GTEST_SKIP() << path << " is absent (run bash scripts/fixtures.sh)";
  }
  HostModel kept;
  HostOptions keep;
  keep.keep_file_bytes = true;
  ASSERT_EQ(kept.load(poisoning_copy(file), keep), Error::Ok) << last_error_message();
  EXPECT_EQ(g_kept_bytes, file.size());
  const std::vector<float> expected = run_forward(kept);
  ASSERT_FALSE(expected.empty());

  HostModel released;
  ASSERT_EQ(released.load(poisoning_copy(file), HostOptions()), Error::Ok) << last_error_message();
  ASSERT_LT(g_kept_bytes, file.size());
  const nlohmann::json memory = nlohmann::json::parse(released.memory_json());
  EXPECT_EQ(memory["fileBytes"].get<size_t>(), g_kept_bytes);
  EXPECT_EQ(memory["fileBytesReleased"].get<size_t>(), file.size() - g_kept_bytes);
  EXPECT_EQ(memory["packedFromBytes"].get<size_t>(), 0u);
  EXPECT_GT(memory["packedWeightBytes"].get<size_t>(), 0u);
  // Twice: the second run reuses what the first shaped.
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<float> got = run_forward(released);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t k = 0; k < got.size(); ++k) ASSERT_EQ(got[k], expected[k]) << "output element " << k;
  }

  // Packed weights are listed, with no bytes to read.
  Result<std::string> weights = released.weights_json();
  ASSERT_TRUE(weights.ok()) << last_error_message();
  size_t packed = 0;
  const nlohmann::json list = nlohmann::json::parse(*weights);
  for (const auto& w : list["weights"]) {
    if (w["source"] != "packed") continue;
    ++packed;
    EXPECT_EQ(released.weight(w["name"].get<std::string>()).error(), Error::InvalidState);
    EXPECT_NE(std::string(last_error_message()).find("load with keepFileBytes"), std::string::npos)
        << last_error_message();
  }
  EXPECT_GT(packed, 0u);
  // The graph still describes every delegate value.
  EXPECT_TRUE(released.graph_json(0).ok()) << last_error_message();
}

INSTANTIATE_TEST_SUITE_P(XnnpackModels, ReleaseFileBytes,
                         ::testing::Values("resnet18_xnnpack", "op_zoo_xnnpack", "cnn_int8_xnnpack",
                                           "mlp_qd8_xnnpack", "transformer_encoder_xnnpack"));

// Nothing is freed where nothing but delegates' data could go, or where the
// owner cannot shrink the block.
TEST(ReleaseFileBytesPortable, AProgramWithoutDelegatesKeepsItsFile) {
  const std::vector<uint8_t> file = read_file(kModels + "resnet18.pte");
  if (file.empty()) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true") FAIL() << "build/models/resnet18.pte is missing";
    GTEST_SKIP() << "build/models/resnet18.pte is absent (run bash scripts/fixtures.sh)";
  }
  HostModel model;
  ASSERT_EQ(model.load(poisoning_copy(file), HostOptions()), Error::Ok) << last_error_message();
  EXPECT_EQ(g_kept_bytes, file.size());
  EXPECT_EQ(nlohmann::json::parse(model.memory_json())["fileBytesReleased"].get<size_t>(), 0u);

  HostModel copied;
  const std::vector<uint8_t> xnn = read_file(kModels + "op_zoo_xnnpack.pte");
  ASSERT_FALSE(xnn.empty());
  ASSERT_EQ(copied.load(OwnedBytes::copy_of(xnn.data(), xnn.size()), HostOptions()), Error::Ok);
  const nlohmann::json memory = nlohmann::json::parse(copied.memory_json());
  EXPECT_EQ(memory["fileBytes"].get<size_t>(), xnn.size());
  EXPECT_EQ(memory["fileBytesReleased"].get<size_t>(), 0u);
}

}  // namespace
}  // namespace tri::host
