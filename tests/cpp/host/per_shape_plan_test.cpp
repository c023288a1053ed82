// A bounded-dynamic transformer whose file plan (made at T <= 8192, as
// ExecuTorch plans it) is 2.16 GB, over the 1 GiB default limit: HostModel plans
// it per shape, and runs at T = 8, 60 and 500 match eager PyTorch in a few MB.
// The program and its eager outputs come from `bash scripts/fixtures.sh`
// (tools/export/dynamic); npm test writes them before ctest runs. Natively this
// runs the per-shape path under the sanitizers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cpp/host/host_model.h"

namespace tri::host {
namespace {

const std::string kModels = std::string(TRIDENT_SOURCE_DIR) + "/build/models/";

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::vector<float> base64_floats(const std::string& text) {
  auto digit = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
  };
  std::vector<uint8_t> bytes;
  uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const int d = digit(c);
    if (d < 0) continue;
    bits = (bits << 6) | static_cast<uint32_t>(d);
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes.push_back(static_cast<uint8_t>((bits >> count) & 0xff));
    }
  }
  std::vector<float> floats(bytes.size() / 4);
  std::memcpy(floats.data(), bytes.data(), floats.size() * 4);
  return floats;
}

TEST(PerShapePlan, ABoundPlanOverTheLimitRunsAtRealShapesInAFewMegabytes) {
  const std::vector<uint8_t> program = read_file(kModels + "frames_transformer_8k.pte");
  const std::vector<uint8_t> expected = read_file(kModels + "frames_transformer_8k.expected.json");
  if (program.empty() || expected.empty()) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true") {
      FAIL() << "build/models/frames_transformer_8k.* is missing: run bash scripts/fixtures.sh";
    }
    GTEST_SKIP() << "build/models/frames_transformer_8k.* is absent (run bash scripts/fixtures.sh)";
  }
  const nlohmann::json ref = nlohmann::json::parse(expected.begin(), expected.end());
  ASSERT_GT(ref["memory_plan"]["total_bytes"].get<uint64_t>(), uint64_t{1} << 30);

  HostModel file_plan;
  HostOptions keep_file;
  keep_file.memory_plan = MemoryPlanChoice::File;
  EXPECT_EQ(file_plan.load(OwnedBytes::copy_of(program.data(), program.size()), keep_file),
            Error::LimitExceeded);

  HostModel model;
  ASSERT_EQ(model.load(OwnedBytes::copy_of(program.data(), program.size())), Error::Ok)
      << last_error_message();
  EXPECT_STREQ(model.program().memory_plan(0), "per-shape");
  const double tolerance = ref["tolerance"]["max_abs_error"].get<double>();
  for (const auto& c : ref["cases"]) {
    const std::vector<int32_t> shape = c["input_shape"].get<std::vector<int32_t>>();
    const std::vector<float> input = base64_floats(c["input"].get<std::string>());
    const std::vector<float> want = base64_floats(c["output"].get<std::string>());
    Result<uint8_t*> dst = model.prepare_input("forward", 0, shape);
    ASSERT_TRUE(dst.ok()) << last_error_message();
    std::memcpy(*dst, input.data(), input.size() * 4);
    ASSERT_EQ(model.execute("forward"), Error::Ok) << last_error_message();
    Result<const EValue*> out = model.output("forward", 0);
    ASSERT_TRUE(out.ok());
    const Tensor& t = (*out)->to_tensor();
    ASSERT_EQ(t.numel(), want.size());
    double worst = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      worst = std::fmax(worst, std::fabs(t.data_ptr<const float>()[i] - want[i]));
    }
    EXPECT_LE(worst, tolerance) << "T = " << shape[1];
    const nlohmann::json memory = nlohmann::json::parse(model.memory_json());
    const nlohmann::json& forward = memory["methods"][0];
    EXPECT_EQ(forward["memoryPlan"], "per-shape");
    if (shape[1] <= 60) {
      EXPECT_LT(forward["peakBytes"].get<uint64_t>(), uint64_t{1} << 20) << "T = " << shape[1];
      EXPECT_LT(forward["scratchBytes"].get<uint64_t>(), uint64_t{1} << 20) << "T = " << shape[1];
      EXPECT_LT(memory["scratchBytes"].get<uint64_t>(), uint64_t{1} << 20);
    }
  }
}

}  // namespace
}  // namespace tri::host
