// Translation errors TFRT's translator reports (the cases of
// mlir_to_bef/err.mlir, inline so they run without the corpus), syntax
// errors with their positions, and the expected-diagnostics helpers.
#include <gtest/gtest.h>

#include <string>

#include "cpp/formats/bef/host/mlir_to_bef/expected_diagnostics.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_to_bef.h"

namespace tri::bef {
namespace {

struct Failure {
  bool failed = false;
  MlirDiagnostic diag;
  std::string error;
};

Failure translate_failure(const std::string& source) {
  Failure out;
  clear_error();
  Result<std::vector<uint8_t>> bef = mlir_to_bef(source, "t.mlir", {}, &out.diag);
  out.failed = !bef.ok();
  out.error = last_error_message();
  return out;
}

void expect_error(const std::string& source, uint32_t line, uint32_t column,
                  const std::string& message) {
  const Failure f = translate_failure(source);
  ASSERT_TRUE(f.failed) << source;
  EXPECT_EQ(f.diag.line, line) << f.error;
  EXPECT_EQ(f.diag.column, column) << f.error;
  EXPECT_NE(f.diag.message.find(message), std::string::npos) << f.error;
  const std::string prefix =
      "t.mlir:" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  EXPECT_EQ(f.error.substr(0, prefix.size()), prefix);
  EXPECT_NE(f.error.find(message), std::string::npos);
}

TEST(BefTranslateErrors, MissingReturn) {
  expect_error(
      "func.func @function_arg() -> i32 {\n"
      "  %x = \"someop\"() : () -> i32\n"
      "}\n",
      2, 8, "all functions need to have a tfrt.return");
}

TEST(BefTranslateErrors, ExternalFunction) {
  expect_error("\nfunc.func private @external_func() -> i32\n", 2, 1,
               "external functions are not allowed");
  expect_error("func.func @empty() {}\n", 1, 1, "external functions are not allowed");
}

TEST(BefTranslateErrors, UndefinedSymbolInAnUnregisteredOp) {
  expect_error(
      "func.func @caller() {\n"
      "  %c1 = tfrt.constant.i32 1\n"
      "  \"unregistered.call\"(%c1) { name = @missing_callee } : (i32) -> ()\n"
      "  tfrt.return\n"
      "}\n",
      3, 3, "function @missing_callee not defined");
}

TEST(BefTranslateErrors, CallToAMissingFunction) {
  expect_error(
      "func.func @caller() {\n"
      "  %c1 = tfrt.constant.i32 1\n"
      "  tfrt.call @missing_callee(%c1) : (i32) -> ()\n"
      "  tfrt.return\n"
      "}\n",
      3, 3, "'missing_callee' does not reference a valid function");
}

TEST(BefTranslateErrors, UnencodableAttribute) {
  expect_error(
      "func.func @caller() {\n"
      "  \"someop\"() { type = tensor<1xf32>} : () -> i32\n"
      "  tfrt.return\n"
      "}\n",
      2, 3, "BEF files cannot encode the 'type' attribute");
}

TEST(BefTranslateErrors, SyncFunctionReturns) {
  expect_error(
      "func.func @sync_fn_return_argument(%1: i32) -> i32 attributes {tfrt.sync} {\n"
      "  tfrt.return %1 : i32\n"
      "}\n",
      2, 3, "return value 0 is an argument in a sync function");
  expect_error(
      "func.func @sync_fn_return_duplicated(%1: i32) -> (i32, i32) attributes {tfrt.sync} {\n"
      "  %c1 = tfrt.constant.i32 1\n"
      "  tfrt.return %c1, %c1 : i32, i32\n"
      "}\n",
      3, 3, "return value 1 is duplicated in a sync function");
}

TEST(BefTranslateErrors, SyntaxErrorsCarryTheirPosition) {
  expect_error("func.func @f() {\n  %x = tfrt.add.i32 %y, %y\n  tfrt.return\n}\n", 2, 21,
               "use of undeclared SSA value name '%y'");
  expect_error("func.func @f() {\n  %a, %b = tfrt.new.chain\n  tfrt.return\n}\n", 2, 3,
               "operation defines 1 results but was provided 2 to bind");
  expect_error("func.func @f() {\n  %a = tfrt.bogus.op\n  tfrt.return\n}\n", 2, 8,
               "custom op 'tfrt.bogus.op' is unknown");
  expect_error("func.func @f() {\n  %a = \"x.op\"( : () -> i32\n  tfrt.return\n}\n", 2, 16,
               "expected ')' to end the operand list");
  expect_error("func.func @f() {\n  \"x.op\"() {s = \"abc} : () -> ()\n}\n", 2, 17,
               "expected '\"' in string literal");
  expect_error("func.func @f() {\n  %x = tfrt.constant.i32 1\n  %x = tfrt.constant.i32 2\n"
               "  tfrt.return\n}\n",
               3, 3, "redefinition of SSA value '%x'");
  expect_error("func.func @f() {\n  %x = tfrt.constant.i32 4294967296\n  tfrt.return\n}\n", 2, 26,
               "integer constant out of range");
  expect_error("func.func @f() {\n  %x = tfrt.constant.f32 1\n  tfrt.return\n}\n", 2, 26,
               "unexpected decimal integer literal for a floating point value");
  expect_error("func.func @f() {\n  %x = tfrt.add.i32 %x, %x\n", 2, 21,
               "use of undeclared SSA value name '%x'");
  expect_error("func.func @f() {\n  tfrt.return\n", 3, 1, "end of input");
  expect_error("func.func @f() -> i32 {\n  tfrt.return\n}\n", 2, 3,
               "'tfrt.return' op has 0 operands, but enclosing function returns 1");
}

TEST(BefTranslateErrors, RegionsAreIsolated) {
  // TFRT's region ops are IsolatedFromAbove: only their shadowed arguments
  // are visible inside.
  expect_error(
      "func.func @f(%a: i32, %c: i1) {\n"
      "  tfrt.if %c : () -> () {\n"
      "    %x = tfrt.add.i32 %a, %a\n"
      "    tfrt.return\n"
      "  }\n"
      "  tfrt.return\n"
      "}\n",
      3, 23, "use of undeclared SSA value name '%a'");
  // Generic regions of unregistered ops see outer values, which BEF cannot
  // express.
  expect_error(
      "func.func @f(%a: i32) {\n"
      "  \"x.op\"() ({\n"
      "    %y = \"y.op\"(%a) : (i32) -> i32\n"
      "    tfrt.return\n"
      "  }) : () -> ()\n"
      "  tfrt.return\n"
      "}\n",
      3, 10, "BEF executor only supports references to kernels within the current region");
  expect_error(
      "func.func @f() {\n"
      "  \"x.op\"() ({\n"
      "  ^bb0:\n"
      "    tfrt.return\n"
      "  ^bb1:\n"
      "    tfrt.return\n"
      "  }) : () -> ()\n"
      "  tfrt.return\n"
      "}\n",
      2, 3, "multi-block regions cannot be emitted to BEF files");
}

TEST(BefTranslateErrors, RegionOpsNeedAReturn) {
  expect_error(
      "func.func @f(%n: i32) {\n"
      "  tfrt.repeat.i32 %n {\n"
      "    %c = tfrt.new.chain\n"
      "  }\n"
      "  tfrt.return\n"
      "}\n",
      2, 3, "'tfrt.repeat.i32' op expected tfrt.return in body");
  expect_error(
      "func.func @f(%c: i1) {\n"
      "  %r = tfrt.if %c : () -> (i32) {\n"
      "    %x = tfrt.constant.i32 1\n"
      "    tfrt.return %x : i32\n"
      "  }\n"
      "  tfrt.return\n"
      "}\n",
      6, 3, "expected 'else' in 'tfrt.if' with result values");
}

TEST(BefTranslateDiagnostics, HarvestsExpectedErrors) {
  const std::string source =
      "// expected-error @+1 {{first}}\n"
      "op\n"
      "op // expected-error {{same line}}\n"
      "op\n"
      "// expected-error@-1 {{above}}\n"
      "// not an expected-error comment\n";
  const std::vector<ExpectedDiagnostic> expected = expected_errors(source);
  ASSERT_EQ(expected.size(), 3u);
  EXPECT_EQ(expected[0].line, 2u);
  EXPECT_EQ(expected[0].message, "first");
  EXPECT_EQ(expected[1].line, 3u);
  EXPECT_EQ(expected[1].message, "same line");
  EXPECT_EQ(expected[2].line, 4u);
  EXPECT_EQ(expected[2].comment_line, 5u);
  EXPECT_TRUE(expected_errors("// expected-error @+99999999999999999999 {{x}}").size() <= 1);
  EXPECT_TRUE(expected_errors("// expected-error @-5 {{x}}").empty());
}

TEST(BefTranslateDiagnostics, SplitKeepsLineNumbers) {
  const std::string source = "a\nb\n// -----\nc\n  // ----- trailing\nd\n";
  const std::vector<SplitChunk> chunks = split_input_file(source);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].text, "a\nb\n");
  EXPECT_EQ(chunks[0].first_line, 1u);
  EXPECT_EQ(chunks[1].text, "\n\n\nc\n");
  EXPECT_EQ(chunks[1].first_line, 4u);
  EXPECT_EQ(chunks[2].first_line, 6u);
  EXPECT_EQ(chunks[2].text, "\n\n\n\n\nd\n");
  EXPECT_EQ(split_input_file("x").size(), 1u);
}

TEST(BefTranslateDiagnostics, SplitChunksReportOriginalLines) {
  const std::string source =
      "func.func @ok() {\n  tfrt.return\n}\n"
      "// -----\n"
      "func.func @bad() {\n"
      "  // expected-error @+1 {{all functions need to have a tfrt.return}}\n"
      "  %x = \"someop\"() : () -> i32\n"
      "}\n";
  const std::vector<SplitChunk> chunks = split_input_file(source);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_TRUE(mlir_to_bef(chunks[0].text, "s.mlir").ok());
  MlirDiagnostic diag;
  EXPECT_FALSE(mlir_to_bef(chunks[1].text, "s.mlir", {}, &diag).ok());
  const std::vector<ExpectedDiagnostic> expected = expected_errors(chunks[1].text);
  ASSERT_EQ(expected.size(), 1u);
  EXPECT_EQ(diag.line, expected[0].line);
  EXPECT_EQ(diag.line, 7u);
}

}  // namespace
}  // namespace tri::bef
