// full_like, scalar_tensor, arange, max_pool2d_with_indices.
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class Factory : public KernelTest {};

TEST_F(Factory, FullLikeAndScalarTensor) {
  Tensor* out = tf.zeros(ST::Float, {1, 1});
  ASSERT_EQ(call_out("aten::full_like.out", {t(f32({1, 1}, {5})), i(1), i(1)}, out), Error::Ok);
  EXPECT_VALUES(out, {1});
  Tensor* cl = tf.zeros(ST::Int, {1, 2, 1, 2}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("aten::full_like.out", {t(tf.zeros(ST::Int, {1, 2, 1, 2})), d(2.7), none()}, cl), Error::Ok);
  EXPECT_VALUES(cl, {2, 2, 2, 2});
  EXPECT_KERNEL_ERROR(call_out("aten::full_like.out", {t(tf.zeros(ST::Byte, {2})), i(300), none()}, tf.zeros(ST::Byte, {2})),
                      Error::InvalidArgument, "value 300 cannot be converted to type Byte without overflow");
  Tensor* s = tf.zeros(ST::Long, {});
  ASSERT_EQ(call(("aten::scalar_tensor.out"), {i(-3), t(s), t(s)}), Error::Ok);
  EXPECT_VALUES(s, {-3});
  Tensor* sf = tf.zeros(ST::Float, {});
  ASSERT_EQ(call("aten::scalar_tensor.out", {b(true), t(sf), t(sf)}), Error::Ok);
  EXPECT_VALUES(sf, {1});
  Tensor* wrong = tf.zeros(ST::Float, {1});
  EXPECT_KERNEL_ERROR(call("aten::scalar_tensor.out", {i(1), t(wrong), t(wrong)}), Error::InvalidArgument,
                      "cannot resize a rank-1 tensor");
}

TEST_F(Factory, Arange) {
  Tensor* out = dyn(ST::Long, {10});
  ASSERT_EQ(call("aten::arange.out", {i(4), t(out), t(out)}), Error::Ok);
  EXPECT_VALUES(out, {0, 1, 2, 3});
  ASSERT_EQ(call("aten::arange.start_out", {i(10), i(1), i(-3), t(out), t(out)}), Error::Ok);
  EXPECT_VALUES(out, {10, 7, 4});
  Tensor* fout = dyn(ST::Float, {10});
  ASSERT_EQ(call("aten::arange.start_out", {d(0), d(1), d(0.25), t(fout), t(fout)}), Error::Ok);
  EXPECT_VALUES(fout, {0, 0.25, 0.5, 0.75});
  ASSERT_EQ(call("aten::arange.start_out", {i(3), i(3), i(1), t(fout), t(fout)}), Error::Ok);
  EXPECT_EQ(fout->numel(), 0u);
  EXPECT_KERNEL_ERROR(call("aten::arange.start_out", {i(0), i(5), i(0), t(out), t(out)}), Error::InvalidArgument,
                      "step must be nonzero");
  EXPECT_KERNEL_ERROR(call("aten::arange.start_out", {i(0), i(5), i(-1), t(out), t(out)}), Error::InvalidArgument,
                      "inconsistent with step sign");
  Tensor* small = tf.zeros(ST::Long, {3});
  EXPECT_KERNEL_ERROR(call("aten::arange.out", {i(5), t(small), t(small)}), Error::InvalidArgument,
                      "static tensor of shape [3] cannot take shape [5]");
}

TEST_F(Factory, MaxPool2dWithIndices) {
  // Values and indices from PyTorch.
  const std::vector<double> x = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4};
  struct Case {
    std::vector<int64_t> kernel, stride, padding, dilation;
    bool ceil;
    std::vector<double> values, indices;
  };
  const Case cases[] = {
      {{3}, {2}, {1}, {1}, false, {9, 6, 5, 9, 9, 9}, {5, 7, 4, 5, 12, 14}},
      {{2, 2}, {2, 2}, {0}, {1}, true, {9, 6, 5, 8, 9, 9}, {5, 7, 4, 11, 12, 14}},
      {{2}, {1}, {0, 0}, {2}, false, {9, 8, 9, 9, 8, 6}, {12, 11, 12, 5, 18, 7}},
  };
  for (const Case& c : cases) {
    Tensor* out = dyn(ST::Float, {1, 4, 5});
    Tensor* idx = dyn(ST::Long, {1, 4, 5});
    std::vector<EValue*> args = {t(f32({1, 4, 5}, x)), il(c.kernel), il(c.stride), il(c.padding),
                                 il(c.dilation), b(c.ceil), t(out), t(idx), tf.tensor_list({out, idx})};
    ASSERT_EQ(call("aten::max_pool2d_with_indices.out", args), Error::Ok) << last_error_message();
    EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{1, 2, 3}));
    EXPECT_VALUES(out, c.values);
    EXPECT_VALUES(idx, c.indices);
  }
  // stride [] means stride = kernel; a channels-last 4-D input.
  std::vector<double> v(16);
  for (int k = 0; k < 16; ++k) v[k] = (k % 2) ? -k : k;
  Tensor* cl = tf.make(ST::Float, {1, 1, 4, 4}, v, {0, 2, 3, 1});
  Tensor* out = tf.zeros(ST::Float, {1, 1, 2, 2});
  Tensor* idx = tf.zeros(ST::Long, {1, 1, 2, 2});
  ASSERT_EQ(call("aten::max_pool2d_with_indices.out",
                 {t(cl), il({2, 2}), il({}), il({0}), il({1}), b(false), t(out), t(idx), tf.tensor_list({out, idx})}),
            Error::Ok);
  EXPECT_VALUES(out, {4, 6, 12, 14});
  EXPECT_VALUES(idx, {4, 6, 12, 14});
  EXPECT_KERNEL_ERROR(call("aten::max_pool2d_with_indices.out",
                           {t(cl), il({2}), il({}), il({2}), il({1}), b(false), t(out), t(idx), tf.tensor_list({out, idx})}),
                      Error::InvalidArgument, "pad should be at most half of kernel size");
  EXPECT_KERNEL_ERROR(call("aten::max_pool2d_with_indices.out",
                           {t(f32({4}, {1, 2, 3, 4})), il({2}), il({}), il({0}), il({1}), b(false), t(out), t(idx),
                            tf.tensor_list({out, idx})}),
                      Error::InvalidArgument, "expected a 3D or 4D input, got rank 1");
}

}  // namespace
}  // namespace tri::testing

namespace tri::testing {
namespace {

class EmptyStrided : public KernelTest {};

TEST_F(EmptyStrided, ResizesOutLikeATenOutVariant) {
  Tensor* out = tf.zeros(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_out("aten::empty_strided.out", {il({2, 3}), il({3, 1})}, out), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3}));
  // ATen's out variant keeps out's layout whatever `stride` says.
  ASSERT_EQ(call_out("aten::empty_strided.out", {il({3, 2}), il({1, 3})}, tf.zeros(ScalarType::Float, {3, 2})), Error::Ok);
  EXPECT_KERNEL_ERROR(call_out("aten::empty_strided.out", {il({2, 3}), il({-1, 1})}, out),
                      Error::InvalidArgument, "stride[0] = -1 is negative");
  EXPECT_KERNEL_ERROR(call_out("aten::empty_strided.out", {il({2, 3}), il({3})}, out),
                      Error::InvalidArgument, "stride has 1 entries for 2 sizes");
}

}  // namespace
}  // namespace tri::testing
