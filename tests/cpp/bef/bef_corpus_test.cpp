// TFRT's own executor tests, natively: every corpus file whose functions are
// all in scope (classes a, a+t, b, b+t) is translated, run the way its RUN
// line runs bef_executor, its runtime errors verified against its
// expected-error comments, and its output checked by LLVM's FileCheck. The
// peer suite (tests/conformance/tfrt-mlir-tests.test.ts) does the same
// through wasm, function by function too; this copy runs under ASan and
// UBSan in scripts/fuzz.sh.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cpp/bef/bef_test_util.h"

namespace tri::bef {
namespace {

constexpr const char* kFileCheck = "/usr/lib/llvm-14/bin/FileCheck";

std::string corpus_path(const std::string& relative) {
  return std::string(TRIDENT_SOURCE_DIR) + "/../shared/corpus/bef/mlir_tests/" + relative;
}

bool read_file(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  *out = text.str();
  return true;
}

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

// Blanks (keeping line numbers) a class-c function and its CHECK lines:
// from its CHECK-LABEL to the next one.
std::string without_function(const std::string& source, const std::string& name) {
  const std::string label = "// CHECK-LABEL: --- Running '" + name + "'";
  const size_t begin = source.find(label);
  if (begin == std::string::npos) return source;
  size_t end = source.find("// CHECK-LABEL:", begin + label.size());
  if (end == std::string::npos) end = source.size();
  std::string out = source;
  for (size_t i = begin; i < end; ++i) {
    if (out[i] != '\n') out[i] = ' ';
  }
  return out;
}

// The bef_executor flags of the file's first executor RUN line.
BefRunOptions options_from_run_line(const std::string& source, bool* stderr_too) {
  BefRunOptions options;
  std::smatch m;
  static const std::regex kRun(R"(//\s*RUN:\s*(.*(bef_executor|code_size_test_driver).*))");
  if (!std::regex_search(source, m, kRun)) return options;
  const std::string run = m[1].str();
  *stderr_too = run.find("2>&1") != std::string::npos;
  options.print_error_code = run.find("--print_error_code") != std::string::npos;
  if (std::regex_search(run, m, std::regex(R"(--test_init_function[= ](\S+))"))) options.init_function = m[1].str();
  if (std::regex_search(run, m, std::regex(R"(--functions[= ](\S+))"))) {
    std::stringstream names(m[1].str());
    for (std::string name; std::getline(names, name, ',');) options.functions.push_back(name);
  }
  return options;
}

// FileCheck's verdict on `output` against the CHECK lines of `check_file`.
std::string file_check(const std::string& check_file, const std::string& output, const std::string& tag) {
  const std::string out_path = ::testing::TempDir() + "bef_corpus_" + tag + ".out";
  const std::string log_path = out_path + ".log";
  std::ofstream(out_path, std::ios::binary) << output;
  const std::string command = std::string(kFileCheck) + " '" + check_file + "' --input-file '" + out_path +
                              "' > '" + log_path + "' 2>&1";
  const int status = std::system(command.c_str());
  std::string log;
  read_file(log_path, &log);
  return status == 0 ? "" : log;
}

struct CorpusCase {
  const char* path;
  const char* class_c_function;  // blanked before running, or nullptr
  size_t expected_errors;
};

class BefCorpus : public ::testing::TestWithParam<CorpusCase> {};

TEST_P(BefCorpus, PassesFileCheckAndItsExpectedErrors) {
  const CorpusCase& c = GetParam();
  std::string source;
  if (!read_file(corpus_path(c.path), &source)) {
    if (in_ci()) FAIL() << "../shared/corpus/bef is missing, but CI=true";
    GTEST_SKIP() << "the corpus is absent (../shared/corpus/bef)";
  }
  if (std::ifstream(kFileCheck).fail()) {
    if (in_ci()) FAIL() << kFileCheck << " is missing (Debian's llvm-14-tools)";
    GTEST_SKIP() << kFileCheck << " is missing";
  }
  std::string check_file = corpus_path(c.path);
  if (c.class_c_function != nullptr) {
    source = without_function(source, c.class_c_function);
    check_file = ::testing::TempDir() + "bef_corpus_masked.mlir";
    std::ofstream(check_file, std::ios::binary) << source;
  }
  const std::vector<uint8_t> bef = testing::translate(source, corpus_path(c.path));
  ASSERT_FALSE(bef.empty());
  bool stderr_too = false;
  BefRunOptions options = options_from_run_line(source, &stderr_too);
  options.verify_diagnostics = true;
  options.expected = expected_errors(source);
  EXPECT_EQ(options.expected.size(), c.expected_errors);
  const BefRunReport report = testing::run(bef, options);
  EXPECT_EQ(report.exit_code, 0) << report.err;
  // A RUN line without FileCheck (err_unknown_kernel.mlir) only needs the
  // run, with its diagnostics verified, to succeed.
  if (source.find("| FileCheck") == std::string::npos) return;
  const std::string output = stderr_too ? report.out + report.err : report.out;
  std::string tag = c.path;
  for (char& ch : tag) {
    if (ch == '/' || ch == '.') ch = '_';
  }
  EXPECT_EQ(file_check(check_file, output, tag), "") << output;
}

INSTANTIATE_TEST_SUITE_P(
    Files, BefCorpus,
    ::testing::Values(
        CorpusCase{"mlir_tests/basic_kernels/float_kernels.mlir", nullptr, 0},
        CorpusCase{"mlir_tests/basic_kernels/parallel.mlir", nullptr, 0},
        CorpusCase{"mlir_tests/bef_executor/async.mlir", nullptr, 0},
        CorpusCase{"mlir_tests/bef_executor/concurrent.mlir", nullptr, 0},
        CorpusCase{"mlir_tests/bef_executor/err_unknown_kernel.mlir", nullptr, 1},
        CorpusCase{"mlir_tests/bef_executor/error_code.mlir", nullptr, 1},
        CorpusCase{"mlir_tests/bef_executor/init.mlir", nullptr, 0},
        CorpusCase{"mlir_tests/bef_executor/native_function.mlir", nullptr, 0},
        CorpusCase{"mlir_tests/bef_executor/single_threaded_work_queue.mlir", nullptr, 2},
        CorpusCase{"mlir_tests/bef_executor/tutorial.mlir", nullptr, 0},
        CorpusCase{"mlir_tests/code_size_test_app/fib.mlir", nullptr, 0},
        CorpusCase{"mlir_tests/tensor/tensor_shape.mlir", nullptr, 1},
        CorpusCase{"mlir_tests/tensor/dense_host_tensor.mlir", "sync_basic_tensor", 0},
        CorpusCase{"backends/cpu/mlir_tests/resnet/resnet_tensor_kernels.mlir", nullptr, 2},
        CorpusCase{"backends/cpu/mlir_tests/mnist/mnist_tensor_kernels.mlir", nullptr, 0}),
    [](const ::testing::TestParamInfo<CorpusCase>& info) {
      std::string name = info.param.path;
      name = name.substr(name.rfind('/') + 1);
      name = name.substr(0, name.find('.'));
      return name;
    });

}  // namespace
}  // namespace tri::bef
