// index.Tensor, index_select, gather, scatter. Expected values from PyTorch.
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class Index : public KernelTest {
 protected:
  Tensor* arange24() {
    std::vector<double> v(24);
    for (int k = 0; k < 24; ++k) v[k] = k;
    return f32({2, 3, 4}, v);
  }
  Tensor* longs(std::vector<SizesType> sizes, std::vector<int64_t> v) { return tf.make_long(sizes, v); }
};

TEST_F(Index, IndexTensorAdjacentAndSplit) {
  // x[:, [0, 2]]
  Tensor* out = dyn(ST::Float, {4, 4, 4});
  ASSERT_EQ(call_out("aten::index.Tensor_out", {t(arange24()), tf.tensor_list({nullptr, longs({2}, {0, 2})}, true)}, out),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 2, 4}));
  EXPECT_VALUES(out, {0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23});
  // x[[0, 1], :, [1, 3]]: indexed dims are not adjacent, so B comes first.
  Tensor* out2 = dyn(ST::Float, {4, 4});
  ASSERT_EQ(call_out("aten::index.Tensor_out",
                     {t(arange24()), tf.tensor_list({longs({2}, {0, 1}), nullptr, longs({2}, {1, 3})}, true)}, out2),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out2), (std::vector<SizesType>{2, 3}));
  EXPECT_VALUES(out2, {1, 5, 9, 15, 19, 23});
  // x[:, [[0], [2]], [1, 3]]: index tensors broadcast to [2, 2].
  Tensor* out3 = dyn(ST::Float, {4, 4, 4});
  ASSERT_EQ(call_out("aten::index.Tensor_out",
                     {t(arange24()), tf.tensor_list({nullptr, longs({2, 1}, {0, 2}), longs({2}, {1, 3})}, true)}, out3),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out3), (std::vector<SizesType>{2, 2, 2}));
  EXPECT_VALUES(out3, {1, 3, 9, 11, 13, 15, 21, 23});
  // A negative index wraps: x[[-1]].
  Tensor* out4 = dyn(ST::Float, {4, 4, 4});
  ASSERT_EQ(call_out("aten::index.Tensor_out", {t(arange24()), tf.tensor_list({longs({1}, {-1})}, true)}, out4), Error::Ok);
  EXPECT_EQ(sizes_of(*out4), (std::vector<SizesType>{1, 3, 4}));
  EXPECT_EQ(TensorFactory::values(*out4)[0], 12);
}

TEST_F(Index, IndexTensorBoolMasks) {
  Tensor* mask = tf.make(ST::Bool, {2, 3}, {1, 0, 1, 0, 0, 1});
  Tensor* out = dyn(ST::Float, {6, 4});
  ASSERT_EQ(call_out("aten::index.Tensor_out", {t(arange24()), tf.tensor_list({mask}, true)}, out), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{3, 4}));
  EXPECT_VALUES(out, {0, 1, 2, 3, 8, 9, 10, 11, 20, 21, 22, 23});
  Tensor* out2 = dyn(ST::Float, {2, 3, 4});
  ASSERT_EQ(call_out("aten::index.Tensor_out",
                     {t(arange24()), tf.tensor_list({nullptr, tf.make(ST::Bool, {3}, {1, 0, 1})}, true)}, out2),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out2), (std::vector<SizesType>{2, 2, 4}));
  EXPECT_VALUES(out2, {0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23});
}

TEST_F(Index, IndexTensorErrors) {
  Tensor* out = dyn(ST::Float, {4, 4, 4});
  EXPECT_KERNEL_ERROR(call_out("aten::index.Tensor_out", {t(arange24()), tf.tensor_list({longs({1}, {2})}, true)}, out),
                      Error::InvalidArgument, "index 2 is out of bounds for dimension 0 with size 2");
  EXPECT_KERNEL_ERROR(call_out("aten::index.Tensor_out",
                               {t(arange24()), tf.tensor_list({nullptr, nullptr, nullptr, longs({1}, {0})}, true)}, out),
                      Error::InvalidArgument, "too many indices for tensor of dimension 3");
  EXPECT_KERNEL_ERROR(call_out("aten::index.Tensor_out", {t(arange24()), tf.tensor_list({f32({1}, {0})}, true)}, out),
                      Error::InvalidType, "must be long, int, byte or bool");
  EXPECT_KERNEL_ERROR(call_out("aten::index.Tensor_out",
                               {t(arange24()), tf.tensor_list({longs({2}, {0, 1}), longs({3}, {0, 1, 2})}, true)}, out),
                      Error::InvalidArgument, "could not be broadcast");
  EXPECT_KERNEL_ERROR(call_out("aten::index.Tensor_out", {t(arange24()), i(0)}, out), Error::InvalidType,
                      "argument 1");
}

TEST_F(Index, IndexSelect) {
  Tensor* out = tf.zeros(ST::Float, {2, 3, 2});
  ASSERT_EQ(call_out("aten::index_select.out", {t(arange24()), i(-1), tf.tensor_value(longs({2}, {3, 0}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {3, 0, 7, 4, 11, 8, 15, 12, 19, 16, 23, 20});
  Tensor* iout = tf.zeros(ST::Float, {1, 3, 4});
  ASSERT_EQ(call_out("aten::index_select.out", {t(arange24()), i(0), t(tf.make(ST::Int, {1}, {1}))}, iout), Error::Ok);
  EXPECT_EQ(TensorFactory::values(*iout)[0], 12);
  EXPECT_KERNEL_ERROR(call_out("aten::index_select.out", {t(arange24()), i(1), t(longs({1}, {3}))},
                               tf.zeros(ST::Float, {2, 1, 4})),
                      Error::InvalidArgument, "index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_KERNEL_ERROR(call_out("aten::index_select.out", {t(arange24()), i(1), t(longs({1, 1}, {0}))},
                               tf.zeros(ST::Float, {2, 1, 4})),
                      Error::InvalidArgument, "index must be a vector");
}

TEST_F(Index, Gather) {
  Tensor* out = tf.zeros(ST::Float, {2, 2});
  ASSERT_EQ(call_out("aten::gather.out", {t(f32({2, 2}, {1, 2, 3, 4})), i(1), t(longs({2, 2}, {0, 0, 1, 0})), b(false)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {1, 1, 4, 3});
  // The corpus xor program: [1, 2] gathered at [[1]] along dim 1.
  Tensor* one = tf.zeros(ST::Float, {1, 1});
  ASSERT_EQ(call_out("aten::gather.out", {t(f32({1, 2}, {0.25, 0.75})), i(-1), t(longs({1, 1}, {1})), b(false)}, one),
            Error::Ok);
  EXPECT_VALUES(one, {0.75});
  EXPECT_KERNEL_ERROR(call_out("aten::gather.out", {t(f32({2, 2}, {1, 2, 3, 4})), i(1), t(tf.make(ST::Int, {1, 1}, {0})), b(false)},
                               tf.zeros(ST::Float, {1, 1})),
                      Error::InvalidType, "index: dtype Int, expected Long");
  EXPECT_KERNEL_ERROR(call_out("aten::gather.out", {t(f32({2, 2}, {1, 2, 3, 4})), i(1), t(longs({1, 1}, {-1})), b(false)},
                               tf.zeros(ST::Float, {1, 1})),
                      Error::InvalidArgument, "index -1 is out of bounds");
  EXPECT_KERNEL_ERROR(call_out("aten::gather.out", {t(f32({2, 2}, {1, 2, 3, 4})), i(1), t(longs({3, 1}, {0, 0, 0})), b(false)},
                               tf.zeros(ST::Float, {3, 1})),
                      Error::InvalidArgument, "exceeds self's size 2 at dimension 0");
}

TEST_F(Index, Scatter) {
  std::vector<double> src(10);
  for (int k = 0; k < 10; ++k) src[k] = k + 1;
  Tensor* out = tf.zeros(ST::Float, {3, 5});
  ASSERT_EQ(call_out("aten::scatter.src_out",
                     {t(tf.zeros(ST::Float, {3, 5})), i(0), t(longs({1, 4}, {0, 1, 2, 0})), t(f32({2, 5}, src))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0});
  Tensor* vout = tf.zeros(ST::Float, {2, 4});
  ASSERT_EQ(call_out("aten::scatter.value_out", {t(tf.make(ST::Float, {2, 4}, std::vector<double>(8, 5))), i(1),
                                                  t(longs({2, 1}, {2, 3})), d(1.25)},
                     vout),
            Error::Ok);
  EXPECT_VALUES(vout, {5, 5, 1.25, 5, 5, 5, 5, 1.25});
  EXPECT_KERNEL_ERROR(call_out("aten::scatter.value_out", {t(tf.zeros(ST::Float, {2, 4})), i(1), t(longs({2, 1}, {2, 4})), d(1)},
                               vout),
                      Error::InvalidArgument, "index 4 is out of bounds for dimension 1 with size 4");
  EXPECT_KERNEL_ERROR(call_out("aten::scatter.src_out", {t(tf.zeros(ST::Float, {2, 4})), i(1), t(longs({2, 1}, {2, 3})),
                                                          t(tf.zeros(ST::Double, {2, 4}))},
                               vout),
                      Error::InvalidType, "src (must match self)");
}

}  // namespace
}  // namespace tri::testing
