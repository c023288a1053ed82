// Every .mlir of the BEF corpus translates (err.mlir, split at `// -----`,
// fails chunk by chunk exactly where its expected-error comments say), and
// hostile text (every prefix of corpus files, deep nesting, huge numbers,
// garbage) never crashes the translator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cpp/formats/bef/host/mlir_to_bef/expected_diagnostics.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_to_bef.h"
#include "tests/cpp/formats/bef_translate/bef_test_reader.h"

namespace tri::bef {
namespace {

const char kCorpusDir[] = TRIDENT_SOURCE_DIR "/../shared/corpus/bef/mlir_tests";

bool corpus_present() { return std::filesystem::is_directory(kCorpusDir); }

#define REQUIRE_BEF_CORPUS()                                                        \
  do {                                                                             \
    if (!corpus_present()) {                                                       \
      const char* ci = std::getenv("CI");                                          \
      if (ci != nullptr && std::string(ci) == "true") {                            \
        FAIL() << "the BEF corpus is absent (" << kCorpusDir << ") and CI requires it"; \
      }                                                                            \
      GTEST_SKIP() << "the BEF corpus is absent (" << kCorpusDir << "): skipped";  \
    }                                                                              \
  } while (0)

std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kCorpusDir)) {
    if (entry.path().extension() == ".mlir") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool is_err_file(const std::string& path) {
  const std::string suffix = "/mlir_to_bef/err.mlir";
  return path.size() >= suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Translating must return, with a message on failure; nothing else.
void translate_without_crash(const std::string& source) {
  clear_error();
  Result<std::vector<uint8_t>> bef = mlir_to_bef(source, "hostile.mlir");
  if (!bef.ok()) {
    ASSERT_STRNE(last_error_message(), "");
  } else {
    ASSERT_TRUE(testing::read_sections(*bef).ok);
  }
}

TEST(BefTranslateCorpus, EveryFileTranslates) {
  REQUIRE_BEF_CORPUS();
  const std::vector<std::string> files = corpus_files();
  EXPECT_EQ(files.size(), 22u);
  for (const std::string& path : files) {
    if (is_err_file(path)) continue;
    SCOPED_TRACE(path);
    const std::string source = read_text(path);
    Result<std::vector<uint8_t>> bef = mlir_to_bef(source, path);
    ASSERT_TRUE(bef.ok()) << last_error_message();
    const testing::BefSections s = testing::read_sections(*bef);
    ASSERT_TRUE(s.ok);
    const bool has_functions = source.find("func.func") != std::string::npos;
    std::vector<uint8_t> ids = {0, 1, 2, 3, 4, 5};
    if (has_functions) ids.insert(ids.end(), {6, 7});
    ids.insert(ids.end(), {8, 9, 10});
    EXPECT_EQ(s.ids, ids);
    // The same input gives the same bytes.
    Result<std::vector<uint8_t>> again = mlir_to_bef(source, path);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *bef);

    MlirToBefOptions lean;
    lean.optional_sections = false;
    Result<std::vector<uint8_t>> without = mlir_to_bef(source, path, lean);
    ASSERT_TRUE(without.ok()) << last_error_message();
    const testing::BefSections w = testing::read_sections(*without);
    ASSERT_TRUE(w.ok);
    EXPECT_EQ(w.payload.count(8) + w.payload.count(9) + w.payload.count(10), 0u);
    EXPECT_EQ(w.payload.at(5).size(), s.payload.at(5).size());
  }
}

TEST(BefTranslateCorpus, NamedFunctionsKeepSourceOrder) {
  REQUIRE_BEF_CORPUS();
  const std::string path = std::string(kCorpusDir) + "/mlir_tests/bef_executor/async.mlir";
  Result<std::vector<uint8_t>> bef = mlir_to_bef(read_text(path), path);
  ASSERT_TRUE(bef.ok()) << last_error_message();
  std::vector<std::string> names;
  for (const testing::IndexEntry& e : testing::read_function_index(testing::read_sections(*bef))) {
    if (!e.name.empty()) names.push_back(e.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "async_add", "async_repeat2", "call_async_add.i32", "async_add.i32_caller",
                       "test_async_print_result", "test_async_copy",
                       "test_async_copy.with_delay", "test_async_copy_2", "test_as_chain"}));
}

TEST(BefTranslateCorpus, ErrFileChunksFailWhereExpected) {
  REQUIRE_BEF_CORPUS();
  const std::string path = std::string(kCorpusDir) + "/mlir_tests/mlir_to_bef/err.mlir";
  const std::vector<SplitChunk> chunks = split_input_file(read_text(path));
  ASSERT_EQ(chunks.size(), 7u);
  for (const SplitChunk& chunk : chunks) {
    const std::vector<ExpectedDiagnostic> expected = expected_errors(chunk.text);
    ASSERT_EQ(expected.size(), 1u) << "chunk at line " << chunk.first_line;
    MlirDiagnostic diag;
    clear_error();
    Result<std::vector<uint8_t>> bef = mlir_to_bef(chunk.text, path, {}, &diag);
    ASSERT_FALSE(bef.ok()) << "chunk at line " << chunk.first_line;
    EXPECT_EQ(diag.line, expected[0].line) << last_error_message();
    EXPECT_NE(diag.message.find(expected[0].message), std::string::npos)
        << diag.message << " vs " << expected[0].message;
    EXPECT_EQ(std::string(last_error_message()).rfind(path + ":" + std::to_string(diag.line), 0),
              0u);
  }
}

TEST(BefTranslateHostile, EveryPrefixOfCorpusFiles) {
  REQUIRE_BEF_CORPUS();
  for (const char* name : {"/mlir_tests/basic_kernels/control_flow.mlir",
                           "/mlir_tests/bef_to_mlir/attributes.mlir",
                           "/integrationtest/fizzbuzz/fizzbuzz.mlir",
                           "/mlir_tests/tensor/dense_host_tensor.mlir"}) {
    const std::string source = read_text(std::string(kCorpusDir) + name);
    ASSERT_FALSE(source.empty()) << name;
    for (size_t n = 0; n < source.size(); ++n) {
      ASSERT_NO_FATAL_FAILURE(translate_without_crash(source.substr(0, n))) << name << " " << n;
    }
  }
}

TEST(BefTranslateHostile, DeepNesting) {
  const size_t depth = 100000;
  const std::string fn = "func.func @f(%n: i32) {\n";
  std::string regions = fn;
  for (size_t i = 0; i < 200; ++i) regions += "\"x.op\"() ({\n";
  for (const std::string& text :
       {fn + "\"x.op\"() {a = " + std::string(depth, '[') + "} : () -> ()\n",
        fn + "\"x.op\"() : () -> " + std::string(depth / 10, '(') + "\n",
        fn + "%x = \"x.op\"() : () -> " + [] {
          std::string t;
          for (int i = 0; i < 20000; ++i) t += "complex<";
          return t;
        }(),
        fn + "\"x.op\"() {a = dense<" + std::string(depth, '[') + "1" + "> : tensor<1xi32>} : () -> ()\n",
        fn + "%x = \"x.op\"() : () -> !a.b<" + std::string(depth, '<') + "\n",
        fn + "\"x.op\"() {a = #foo.bar<" + std::string(depth, '(') + "} : () -> ()\n",
        regions}) {
    clear_error();
    Result<std::vector<uint8_t>> bef = mlir_to_bef(text, "deep.mlir");
    EXPECT_FALSE(bef.ok());
    EXPECT_STRNE(last_error_message(), "");
  }
  // Nesting just below the limit still translates.
  std::string ok = "func.func @f() {\n";
  for (int i = 0; i < 60; ++i) ok += "\"x.op\"() ({\n";
  for (int i = 0; i < 60; ++i) ok += "tfrt.return\n}) : () -> ()\n";
  ok += "tfrt.return\n}\n";
  EXPECT_TRUE(mlir_to_bef(ok, "ok.mlir").ok()) << last_error_message();
}

TEST(BefTranslateHostile, HugeNumbers) {
  const std::string head = "func.func @f() {\n";
  const std::string tail = "\ntfrt.return\n}\n";
  for (const std::string& body : {
           std::string("%x = tfrt.constant.i32 99999999999999999999999999"),
           std::string("%x = tfrt.constant.i64 -9223372036854775809"),
           std::string("%x = tfrt.constant.ui32 -1"),
           std::string("%x:99999999999999999999 = tfrt.new.chain"),
           std::string("%x:4294967297 = tfrt.new.chain"),
           std::string("%x = tfrt.new.chain\n%y = tfrt.merge.chains %x#99999999999 : !tfrt.chain"),
           std::string("\"x.op\"() {a = dense<0> : tensor<99999999999999999999999xi8>} : () -> ()"),
           std::string("\"x.op\"() {a = dense<0> : tensor<4294967296x4294967296xi8>} : () -> ()"),
           std::string("\"x.op\"() {a = dense<0> : tensor<1000000000xi64>} : () -> ()"),
           std::string("\"x.op\"() {a = #corert.shape<99999999999999999999x2>} : () -> ()"),
           std::string("\"x.op\"() : () -> tensor<99999999999999999999xf32>"),
           std::string("\"x.op\"() : () -> i99999999999"),
       }) {
    clear_error();
    Result<std::vector<uint8_t>> bef = mlir_to_bef(head + body + tail, "huge.mlir");
    EXPECT_FALSE(bef.ok()) << body;
    EXPECT_STRNE(last_error_message(), "") << body;
  }
  // Large but representable values are fine.
  EXPECT_TRUE(mlir_to_bef(head + "%x = tfrt.constant.i64 -9223372036854775808" + tail, "t").ok());
  EXPECT_TRUE(mlir_to_bef(head + "%x = tfrt.constant.ui64 18446744073709551615" + tail, "t").ok());
  // MLIR reads an overflowing float literal as infinity.
  EXPECT_TRUE(mlir_to_bef(head + "%x = tfrt.constant.f64 1.0e999999" + tail, "t").ok());
  EXPECT_TRUE(mlir_to_bef(head + "\"x.op\"() {a = dense<0> : tensor<0x99999999999xi8>} : () -> ()" +
                              tail,
                          "t")
                  .ok());
}

TEST(BefTranslateHostile, Garbage) {
  std::string bytes;
  uint32_t state = 12345;
  for (int round = 0; round < 200; ++round) {
    bytes.clear();
    for (int i = 0; i < 300; ++i) {
      state = state * 1103515245u + 12345u;
      bytes.push_back(static_cast<char>(state >> 16));
    }
    ASSERT_NO_FATAL_FAILURE(translate_without_crash(bytes));
    ASSERT_NO_FATAL_FAILURE(translate_without_crash("func.func @f() {\n" + bytes));
  }
  ASSERT_NO_FATAL_FAILURE(translate_without_crash(std::string("func.func @f() {\0}", 18)));
  ASSERT_NO_FATAL_FAILURE(translate_without_crash("\"@"));
  ASSERT_NO_FATAL_FAILURE(translate_without_crash("func.func @\"unterminated"));
}

}  // namespace
}  // namespace tri::bef
