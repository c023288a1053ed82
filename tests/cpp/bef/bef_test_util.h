// Shared by the BEF tests: MLIR text → BEF bytes through the translator, and
// a run through the bef_executor-compatible driver.
#pragma once

#include <gtest/gtest.h>

#include <string>
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

}  // namespace tri::bef::testing
