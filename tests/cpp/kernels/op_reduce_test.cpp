// sum, mean, argmax, _softmax, _log_softmax.
#include <cmath>

#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class Reduce : public KernelTest {
 protected:
  Tensor* arange24() {
    std::vector<double> v(24);
    for (int k = 0; k < 24; ++k) v[k] = k;
    return f32({2, 3, 4}, v);
  }
};

TEST_F(Reduce, SumDimsKeepdimAndAll) {
  Tensor* out = tf.zeros(ST::Float, {2, 3, 1});
  ASSERT_EQ(call_out("aten::sum.IntList_out", {t(arange24()), il({-1}), b(true), none()}, out), Error::Ok);
  EXPECT_VALUES(out, {6, 22, 38, 54, 70, 86});
  Tensor* out2 = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::sum.IntList_out", {t(arange24()), il({0, 2}), b(false), none()}, out2), Error::Ok);
  EXPECT_VALUES(out2, {60, 92, 124});
  Tensor* all = tf.zeros(ST::Float, {});
  ASSERT_EQ(call_out("aten::sum.IntList_out", {t(arange24()), none(), b(false), none()}, all), Error::Ok);
  EXPECT_VALUES(all, {276});
  ASSERT_EQ(call_out("aten::sum.IntList_out", {t(arange24()), il({}), b(false), none()}, all), Error::Ok);
  EXPECT_VALUES(all, {276});
}

TEST_F(Reduce, SumDtypesAndEdgeCases) {
  // Integers accumulate in the out's dtype: int8 data summed into Long.
  Tensor* lout = tf.zeros(ST::Long, {});
  ASSERT_EQ(call_out("aten::sum.IntList_out", {t(tf.make(ST::Char, {3}, {100, 100, 100})), none(), b(false), i(4)}, lout),
            Error::Ok);
  EXPECT_VALUES(lout, {300});
  EXPECT_KERNEL_ERROR(call_out("aten::sum.IntList_out", {t(f32({2}, {1, 2})), none(), b(false), i(7)}, tf.zeros(ST::Float, {})),
                      Error::InvalidType, "out (must match dtype): dtype Float, expected Double");
  // An empty reduction is 0; a channels-last input reduces in logical order.
  Tensor* z = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call_out("aten::sum.IntList_out", {t(tf.zeros(ST::Float, {2, 0})), il({1}), b(false), none()}, z), Error::Ok);
  EXPECT_VALUES(z, {0, 0});
  Tensor* cl = tf.make(ST::Float, {1, 2, 1, 2}, {1, 2, 3, 4}, {0, 2, 3, 1});
  Tensor* cout = tf.zeros(ST::Float, {1, 2, 1});
  ASSERT_EQ(call_out("aten::sum.IntList_out", {t(cl), il({3}), b(false), none()}, cout), Error::Ok);
  EXPECT_VALUES(cout, {3, 7});
  EXPECT_KERNEL_ERROR(call_out("aten::sum.IntList_out", {t(arange24()), il({1, -2}), b(false), none()}, tf.zeros(ST::Float, {2, 4})),
                      Error::InvalidArgument, "dim 1 appears multiple times");
  EXPECT_KERNEL_ERROR(call_out("aten::sum.IntList_out", {t(arange24()), il({3}), b(false), none()}, tf.zeros(ST::Float, {2, 3})),
                      Error::InvalidArgument, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

TEST_F(Reduce, Mean) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::mean.out", {t(arange24()), il({0, 2}), b(false), none()}, out), Error::Ok);
  EXPECT_VALUES(out, {7.5, 11.5, 15.5});
  Tensor* one = tf.zeros(ST::Float, {1});
  ASSERT_EQ(call_out("aten::mean.out", {t(f32({1, 2}, {1, 2})), il({1}), b(false), none()}, one), Error::Ok);
  EXPECT_VALUES(one, {1.5});
  Tensor* nan = tf.zeros(ST::Float, {});
  ASSERT_EQ(call_out("aten::mean.out", {t(tf.zeros(ST::Float, {0})), none(), b(false), none()}, nan), Error::Ok);
  EXPECT_VALUES(nan, {NAN});
  EXPECT_KERNEL_ERROR(call_out("aten::mean.out", {t(tf.make(ST::Long, {2}, {1, 2})), none(), b(false), none()},
                               tf.zeros(ST::Float, {})),
                      Error::InvalidType, "input dtype must be floating point, got Long");
  // With dtype=Float an integer input is accepted.
  ASSERT_EQ(call_out("aten::mean.out", {t(tf.make(ST::Long, {2}, {1, 2})), none(), b(false), i(6)}, nan), Error::Ok);
  EXPECT_VALUES(nan, {1.5});
}

TEST_F(Reduce, Argmax) {
  Tensor* out = tf.zeros(ST::Long, {2});
  ASSERT_EQ(call_out("aten::argmax.out", {t(f32({2, 3}, {1, 5, 5, 7, 2, 7})), i(1), b(false)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 0});  // ties give the first
  Tensor* scalar = tf.zeros(ST::Long, {});
  ASSERT_EQ(call_out("aten::argmax.out", {t(f32({4}, {1, NAN, 3, NAN})), none(), b(false)}, scalar), Error::Ok);
  EXPECT_VALUES(scalar, {1});  // NaN is the max
  Tensor* kept = tf.zeros(ST::Long, {1, 1});
  ASSERT_EQ(call_out("aten::argmax.out", {t(f32({2, 2}, {1, 5, 7, 2})), none(), b(true)}, kept), Error::Ok);
  EXPECT_VALUES(kept, {2});
  Tensor* neg = tf.zeros(ST::Long, {3});
  ASSERT_EQ(call_out("aten::argmax.out", {t(tf.make(ST::Int, {2, 3}, {1, 9, 3, 4, 5, 6})), i(-2), b(false)}, neg), Error::Ok);
  EXPECT_VALUES(neg, {1, 0, 1});
  EXPECT_KERNEL_ERROR(call_out("aten::argmax.out", {t(tf.zeros(ST::Float, {2, 0})), i(1), b(false)}, out),
                      Error::InvalidArgument, "reduction dim 1 to have non-zero size");
  EXPECT_KERNEL_ERROR(call_out("aten::argmax.out", {t(f32({2}, {1, 2})), none(), b(false)}, tf.zeros(ST::Int, {})),
                      Error::InvalidType, "out: dtype Int, expected Long");
}

TEST_F(Reduce, SoftmaxAndLogSoftmax) {
  // Expected values from PyTorch.
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};
  Tensor* out = tf.zeros(ST::Float, {2, 3});
  ASSERT_EQ(call_out("aten::_softmax.out", {t(f32({2, 3}, x)), i(1), b(false)}, out), Error::Ok);
  EXPECT_VALUES(out, {0.09003057330846786, 0.2447284758090973, 0.6652409434318542, 0.09003057330846786,
                      0.2447284758090973, 0.6652409434318542},
                1e-6);
  ASSERT_EQ(call_out("aten::_softmax.out", {t(f32({2, 3}, x)), i(-2), b(false)}, out), Error::Ok);
  EXPECT_VALUES(out, {0.04742587357759476, 0.04742587357759476, 0.04742587357759476, 0.9525741338729858,
                      0.9525741338729858, 0.9525741338729858},
                1e-6);
  ASSERT_EQ(call_out("aten::_log_softmax.out", {t(f32({2, 3}, x)), i(1), b(false)}, out), Error::Ok);
  EXPECT_VALUES(out, {-2.4076058864593506, -1.4076058864593506, -0.40760594606399536, -2.4076058864593506,
                      -1.4076058864593506, -0.40760594606399536},
                1e-6);
  // Large logits stay finite.
  Tensor* big = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call_out("aten::_log_softmax.out", {t(f32({2}, {1000, 0})), i(0), b(false)}, big), Error::Ok);
  EXPECT_VALUES(big, {0, -1000});
  // A channels-last input along the channel dim.
  Tensor* cl = tf.make(ST::Float, {1, 2, 1, 2}, {0, 1, 0, 1}, {0, 2, 3, 1});
  Tensor* clout = tf.zeros(ST::Float, {1, 2, 1, 2}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("aten::_softmax.out", {t(cl), i(1), b(false)}, clout), Error::Ok);
  EXPECT_VALUES(clout, {0.5, 0.5, 0.5, 0.5});
  EXPECT_KERNEL_ERROR(call_out("aten::_softmax.out", {t(f32({2}, {1, 2})), i(0), b(true)}, big),
                      Error::NotSupported, "half to float");
  EXPECT_KERNEL_ERROR(call_out("aten::_softmax.out", {t(tf.make(ST::Long, {2}, {1, 2})), i(0), b(false)},
                               tf.zeros(ST::Long, {2})),
                      Error::InvalidType, "self: dtype Long is not supported");
}

}  // namespace
}  // namespace tri::testing
