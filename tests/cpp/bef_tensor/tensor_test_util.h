// Shared by the tensor kernel tests: MLIR text through the translator and the
// bef_executor-compatible driver, and a small FileCheck for TFRT's corpus
// files (CHECK and CHECK-LABEL lines, {{regex}} parts).
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "tests/cpp/bef/bef_test_util.h"

namespace tri::bef::testing {

// Runs `mlir` and returns what it printed after the start-up lines; the
// report's stderr and exit code go to `report` when given.
inline std::string run_body(const std::string& mlir, BefRunReport* report = nullptr,
                            BefRunOptions options = {}) {
  const std::vector<uint8_t> bef = translate(mlir, "test.mlir");
  BefRunReport r = run(bef, options);
  std::string out = body(r);
  if (report != nullptr) *report = std::move(r);
  return out;
}

// Runs `body` inside `func.func @f() { <prelude> <body> tfrt.return }` and
// returns the driver's stderr with locations cut to file:line: these tests
// check kernel messages and the line they point at; the column is the
// translator's business (tests/cpp/formats/bef_translate).
inline std::string error_of(const std::string& body, BefRunOptions options = {},
                            const std::string& prelude = "") {
  BefRunReport report;
  run_body("func.func @f() {\n" + prelude + body + "\n  tfrt.return\n}\n", &report, options);
  EXPECT_EQ(report.exit_code, 1);
  return std::regex_replace(report.err, std::regex(R"((test\.mlir:\d+):\d+:)"), "$1:");
}

}  // namespace tri::bef::testing
