// The ts (tensor shape) kernels end to end, and what they refuse.
#include "tests/cpp/bef_tensor/tensor_test_util.h"

namespace tri::bef {
namespace {

using testing::error_of;
using testing::run_body;

TEST(ShapeKernels, BuildPrintCompareAndConvert) {
  BefRunReport report;
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %a = ts.build_shape [2 : i64, 3 : i64, 0 : i64]
  %c1 = ts.print_shape %a, %c0
  %n = ts.get_num_elements %a
  %c2 = tfrt.print.i64 %n, %c1
  %one = tfrt.constant.i32 1
  %d = ts.get_dimension %a, %one
  %c3 = tfrt.print.i64 %d, %c2
  %p = ts.to_partial_shape %a
  %c4 = ts.print_partial_shape %p, %c3
  %back = ts.to_shape %p
  %c5 = ts.print_shape %back, %c4
  %same = ts.equal_shape %a, %back
  %e = ts.build_shape []
  %different = ts.equal_shape %a, %e
  %f2 = ts.build_shape [4 : i64, 5 : i64]
  %fixed = ts.as_fixed_rank_shape.2 %f2
  %c6 = ts.print_fixed_rank_shape.2 %fixed, %c5
  %z = ts.as_fixed_rank_shape.0 %e
  %c7 = ts.print_fixed_rank_shape.0 %z, %c6
  %u = ts.build_unranked_partial_shape
  %c8 = ts.print_partial_shape %u, %c7
  %en = ts.get_num_elements %e
  %c9 = tfrt.print.i64 %en, %c8
  %c10 = tfrt.print.i1 %same, %c9
  %c11 = tfrt.print.i1 %different, %c10
  tfrt.return
}
)",
                                   &report);
  EXPECT_EQ(out,
            "--- Running 'f':\n"
            "shape = [2, 3, 0]\n"
            "int64 = 0\n"
            "int64 = 3\n"
            "partial_tensor_shape = [2, 3, 0]\n"
            "shape = [2, 3, 0]\n"
            "fixed_rank_shape = [4, 5]\n"
            "fixed_rank_shape = []\n"
            "partial_tensor_shape = Unknown rank\n"
            "int64 = 1\n"
            "int1 = 1\n"
            "int1 = 0\n")
      << report.err;
  EXPECT_EQ(report.exit_code, 0) << report.err;
}

TEST(ShapeKernels, LongShapesPrintWhole) {
  // Longer than HostContext::print's 1 KiB buffer: printed in pieces.
  std::string dims, expected;
  for (int i = 0; i < 300; ++i) {
    dims += (i == 0 ? "" : ", ") + std::to_string(1000 + i) + " : i64";
    expected += (i == 0 ? "" : ", ") + std::to_string(1000 + i);
  }
  const std::string out = run_body("func.func @f() {\n  %c0 = tfrt.new.chain\n  %a = ts.build_shape [" +
                                   dims + "]\n  %c1 = ts.print_shape %a, %c0\n  tfrt.return\n}\n");
  EXPECT_EQ(out, "--- Running 'f':\nshape = [" + expected + "]\n");
}

TEST(ShapeKernels, RefusesWhatTfrtOnlyAsserts) {
  EXPECT_EQ(error_of("  %a = ts.build_shape [2 : i64, -3 : i64]"),
            "test.mlir:2: error: runtime error: dimension 1 of a shape is -3; dimensions must "
            "be >= 0\n");
  EXPECT_EQ(error_of("  %a = ts.build_partial_shape [-2 : i64]"),
            "test.mlir:2: error: runtime error: dimension 0 of a partial shape is -2; "
            "dimensions must be -1 (unknown) or >= 0\n");
  EXPECT_EQ(error_of("  %a = ts.build_shape [1 : i64, 2 : i64]\n  %b = ts.as_fixed_rank_shape.3 %a"),
            "test.mlir:3: error: runtime error: shape [1, 2] has rank 2, expected rank 3\n");
  EXPECT_EQ(error_of("  %a = ts.build_shape [1 : i64]\n  %i = tfrt.constant.i32 1\n"
                     "  %d = ts.get_dimension %a, %i"),
            "test.mlir:4: error: runtime error: dimension index 1 is out of range for a shape "
            "of rank 1\n");
  EXPECT_EQ(error_of("  %a = ts.build_shape [4294967296 : i64, 4294967296 : i64]\n"
                     "  %n = ts.get_num_elements %a"),
            "test.mlir:3: error: runtime error: the number of elements of shape [4294967296, "
            "4294967296] overflows int64\n");
  EXPECT_EQ(error_of("  %a = ts.build_unranked_partial_shape\n  %b = ts.to_shape %a"),
            "test.mlir:3: error: runtime error: Unknown rank\n");
  EXPECT_EQ(error_of("  %c0 = tfrt.new.chain\n  %a = ts.build_partial_shape [3 : i64]\n"
                     "  %c1 = \"ts.print_shape\"(%a, %c0) : (!ts.partial_shape, !tfrt.chain) -> "
                     "!tfrt.chain"),
            "test.mlir:4: error: runtime error: argument 0 is !ts.partial_shape, expected "
            "!ts.shape\n");
  EXPECT_EQ(error_of("  %c0 = tfrt.new.chain\n  %a = ts.build_shape [3 : i64]\n"
                     "  %f = ts.as_fixed_rank_shape.1 %a\n"
                     "  %c1 = \"ts.print_fixed_rank_shape.2\"(%f, %c0) : "
                     "(!ts.fixed_rank_shape.1, !tfrt.chain) -> !tfrt.chain"),
            "test.mlir:5: error: runtime error: argument 0 has rank 1, expected a "
            "fixed_rank_shape of rank 2\n");
}

}  // namespace
}  // namespace tri::bef
