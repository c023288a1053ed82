// The tfrt_dht kernels end to end: small MLIR programs, translated and run by
// the bef_executor-compatible driver, compared with what TFRT prints; and
// programs that hand the kernels the wrong things.
#include <gmock/gmock.h>

#include <regex>

#include "tests/cpp/bef_tensor/tensor_test_util.h"

namespace tri::bef {
namespace {

using testing::error_of;
using testing::run_body;

TEST(DhtKernels, CreateFillSetAndPrint) {
  BefRunReport report;
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.i64.1 [3 : i64]
  %c1 = tfrt_dht.print_tensor %a, %c0
  %c2 = tfrt_dht.fill_tensor_with_constant.i64 %a, %c1 -5 : i64
  %c3 = tfrt_dht.print_tensor %a, %c2
  %b = "tfrt_dht.create_uninitialized_tensor.f64.2"() {shape = [1 : i64, 2 : i64]} : () -> !t.tensor
  %c4 = "tfrt_dht.set_tensor_with_constant_values.f64"(%b, %c3) {values = [0.5 : f64, -2.0 : f64]}
    : (!t.tensor, !tfrt.chain) -> !tfrt.chain
  %c5 = tfrt_dht.print_tensor %b, %c4
  %u = tfrt_dht.create_uninitialized_tensor.ui8.1 [2 : i64]
  %c6 = tfrt_dht.set_tensor_with_constant_values.ui8 %u, %c5 [255 : ui8, 7 : ui8]
  %c7 = tfrt_dht.print_tensor %u, %c6
  %s = "tfrt_dht.create_uninitialized_tensor.i8.0"() {shape = []} : () -> !t.tensor
  %c8 = "tfrt_dht.fill_tensor_with_constant.i8"(%s, %c7) {value = -3 : i8}
    : (!t.tensor, !tfrt.chain) -> !tfrt.chain
  %c9 = tfrt_dht.print_tensor %s, %c8
  %e = tfrt_dht.create_uninitialized_tensor.f32.3 [2 : i64, 0 : i64, 3 : i64]
  %c10 = tfrt_dht.print_tensor %e, %c9
  tfrt.return
}
)",
                                   &report);
  EXPECT_EQ(out,
            "--- Running 'f':\n"
            "DenseHostTensor dtype = i64, shape = [3], values = [0, 0, 0]\n"
            "DenseHostTensor dtype = i64, shape = [3], values = [-5, -5, -5]\n"
            "DenseHostTensor dtype = f64, shape = [1, 2], values = [5.000000e-01, -2.000000e+00]\n"
            "DenseHostTensor dtype = u8, shape = [2], values = [255, 7]\n"
            "DenseHostTensor dtype = i8, shape = [], values = [-3]\n"
            "DenseHostTensor dtype = f32, shape = [2, 0, 3], values = []\n")
      << report.err;
  EXPECT_EQ(report.exit_code, 0) << report.err;
}

TEST(DhtKernels, PrintsAtMostSixteenValues) {
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.i32.2 [4 : i64, 5 : i64]
  %c1 = tfrt_dht.fill_tensor_with_constant.i32 %a, %c0 9 : i32
  %c2 = tfrt_dht.print_tensor %a, %c1
  tfrt.return
}
)");
  EXPECT_EQ(out,
            "--- Running 'f':\n"
            "DenseHostTensor dtype = i32, shape = [4, 5], values = [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, "
            "9, 9, 9, 9, 9, 9, ... ]\n");
}

TEST(DhtKernels, FloatsPrintLikeLlvmRawOstream) {
  // Bit patterns of inf, -inf, a quiet NaN and -0.0, written as i32 and
  // read back as f32 through the shared buffer.
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %bits = tfrt_dht.create_uninitialized_tensor.i32.1 [5 : i64]
  %c1 = tfrt_dht.set_tensor_with_constant_values.i32 %bits, %c0
    [2139095040 : i32, -8388608 : i32, 2143289344 : i32, -2147483648 : i32, 1065353216 : i32]
  %buf, %c2 = tfrt_dht.get_buffer %bits, %c1
  %shape = ts.build_shape [5 : i64]
  %f, %c3 = tfrt_dht.make_tensor.f32 %buf, %shape, %c2
  %c4 = tfrt_dht.print_tensor %f, %c3
  tfrt.return
}
)");
  EXPECT_EQ(out,
            "--- Running 'f':\n"
            "DenseHostTensor dtype = f32, shape = [5], values = [INF, -INF, nan, -0.000000e+00, "
            "1.000000e+00]\n");
}

TEST(DhtKernels, BoolTensorsAndSetWithValues) {
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %b = tfrt_dht.create_uninitialized_tensor.bool.1 [3 : i64]
  %c1 = tfrt_dht.set_tensor_with_constant_values.bool %b, %c0 [true, false, true]
  %c2 = tfrt_dht.print_tensor %b, %c1
  %x = tfrt.constant.f32 1.5
  %y = tfrt.constant.f32 -0.25
  %t = tfrt_dht.create_uninitialized_tensor.f32.1 [2 : i64]
  %c3 = "tfrt_dht.set_tensor_with_values.f32"(%t, %c2, %x, %y)
    : (!t.tensor, !tfrt.chain, f32, f32) -> !tfrt.chain
  %c4 = tfrt_dht.print_tensor %t, %c3
  tfrt.return
}
)");
  EXPECT_EQ(out,
            "--- Running 'f':\n"
            "DenseHostTensor dtype = i1, shape = [3], values = [1, 0, 1]\n"
            "DenseHostTensor dtype = f32, shape = [2], values = [1.500000e+00, -2.500000e-01]\n");
}

TEST(DhtKernels, TensorEqualAndAllclose) {
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.f32.1 [2 : i64]
  %c1 = tfrt_dht.set_tensor_with_constant_values.f32 %a, %c0 [1.0 : f32, 2.0 : f32]
  %b = tfrt_dht.create_uninitialized_tensor.f32.1 [2 : i64]
  %c2 = tfrt_dht.set_tensor_with_constant_values.f32 %b, %c1 [1.0 : f32, 2.0000002 : f32]
  %c = tfrt_dht.create_uninitialized_tensor.f32.2 [1 : i64, 2 : i64]
  %c3 = tfrt_dht.set_tensor_with_constant_values.f32 %c, %c2 [1.0 : f32, 2.0 : f32]
  %eq, %c4 = tfrt_dht.tensor_equal.f32 %a, %b, %c3
  %c5 = tfrt.print.i1 %eq, %c4
  %close, %c6 = "tfrt_dht.tensor_allclose.f32"(%a, %b, %c5)
    : (!t.tensor, !t.tensor, !tfrt.chain) -> (i1, !tfrt.chain)
  %c7 = tfrt.print.i1 %close, %c6
  %shape_differs, %c8 = tfrt_dht.tensor_equal.f32 %a, %c, %c7
  %c9 = tfrt.print.i1 %shape_differs, %c8
  %self, %c10 = tfrt_dht.tensor_equal.f32 %a, %a, %c9
  %c11 = tfrt.print.i1 %self, %c10
  tfrt.return
}
)");
  EXPECT_EQ(out, "--- Running 'f':\nint1 = 0\nint1 = 1\nint1 = 0\nint1 = 1\n");
}

TEST(DhtKernels, BuffersSlicesAndTensorsShareBytes) {
  BefRunReport report;
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %size = tfrt.constant.i64 12
  %align = tfrt.constant.i64 64
  %buf = tfrt_dht.allocate_buffer %size, %align
  %c1 = tfrt_dht.print_buffer %buf, %c0
  %offset = tfrt.constant.i64 4
  %eight = tfrt.constant.i64 8
  %slice = tfrt_dht.get_buffer_slice %buf, %offset, %eight
  %shape = ts.build_shape [2 : i64]
  %t, %c2 = tfrt_dht.make_tensor.i32 %slice, %shape, %c1
  %c3 = tfrt_dht.fill_tensor_with_constant.i32 %t, %c2 6 : i32
  %all_shape = ts.build_shape [3 : i64]
  %all, %c4 = tfrt_dht.make_tensor.i32 %buf, %all_shape, %c3
  %c5 = tfrt_dht.print_tensor %all, %c4
  %got, %c6 = tfrt_dht.get_buffer %t, %c5
  %c7 = tfrt_dht.print_buffer %got, %c6
  %s = tfrt_dht.get_tensor_shape %all
  %c8 = ts.print_shape %s, %c7
  %c9 = "tfrt_dht.print_tensor_shape"(%t, %c8) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
  tfrt.return
}
)",
                                   &report);
  EXPECT_EQ(report.exit_code, 0) << report.err;
  const std::regex expected(
      "--- Running 'f':\n"
      "HostBuffer<pointer=0x([0-9a-f]+), size=12>\n"
      "DenseHostTensor dtype = i32, shape = \\[3\\], values = \\[0, 6, 6\\]\n"
      "HostBuffer<pointer=0x[0-9a-f]*, size=8>\n"
      "shape = \\[3\\]\n"
      "\\[2\\]\n");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(out, m, expected)) << out;
  EXPECT_EQ(std::stoull(m[1].str(), nullptr, 16) % 64, 0u) << "the buffer asked for 64-byte alignment";
}

TEST(DhtKernels, RefusesWrongOperands) {
  EXPECT_EQ(error_of(R"(  %c0 = tfrt.new.chain
  %x = tfrt.constant.i32 1
  %c1 = "tfrt_dht.print_tensor"(%x, %c0) : (i32, !tfrt.chain) -> !tfrt.chain)"),
            "test.mlir:4: error: runtime error: argument 0 is i32, expected !t.tensor\n");
  EXPECT_EQ(error_of(R"(  %c0 = tfrt.new.chain
  %s = ts.build_shape [1 : i64]
  %c1 = "tfrt_dht.print_tensor"(%s, %c0) : (!ts.shape, !tfrt.chain) -> !tfrt.chain)"),
            "test.mlir:4: error: runtime error: argument 0 is !ts.shape, expected !t.tensor\n");
  EXPECT_EQ(error_of(R"(  %c0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.i32.1 [2 : i64]
  %c1 = tfrt_dht.fill_tensor_with_constant.f32 %a, %c0 1.0 : f32)"),
            "test.mlir:4: error: runtime error: argument 0 is a tensor of i32, expected f32\n");
  EXPECT_EQ(error_of(R"(  %c0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.i32.1 [2 : i64]
  %c1 = "tfrt_dht.print_tensor"(%a, %a) : (!t.tensor, !t.tensor) -> !tfrt.chain)"),
            "test.mlir:4: error: runtime error: argument 1 is object, expected !tfrt.chain\n");
  EXPECT_EQ(error_of(R"(  %a = tfrt_dht.create_uninitialized_tensor.i32.1 [2 : i64]
  %c1 = "tfrt_dht.print_tensor"(%a) : (!t.tensor) -> !tfrt.chain)"),
            "test.mlir:3: error: runtime error: kernel expects 2 arguments, 1 results, 0 "
            "attributes and 0 functions, but the file gives 1, 1, 0 and 0\n");
  EXPECT_EQ(error_of(R"(  %c0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.i32.2 [3 : i64, 2 : i64]
  %c1 = tfrt_dht.set_tensor_with_constant_values.i32 %a, %c0 [1 : i32, 2 : i32])"),
            "test.mlir:4: error: runtime error: Incorrect number of values for the tensor: 2, "
            "but expected 6\n");
  EXPECT_EQ(error_of(R"(  %c0 = tfrt.new.chain
  %x = tfrt.constant.i64 1
  %a = tfrt_dht.create_uninitialized_tensor.i32.1 [1 : i64]
  %c1 = "tfrt_dht.set_tensor_with_values.i32"(%a, %c0, %x)
    : (!t.tensor, !tfrt.chain, i64) -> !tfrt.chain)"),
            "test.mlir:5: error: runtime error: argument 2 is i64, expected i32\n");
}

TEST(DhtKernels, RefusesBadShapesAndSizes) {
  EXPECT_EQ(error_of("  %a = tfrt_dht.create_uninitialized_tensor.f32.3 "
                     "[100000 : i64, 100000 : i64, 100000 : i64]"),
            "test.mlir:2: error: runtime error: Cannot allocate tensor: shape [100000, "
            "100000, 100000] of f32 needs more than 1073741824 bytes\n");
  EXPECT_EQ(error_of("  %a = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, -1 : i64]"),
            "test.mlir:2: error: runtime error: Cannot allocate tensor: invalid shape [2, -1]\n");
  EXPECT_EQ(error_of("  %a = tfrt_dht.create_uninitialized_tensor.i32.1 [4294967296 : i64]"),
            "test.mlir:2: error: runtime error: Cannot allocate tensor: invalid shape "
            "[4294967296]\n");
  std::string rank17 = "  %a = tfrt_dht.create_uninitialized_tensor.i32.4 [";
  for (int i = 0; i < 17; ++i) rank17 += i == 0 ? "1 : i64" : ", 1 : i64";
  EXPECT_EQ(error_of(rank17 + "]"),
            "test.mlir:2: error: runtime error: Cannot allocate tensor: rank 17 exceeds the "
            "limit of 16\n");
  EXPECT_EQ(error_of(R"(  %c0 = tfrt.new.chain
  %size = tfrt.constant.i64 8
  %align = tfrt.constant.i64 4
  %buf = tfrt_dht.allocate_buffer %size, %align
  %shape = ts.build_shape [3 : i64]
  %t, %c1 = tfrt_dht.make_tensor.f32 %buf, %shape, %c0)"),
            "test.mlir:7: error: runtime error: dht.make_tensor failed: buffer_size (8) is not "
            "equal to the number of elements in shape ([3]) times element size (4)\n");
  EXPECT_EQ(error_of(R"(  %c0 = tfrt.new.chain
  %size = tfrt.constant.i64 8
  %align = tfrt.constant.i64 4
  %buf = tfrt_dht.allocate_buffer %size, %align
  %one = tfrt.constant.i64 1
  %four = tfrt.constant.i64 4
  %slice = tfrt_dht.get_buffer_slice %buf, %one, %four
  %shape = ts.build_shape [1 : i64]
  %t, %c1 = tfrt_dht.make_tensor.i32 %slice, %shape, %c0)"),
            "test.mlir:10: error: runtime error: dht.make_tensor failed: the buffer is not "
            "aligned for i32 elements\n");
  EXPECT_EQ(error_of(R"(  %size = tfrt.constant.i64 8
  %align = tfrt.constant.i64 4
  %buf = tfrt_dht.allocate_buffer %size, %align
  %offset = tfrt.constant.i64 6
  %four = tfrt.constant.i64 4
  %slice = tfrt_dht.get_buffer_slice %buf, %offset, %four)"),
            "test.mlir:7: error: runtime error: Invalid offset (6) and size (4) for a host "
            "buffer of 8 bytes\n");
  EXPECT_EQ(error_of(R"(  %size = tfrt.constant.i64 8
  %minus = tfrt.constant.i64 -1
  %slice_of = tfrt_dht.allocate_buffer %size, %size
  %slice = tfrt_dht.get_buffer_slice %slice_of, %minus, %size)"),
            "test.mlir:5: error: runtime error: Invalid offset (-1) and size (8) for a host "
            "buffer of 8 bytes\n");
  EXPECT_EQ(error_of(R"(  %size = tfrt.constant.i64 8
  %three = tfrt.constant.i64 3
  %buf = tfrt_dht.allocate_buffer %size, %three)"),
            "test.mlir:4: error: runtime error: Cannot allocate host buffer: alignment 3 is not "
            "a power of two up to 4096\n");
  EXPECT_EQ(error_of(R"(  %size = tfrt.constant.i64 -8
  %four = tfrt.constant.i64 4
  %buf = tfrt_dht.allocate_buffer %size, %four)"),
            "test.mlir:4: error: runtime error: Cannot allocate host buffer: size -8 and "
            "alignment 4 must be positive\n");
}

TEST(DhtKernels, HeapExhaustionIsAKernelError) {
  // The driver also reports that the function hit the end of its heap.
  BefRunOptions small;
  small.heap_bytes = size_t{1} << 20;
  EXPECT_THAT(error_of("  %a = tfrt_dht.create_uninitialized_tensor.f32.2 [1024 : i64, 1024 : i64]",
                       small),
              ::testing::HasSubstr("test.mlir:2: error: runtime error: Cannot allocate tensor: "
                                   "out of memory (4194304 bytes)\n"));
  EXPECT_THAT(error_of(R"(  %size = tfrt.constant.i64 100000000
  %four = tfrt.constant.i64 4
  %buf = tfrt_dht.allocate_buffer %size, %four)",
                       small),
              ::testing::HasSubstr("test.mlir:4: error: runtime error: Cannot allocate host "
                                   "buffer: out of memory (100000000 bytes)\n"));
}

TEST(DhtKernels, ErrorsPropagateWithoutRunningDependents) {
  BefRunReport report;
  const std::string out = run_body(R"(func.func @f() -> !tfrt.chain {
  %c0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.i32.1 [2 : i64]
  %c1 = tfrt_dht.set_tensor_with_constant_values.i32 %a, %c0 [1 : i32]
  %c2 = tfrt_dht.print_tensor %a, %c1
  tfrt.return %c2 : !tfrt.chain
}
)",
                                   &report);
  EXPECT_EQ(out,
            "--- Running 'f':\n'f' returned <<error: Incorrect number of values for the tensor: 1, "
            "but expected 2>>\n");
  // One diagnostic, at the failing kernel (line 4), none for the print.
  EXPECT_EQ(report.err,
            "test.mlir:4:9: error: runtime error: Incorrect number of values for the tensor: 1, "
            "but expected 2\n");
}

}  // namespace
}  // namespace tri::bef
