// The BEF executor and its basic kernels, driven end to end: MLIR text is
// translated, run by the bef_executor-compatible driver, and its output
// compared with what TFRT's bef_executor prints for the same program.
#include <gtest/gtest.h>

#include "tests/cpp/bef/bef_test_util.h"

namespace tri::bef {
namespace {

using testing::body;
using testing::run;
using testing::translate;

TEST(BefExecutor, RunsArgumentlessFunctionsInIndexOrderAndPrintsResults) {
  const auto bef = translate(R"(
func.func @helper(%x: i32) -> i32 {
  tfrt.return %x : i32
}
func.func @main() -> (i32, f32, i1, !tfrt.chain) {
  %a = tfrt.constant.i32 40
  %b = tfrt.constant.i32 2
  %c = tfrt.add.i32 %a, %b
  %f = tfrt.constant.f32 1.5
  %t = tfrt.constant.i1 1
  %ch = tfrt.new.chain
  tfrt.return %c, %f, %t, %ch : i32, f32, i1, !tfrt.chain
}
)");
  const BefRunReport report = run(bef);
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(body(report),
            "--- Not running 'helper' because it has arguments.\n"
            "--- Running 'main':\n"
            "'main' returned 42,1.500000e+00,1,!tfrt.chain value\n");
}

TEST(BefExecutor, ZeroOperandKernelsRunLastFirstAndChainsOrderPrints) {
  // Without chains the constants run in reverse block order (LIFO), but the
  // chained prints run in chain order whatever the scheduler does.
  const auto bef = translate(R"(
func.func @prints() {
  %ch0 = tfrt.new.chain
  %one = tfrt.constant.i32 1
  %two = tfrt.constant.i64 2
  %ch1 = tfrt.print.i32 %one, %ch0
  %ch2 = tfrt.print.i64 %two, %ch1
  %f = tfrt.constant.f64 -0.25
  %ch3 = tfrt.print.f64 %f, %ch2
  %b = tfrt.constant.i1 0
  %ch4 = tfrt.print.i1 %b, %ch3
  tfrt.return
}
)");
  const BefRunReport report = run(bef);
  EXPECT_EQ(body(report), "--- Running 'prints':\nint32 = 1\nint64 = 2\nf64 = -0.250000\nint1 = 0\n");
}

TEST(BefExecutor, ErrorsPropagateAndPointAtTheFailingOp) {
  const std::string mlir = R"(func.func @divide() -> (i32, i32) {
  %zero = tfrt.constant.i32 0
  %x = tfrt.constant.i32 42
  %q, %r = tfrt.div.i32 %x, %zero
  %y = tfrt.add.i32 %q, %x
  tfrt.return %y, %r : i32, i32
}
)";
  const auto bef = translate(mlir, "div.mlir");
  const BefRunReport report = run(bef);
  EXPECT_EQ(body(report),
            "--- Running 'divide':\n'divide' returned <<error: Divide by zero>>,<<error: Divide by zero>>\n");
  // One diagnostic, at the div op (line 4, column 12: MLIR locates an op at
  // its name), not at the add that only received the error.
  EXPECT_EQ(report.err, "div.mlir:4:12: error: runtime error: Divide by zero\n");
  EXPECT_EQ(report.exit_code, 1);

  BefRunOptions verify;
  verify.verify_diagnostics = true;
  verify.expected.push_back({4, 3, "runtime error: Divide by zero"});
  const BefRunReport verified = run(bef, verify);
  EXPECT_EQ(verified.exit_code, 0) << verified.err;
  EXPECT_EQ(verified.err, "");

  verify.expected[0].line = 5;
  const BefRunReport mismatched = run(bef, verify);
  EXPECT_EQ(mismatched.exit_code, 1);
  EXPECT_NE(mismatched.err.find("unexpected error"), std::string::npos) << mismatched.err;
  EXPECT_NE(mismatched.err.find("was not produced"), std::string::npos) << mismatched.err;
}

TEST(BefExecutor, RecursiveCallsAndIf) {
  const auto bef = translate(R"(
func.func @fib(%arg: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %cond = "tfrt.lessequal.i32"(%arg, %one) : (i32, i32) -> (i1)
  %res = tfrt.if %cond, %arg : (i32) -> i32 {
    tfrt.return %arg : i32
  } else {
    %min_one = tfrt.constant.i32 -1
    %n1 = tfrt.add.i32 %arg, %min_one
    %n2 = tfrt.add.i32 %n1, %min_one
    %f1 = tfrt.call @fib(%n1) : (i32) -> (i32)
    %f2 = tfrt.call @fib(%n2) : (i32) -> (i32)
    %sum = tfrt.add.i32 %f1, %f2
    tfrt.return %sum : i32
  }
  tfrt.return %res : i32
}
func.func @driver() -> i32 {
  %n = tfrt.constant.i32 20
  %r = tfrt.call @fib(%n) : (i32) -> (i32)
  tfrt.return %r : i32
}
)");
  const BefRunReport report = run(bef);
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(body(report),
            "--- Not running 'fib' because it has arguments.\n--- Running 'driver':\n'driver' returned 6765\n");
}

TEST(BefExecutor, LoopsCaseAndOnce) {
  const auto bef = translate(R"(
func.func @body(%i: i32, %acc: i32) -> (i32, i32, i1) {
  %one = tfrt.constant.i32 1
  %ten = tfrt.constant.i32 10
  %next = tfrt.add.i32 %i, %one
  %sum = tfrt.add.i32 %acc, %i
  %more = "tfrt.lessequal.i32"(%next, %ten) : (i32, i32) -> (i1)
  tfrt.return %next, %sum, %more : i32, i32, i1
}
func.func @b0(%x: i32) -> i32 {
  tfrt.return %x : i32
}
func.func @b1(%x: i32) -> i32 {
  %y = tfrt.add.i32 %x, %x
  tfrt.return %y : i32
}
func.func @counted(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}
func.func @loops() -> (i32, i32, i32, i32, i32, i32) {
  %true = tfrt.constant.i1 1
  %zero = tfrt.constant.i32 0
  %i, %total = tfrt.while %true @body(%zero, %zero) parallel_iterations(1) : (i32, i32) -> (i32, i32)
  %n = tfrt.constant.i32 100
  %three = tfrt.constant.i32 3
  %r = tfrt.repeat.i32 %n, %three : i32 {
    %one = tfrt.constant.i32 1
    %y = tfrt.add.i32 %three, %one
    tfrt.return %y : i32
  }
  %seven = tfrt.constant.i32 7
  %c1 = tfrt.case %seven [@b0, @b1] (%three) : (i32) -> (i32)
  %o1 = tfrt.once @counted(%three) : (i32) -> (i32)
  %o2 = tfrt.once @counted(%o1) : (i32) -> (i32)
  tfrt.return %i, %total, %r, %c1, %o1, %o2 : i32, i32, i32, i32, i32, i32
}
)");
  const BefRunReport report = run(bef);
  EXPECT_EQ(report.exit_code, 0) << report.err;
  // while: i runs 0..10, total = 0+...+10 = 55; repeat adds 1 a hundred
  // times; case index 7 is out of range and takes the last branch; the
  // second once returns the first one's cached result.
  EXPECT_EQ(body(report),
            "--- Not running 'body' because it has arguments.\n"
            "--- Not running 'b0' because it has arguments.\n"
            "--- Not running 'b1' because it has arguments.\n"
            "--- Not running 'counted' because it has arguments.\n"
            "--- Running 'loops':\n'loops' returned 11,55,103,6,4,4\n");
}

TEST(BefExecutor, UnknownKernelsFailAtLoadNamingTheKernelAndItsLocation) {
  const std::string mlir = R"(func.func @f() {
  "no.such_kernel"() : () -> ()
  tfrt.return
}
)";
  const auto bef = translate(mlir, "unknown.mlir");
  const BefRunReport report = run(bef);
  EXPECT_EQ(body(report), "");
  EXPECT_EQ(report.err, "unknown.mlir:2:3: error: unknown kernel name 'no.such_kernel'\n");
  EXPECT_EQ(report.exit_code, 1);

  BefRunOptions tolerant;
  tolerant.allow_unknown_kernels = true;
  const BefRunReport skipped = run(bef, tolerant);
  EXPECT_EQ(body(skipped), "");
  EXPECT_NE(skipped.err.find("'f' uses kernel 'no.such_kernel', which this build does not support"),
            std::string::npos)
      << skipped.err;
}

TEST(BefExecutor, KernelsRejectOperandsOfTheWrongType) {
  // A file may wire any register to any kernel; the kernel must say so
  // rather than read the wrong payload.
  const auto bef = translate(R"(
func.func @f() -> i32 {
  %x = tfrt.constant.i64 1
  %y = tfrt.constant.i32 2
  %z = "tfrt.add.i32"(%x, %y) : (i64, i32) -> i32
  tfrt.return %z : i32
}
)");
  const BefRunReport report = run(bef);
  EXPECT_EQ(body(report), "--- Running 'f':\n'f' returned <<error: argument 0 is i64, expected i32>>\n");
}

TEST(BefExecutor, SyncFunctionsRunTheirKernelsInOrder) {
  // TFRT's BEFInterpreter: block order, plain values, the first failure is
  // the result; a kernel that answers asynchronously cannot be waited for.
  const auto bef = translate(R"(
func.func @sync_add(%a: i32, %b: i32) -> i32 attributes {tfrt.sync} {
  %c = tfrt.add.i32 %a, %b
  %one = tfrt.constant.i32 1
  %d = tfrt.add.i32 %c, %one
  tfrt.return %d : i32
}
func.func @calls_sync() -> i32 {
  %x = tfrt.constant.i32 40
  %y = tfrt.constant.i32 1
  %z = tfrt.call @sync_add(%x, %y) : (i32, i32) -> i32
  tfrt.return %z : i32
}
func.func @sync_fails() -> (i32, i32) attributes {tfrt.sync} {
  %x = tfrt.constant.i32 1
  %zero = tfrt.constant.i32 0
  %q, %r = tfrt.div.i32 %x, %zero
  %never = tfrt.add.i32 %x, %x
  tfrt.return %q, %never : i32, i32
}
func.func @sync_async() -> i32 attributes {tfrt.sync} {
  %x = tfrt.constant.i32 1
  %y = "tfrt_test.async_add.i32"(%x, %x) : (i32, i32) -> i32
  tfrt.return %y : i32
}
)");
  const BefRunReport report = run(bef);
  EXPECT_EQ(body(report),
            "--- Not running 'sync_add' because it has arguments.\n"
            "--- Running 'calls_sync':\n'calls_sync' returned 42\n"
            "--- Running 'sync_fails':\n"
            "'sync_fails' returned <<error: Divide by zero>>,<<error: Divide by zero>>\n"
            "--- Running 'sync_async':\n"
            "'sync_async' returned <<error: kernel 'tfrt_test.async_add.i32' is asynchronous; a sync "
            "function cannot wait for it>>\n");
}

}  // namespace
}  // namespace tri::bef
