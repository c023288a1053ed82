// The tfrt_test tensor kernels (MNIST and ResNet test kernels,
// const_dense_attr) end to end, and what they refuse.
#include "tests/cpp/bef_tensor/tensor_test_util.h"

namespace tri::bef {
namespace {

// The kernels under test all take a chain: %c0 is in scope.
std::string error_of_chained(const std::string& body) {
  return testing::error_of(body, {}, "  %c0 = tfrt.new.chain\n");
}

using testing::run_body;

TEST(TestTensorKernels, MatmulScalesAndAccumulates) {
  // c = 2 * a @ b + 1 * c in f32; c aliases nothing, then a @ a into a.
  BefRunReport report;
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %two = tfrt.constant.f32 2.0
  %one = tfrt.constant.f32 1.0
  %zero = tfrt.constant.f32 0.0
  %a = "tfrt_test.const_dense_attr"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> !t.tensor
  %b = "tfrt_test.const_dense_attr"() {value = dense<[[1.0], [-1.0]]> : tensor<2x1xf32>} : () -> !t.tensor
  %c = "tfrt_test.const_dense_attr"() {value = dense<[[10.0], [20.0]]> : tensor<2x1xf32>} : () -> !t.tensor
  %c1 = "tfrt_test.matmul.f32.2"(%two, %a, %b, %one, %c, %c0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %c2 = tfrt_dht.print_tensor %c, %c1
  %c3 = "tfrt_test.matmul.f32.2"(%one, %a, %a, %zero, %a, %c2)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %c4 = tfrt_dht.print_tensor %a, %c3
  tfrt.return
}
)",
                                   &report);
  EXPECT_EQ(out,
            "--- Running 'f':\n"
            "DenseHostTensor dtype = f32, shape = [2, 1], values = [8.000000e+00, 1.800000e+01]\n"
            "DenseHostTensor dtype = f32, shape = [2, 2], values = [7.000000e+00, 1.000000e+01, "
            "1.500000e+01, 2.200000e+01]\n")
      << report.err;
}

TEST(TestTensorKernels, ArgmaxReduceMeanAndElementwiseOps) {
  BefRunReport report;
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %a = "tfrt_test.const_dense_attr"() {value = dense<[[1.0, 5.0, 5.0], [-1.0, -2.0, -3.0]]> : tensor<2x3xf32>} : () -> !t.tensor
  %am = "tfrt_test.argmax.f32.2"(%a, %c0) : (!t.tensor, !tfrt.chain) -> !t.tensor
  %c1 = tfrt_dht.print_tensor %am, %c0
  %i = "tfrt_test.const_dense_attr"() {value = dense<[1, 2, 4]> : tensor<3xi64>} : () -> !t.tensor
  %mean = "tfrt_test.reduce_mean.i64.1"(%i, %c1) : (!t.tensor, !tfrt.chain) -> !t.tensor
  %c2 = tfrt_dht.print_tensor %mean, %c1
  %r = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 3 : i64]
  %c3 = "tfrt_test.relu.f32"(%a, %r, %c2) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %c4 = tfrt_dht.print_tensor %r, %c3
  %s = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 3 : i64]
  %c5 = "tfrt_test.add.f32"(%a, %r, %s, %c4) : (!t.tensor, !t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %c6 = tfrt_dht.print_tensor %s, %c5
  %c7 = "tfrt_test.equal.f32"(%a, %r, %s, %c6) : (!t.tensor, !t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %c8 = tfrt_dht.print_tensor %s, %c7
  tfrt.return
}
)",
                                   &report);
  EXPECT_EQ(out,
            "--- Running 'f':\n"
            "DenseHostTensor dtype = i32, shape = [2], values = [1, 0]\n"
            "DenseHostTensor dtype = i64, shape = [], values = [2]\n"
            "DenseHostTensor dtype = f32, shape = [2, 3], values = [1.000000e+00, 5.000000e+00, "
            "5.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]\n"
            "DenseHostTensor dtype = f32, shape = [2, 3], values = [2.000000e+00, 1.000000e+01, "
            "1.000000e+01, -1.000000e+00, -2.000000e+00, -3.000000e+00]\n"
            "DenseHostTensor dtype = f32, shape = [2, 3], values = [1.000000e+00, 1.000000e+00, "
            "1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]\n")
      << report.err;
}

TEST(TestTensorKernels, MaxPoolingValidAndSame) {
  BefRunReport report;
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %in = "tfrt_test.const_dense_attr"() {value = dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>} : () -> !t.tensor
  %valid = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 1 : i64, 1 : i64, 1 : i64]
  %c1 = "tfrt_test.max_pooling_2d.f32"(%in, %valid, %c0)
    { padding = "valid", pool_size = [2 : i32, 2 : i32], strides = [1 : i32, 1 : i32] }
    : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %c2 = tfrt_dht.print_tensor %valid, %c1
  %same = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 2 : i64, 2 : i64, 1 : i64]
  %c3 = "tfrt_test.max_pooling_2d.f32"(%in, %same, %c2)
    { padding = "same", pool_size = [2 : i32, 2 : i32], strides = [1 : i32, 1 : i32] }
    : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %c4 = tfrt_dht.print_tensor %same, %c3
  tfrt.return
}
)",
                                   &report);
  EXPECT_EQ(out,
            "--- Running 'f':\n"
            "DenseHostTensor dtype = f32, shape = [1, 1, 1, 1], values = [4.000000e+00]\n"
            "DenseHostTensor dtype = f32, shape = [1, 2, 2, 1], values = [4.000000e+00, "
            "4.000000e+00, 4.000000e+00, 4.000000e+00]\n")
      << report.err;
}

TEST(TestTensorKernels, ConstDenseAttrDtypes) {
  BefRunReport report;
  const std::string out = run_body(R"(
func.func @f() {
  %c0 = tfrt.new.chain
  %b = "tfrt_test.const_dense_attr"() {value = dense<[true, false]> : tensor<2xi1>} : () -> !t.tensor
  %c1 = tfrt_dht.print_tensor %b, %c0
  %s = "tfrt_test.const_dense_attr"() {value = dense<7> : tensor<i64>} : () -> !t.tensor
  %c2 = tfrt_dht.print_tensor %s, %c1
  %d = "tfrt_test.const_dense_attr"() {value = dense<[0.25, 1.5]> : tensor<2xf64>} : () -> !t.tensor
  %c3 = tfrt_dht.print_tensor %d, %c2
  %z = "tfrt_test.const_dense_attr"() {value = dense<(1.0, -2.0)> : tensor<1xcomplex<f32>>} : () -> !t.tensor
  %c4 = tfrt_dht.print_tensor %z, %c3
  tfrt.return
}
)",
                                   &report);
  EXPECT_EQ(out,
            "--- Running 'f':\n"
            "DenseHostTensor dtype = i1, shape = [2], values = [1, 0]\n"
            "DenseHostTensor dtype = i64, shape = [], values = [7]\n"
            "DenseHostTensor dtype = f64, shape = [2], values = [2.500000e-01, 1.500000e+00]\n"
            "DenseHostTensor dtype = complex64, shape = [1], values = [(1.000000e+00,-2.000000e+00)]\n")
      << report.err;
}

TEST(TestTensorKernels, RefusesMismatchedShapesAndBadArguments) {
  EXPECT_EQ(error_of_chained(R"(  %a = tfrt_dht.create_uninitialized_tensor.i32.2 [2 : i64, 2 : i64]
  %b = tfrt_dht.create_uninitialized_tensor.i32.2 [2 : i64, 3 : i64]
  %c1 = "tfrt_test.add.i32"(%a, %b, %a, %c0) : (!t.tensor, !t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain)"),
            "test.mlir:5: error: runtime error: tensor shape mismatch: [2, 2] vs. [2, 3] vs. "
            "[2, 2]\n");
  EXPECT_EQ(error_of_chained(R"(  %a = tfrt_dht.create_uninitialized_tensor.f32.1 [2 : i64]
  %b = tfrt_dht.create_uninitialized_tensor.i32.1 [2 : i64]
  %c1 = "tfrt_test.relu.i32"(%a, %b, %c0) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain)"),
            "test.mlir:5: error: runtime error: argument 0 is a tensor of f32, expected i32\n");
  EXPECT_EQ(error_of_chained(R"(  %one = tfrt.constant.i32 1
  %a = tfrt_dht.create_uninitialized_tensor.i32.2 [2 : i64, 3 : i64]
  %c1 = "tfrt_test.matmul.i32.2"(%one, %a, %a, %one, %a, %c0)
    : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !tfrt.chain) -> !tfrt.chain)"),
            "test.mlir:5: error: runtime error: matmul arguments have incompatible shapes: "
            "[2, 3] x [2, 3] -> [2, 3]\n");
  EXPECT_EQ(error_of_chained(R"(  %in = tfrt_dht.create_uninitialized_tensor.i32.3 [2 : i64, 2 : i64, 2 : i64]
  %begin = tfrt_dht.create_uninitialized_tensor.i64.1 [2 : i64]
  %out = tfrt_dht.create_uninitialized_tensor.i32.3 [1 : i64, 1 : i64, 1 : i64]
  %c1 = "tfrt_test.slice_inplace.i32.3"(%in, %begin, %c0, %out)
    : (!t.tensor, !t.tensor, !tfrt.chain, !t.tensor) -> !tfrt.chain)"),
            "test.mlir:6: error: runtime error: the size of 'begin_index' should match the "
            "input tensor rank\n");
  EXPECT_EQ(error_of_chained(R"(  %in = tfrt_dht.create_uninitialized_tensor.i32.3 [2 : i64, 2 : i64, 2 : i64]
  %begin = "tfrt_test.const_dense_attr"() {value = dense<[1, 0, 1]> : tensor<3xi64>} : () -> !t.tensor
  %out = tfrt_dht.create_uninitialized_tensor.i32.3 [1 : i64, 1 : i64, 2 : i64]
  %c1 = "tfrt_test.slice_inplace.i32.3"(%in, %begin, %c0, %out)
    : (!t.tensor, !t.tensor, !tfrt.chain, !t.tensor) -> !tfrt.chain)"),
            "test.mlir:6: error: runtime error: slice at [1, 0, 1] of shape [1, 1, 2] is out "
            "of bounds of the input shape [2, 2, 2]\n");
  EXPECT_EQ(error_of_chained(R"(  %in = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 3 : i64]
  %out = tfrt_dht.create_uninitialized_tensor.f32.2 [3 : i64, 2 : i64]
  %c1 = "tfrt_test.flatten.f32"(%in, %out, %c0) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain)"),
            "test.mlir:5: error: runtime error: Flatten output shape [3, 2] does not match the "
            "input shape [2, 3]\n");
  EXPECT_EQ(error_of_chained(R"(  %in = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 2 : i64, 2 : i64, 1 : i64]
  %out = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 1 : i64, 1 : i64, 1 : i64]
  %c1 = "tfrt_test.max_pooling_2d.f32"(%in, %out, %c0)
    { padding = "valid", pool_size = [2 : i32, 2 : i32], strides = [0 : i32, 1 : i32] }
    : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain)"),
            "test.mlir:5: error: runtime error: MaxPool2D expects strides to be positive, got "
            "[0, 1]\n");
  EXPECT_EQ(error_of_chained(R"(  %in = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 2 : i64, 2 : i64, 1 : i64]
  %out = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 1 : i64, 1 : i64, 1 : i64]
  %c1 = "tfrt_test.max_pooling_2d.f32"(%in, %out, %c0)
    { padding = "valid", pool_size = [2 : i32], strides = [1 : i32, 1 : i32] }
    : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain)"),
            "test.mlir:5: error: runtime error: MaxPool2D expects pool_size to have 2 "
            "elements\n");
  EXPECT_EQ(error_of_chained(R"(  %a = tfrt_dht.create_uninitialized_tensor.i32.1 [0 : i64]
  %m = "tfrt_test.reduce_mean.i32.1"(%a, %c0) : (!t.tensor, !tfrt.chain) -> !t.tensor)"),
            "test.mlir:4: error: runtime error: reduce_mean of an empty integer tensor\n");
  EXPECT_EQ(error_of_chained(R"(  %a = tfrt_dht.create_uninitialized_tensor.i32.1 [3 : i64]
  %m = "tfrt_test.argmax.i32.2"(%a, %c0) : (!t.tensor, !tfrt.chain) -> !t.tensor)"),
            "test.mlir:4: error: runtime error: argument 0 has shape [3], expected a tensor of "
            "rank 2\n");
  EXPECT_EQ(error_of_chained(R"(  %t = "tfrt_test.const_dense_attr"() {value = dense<1.0> : tensor<2xf16>} : () -> !t.tensor)"),
            "test.mlir:3: error: runtime error: a dense host tensor cannot hold f16 elements\n");
}

}  // namespace
}  // namespace tri::bef
