// Shared by the BEF tests: MLIR text → BEF bytes through the translator, and
// a run through the bef_executor-compatible driver.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cpp/formats/bef/host/bef_driver.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_to_bef.h"
#include "cpp/runtime/core/error.h"

namespace tri::bef::testing {

inline std::vector<uint8_t> translate(const std::string& mlir, const std::string& filename = "test.mlir") {
  Result<std::vector<uint8_t>> bytes = mlir_to_bef(mlir, filename);
  EXPECT_TRUE(bytes.ok()) << last_error_message();
  return bytes.ok() ? bytes.take() : std::vector<uint8_t>{};
}

inline BefRunReport run(const std::vector<uint8_t>& bef, BefRunOptions options = {}) {
  return run_bef(bef.data(), bef.size(), options);
}

// What a run printed after bef_executor's two start-up lines.
inline std::string body(const BefRunReport& report) {
  const std::string header =
      "Choosing memory leak check allocator.\nChoosing single-threaded work queue.\n";
  EXPECT_EQ(report.out.compare(0, header.size(), header), 0) << report.out;
  return report.out.substr(header.size());
}

// Every .mlir under ../shared/corpus/bef/mlir_tests that the translator
// accepts (err.mlir's chunks fail on purpose), as (path, BEF bytes), in
// directory order. Call after TRI_REQUIRE_SHARED().
inline std::vector<std::pair<std::string, std::vector<uint8_t>>> translated_corpus() {
  const std::string dir = std::string(TRIDENT_SOURCE_DIR) + "/../shared/corpus/bef/mlir_tests";
  std::vector<std::pair<std::string, std::vector<uint8_t>>> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".mlir") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    Result<std::vector<uint8_t>> bef = mlir_to_bef(text.str(), entry.path().string());
    if (bef.ok()) out.emplace_back(entry.path().string(), bef.take());
  }
  return out;
}

}  // namespace tri::bef::testing
