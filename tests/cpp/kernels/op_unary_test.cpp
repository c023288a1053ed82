// neg, exp, tanh, sigmoid, clamp, comparisons and where.
#include <cmath>

#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class Unary : public KernelTest {};

TEST_F(Unary, FloatOpsMatchPyTorch) {
  // Expected values from PyTorch 1.13 (float32).
  struct Case {
    const char* op;
    std::vector<double> expected;
  };
  const Case cases[] = {
      {"aten::exp.out", {0.1353352814912796, 0.6065306663513184, 1.0, 2.7182817459106445, 20.08553695678711}},
      {"aten::tanh.out", {-0.9640275835990906, -0.46211716532707214, 0.0, 0.7615941762924194, 0.9950547814369202}},
      {"aten::sigmoid.out", {0.11920291930437088, 0.3775406777858734, 0.5, 0.7310585975646973, 0.9525741338729858}},
  };
  for (const Case& c : cases) {
    Tensor* out = tf.zeros(ST::Float, {5});
    ASSERT_EQ(call_out(c.op, {t(f32({5}, {-2, -0.5, 0, 1, 3}))}, out), Error::Ok) << c.op;
    EXPECT_VALUES(out, c.expected, 1e-6);
  }
}

TEST_F(Unary, FloatOpsPromoteIntegersAndRejectIntegerOut) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::sigmoid.out", {t(tf.make(ST::Int, {3}, {-1, 0, 2}))}, out), Error::Ok);
  EXPECT_VALUES(out, {0.2689414322376251, 0.5, 0.8807970285415649}, 1e-6);
  EXPECT_KERNEL_ERROR(call_out("aten::exp.out", {t(tf.make(ST::Int, {3}, {-1, 0, 2}))}, tf.zeros(ST::Int, {3})),
                      Error::InvalidType, "out: dtype Int is not supported");
  Tensor* half = tf.zeros(ST::Half, {2});
  ASSERT_EQ(call_out("aten::exp.out", {t(tf.make(ST::Half, {2}, {0, 1}))}, half), Error::Ok);
  EXPECT_VALUES(half, {1, 2.71875});
  Tensor* empty = dyn(ST::Float, {4});
  ASSERT_EQ(call_out("aten::tanh.out", {t(tf.zeros(ST::Float, {0}))}, empty), Error::Ok);
  EXPECT_EQ(empty->numel(), 0u);
}

TEST_F(Unary, Neg) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::neg.out", {t(f32({3}, {1, -2, 0}))}, out), Error::Ok);
  EXPECT_VALUES(out, {-1, 2, -0.0});
  EXPECT_TRUE(std::signbit(TensorFactory::values(*out)[2]));
  Tensor* lout = tf.zeros(ST::Long, {2});
  ASSERT_EQ(call_out("aten::neg.out", {t(tf.make_long({2}, {INT64_MIN, 5}))}, lout), Error::Ok);
  EXPECT_EQ(lout->data_ptr<int64_t>()[0], INT64_MIN);
  EXPECT_KERNEL_ERROR(call_out("aten::neg.out", {t(tf.make(ST::Bool, {1}, {1}))}, tf.zeros(ST::Bool, {1})),
                      Error::InvalidType, "negation on a bool tensor");
  EXPECT_KERNEL_ERROR(call_out("aten::neg.out", {t(f32({3}, {1, 2, 3}))}, tf.zeros(ST::Float, {2})),
                      Error::InvalidArgument, "out: static tensor of shape [2] cannot take shape [3]");
}

TEST_F(Unary, Clamp) {
  Tensor* out = tf.zeros(ST::Float, {5});
  const std::vector<double> x = {-3, -1, 0.5, 2, NAN};
  ASSERT_EQ(call_out("aten::clamp.out", {t(f32({5}, x)), d(-1.5), i(1)}, out), Error::Ok);
  EXPECT_VALUES(out, {-1.5, -1, 0.5, 1, NAN});
  ASSERT_EQ(call_out("aten::clamp.out", {t(f32({5}, x)), none(), i(0)}, out), Error::Ok);
  EXPECT_VALUES(out, {-3, -1, 0, 0, NAN});
  // min > max gives max, as in ATen.
  ASSERT_EQ(call_out("aten::clamp.out", {t(f32({5}, x)), i(2), i(1)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 1, 1, 1, NAN});
  // An integral tensor with a Double bound computes in Float.
  Tensor* fout = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::clamp.out", {t(tf.make(ST::Int, {3}, {-5, 0, 5})), d(-0.5), d(2.5)}, fout), Error::Ok);
  EXPECT_VALUES(fout, {-0.5, 0, 2.5});
  EXPECT_KERNEL_ERROR(call_out("aten::clamp.out", {t(f32({5}, x)), none(), none()}, out),
                      Error::InvalidArgument, "at least one of 'min' or 'max'");
  Tensor* tout = tf.zeros(ST::Float, {2, 3});
  ASSERT_EQ(call_out("aten::clamp.Tensor_out",
                     {t(f32({2, 3}, {0, 5, 10, 0, 5, 10})), t(f32({2, 1}, {1, 6})), t(f32({3}, {8, 8, 8}))},
                     tout),
            Error::Ok);
  EXPECT_VALUES(tout, {1, 5, 8, 6, 6, 8});
  ASSERT_EQ(call_out("aten::clamp.Tensor_out", {t(f32({2, 3}, {0, 5, 10, 0, 5, 10})), none(), t(f32({}, {4}))}, tout),
            Error::Ok);
  EXPECT_VALUES(tout, {0, 4, 4, 0, 4, 4});
}

TEST_F(Unary, Comparisons) {
  struct Case {
    const char* op;
    std::vector<double> expected;
  };
  const Case cases[] = {
      {"aten::eq.Tensor_out", {0, 1, 0}}, {"aten::ne.Tensor_out", {1, 0, 1}},
      {"aten::lt.Tensor_out", {1, 0, 0}}, {"aten::le.Tensor_out", {1, 1, 0}},
      {"aten::gt.Tensor_out", {0, 0, 1}}, {"aten::ge.Tensor_out", {0, 1, 1}},
  };
  for (const Case& c : cases) {
    Tensor* out = tf.zeros(ST::Bool, {3});
    ASSERT_EQ(call_out(c.op, {t(f32({3}, {1, 2, 3})), t(tf.make(ST::Long, {3}, {2, 2, 2}))}, out), Error::Ok);
    EXPECT_VALUES(out, c.expected);
  }
  // Scalar overloads: an int64 tensor against -100 (the corpus xor program).
  Tensor* out = tf.zeros(ST::Bool, {3});
  ASSERT_EQ(call_out("aten::ne.Scalar_out", {t(tf.make(ST::Long, {3}, {-100, 0, 1})), i(-100)}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 1, 1});
  ASSERT_EQ(call_out("aten::eq.Scalar_out", {t(tf.make(ST::Int, {3}, {0, 1, 2})), d(1.0)}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 1, 0});
  // A non-Bool out receives 0/1 in its dtype; broadcasting applies.
  Tensor* fout = tf.zeros(ST::Float, {2, 2});
  ASSERT_EQ(call_out("aten::gt.Tensor_out", {t(f32({2, 1}, {1, 3})), t(f32({2}, {2, 0}))}, fout), Error::Ok);
  EXPECT_VALUES(fout, {0, 1, 1, 1});
  EXPECT_KERNEL_ERROR(call_out("aten::eq.Scalar_out", {t(f32({3}, {1, 2, 3})), none()}, out),
                      Error::InvalidType, "argument 1: expected Scalar");
}

TEST_F(Unary, Where) {
  Tensor* out = tf.zeros(ST::Long, {2, 2});
  ASSERT_EQ(call_out("aten::where.self_out",
                     {t(tf.make(ST::Bool, {2, 1}, {1, 0})), t(tf.make(ST::Long, {2}, {1, 2})),
                      t(tf.make(ST::Long, {}, {-1}))},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {1, 2, -1, -1});
  // self Int and other Float promote to Float.
  Tensor* fout = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call_out("aten::where.self_out",
                     {t(tf.make(ST::Bool, {2}, {1, 0})), t(tf.make(ST::Int, {2}, {1, 2})), t(f32({2}, {0.5, 1.5}))},
                     fout),
            Error::Ok);
  EXPECT_VALUES(fout, {1, 1.5});
  EXPECT_KERNEL_ERROR(call_out("aten::where.self_out",
                               {t(f32({2}, {1, 0})), t(f32({2}, {1, 2})), t(f32({2}, {1, 2}))}, fout),
                      Error::InvalidType, "condition: expected a Bool tensor, got Float");
}

}  // namespace
}  // namespace tri::testing
