// Unary elementwise ops and activations added with the unary family (the
// older neg/exp/tanh/sigmoid/clamp tests are in op_unary_test.cpp).
// Expected values from PyTorch 1.13 (float32).
#include <cmath>

#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class UnaryOps : public KernelTest {};

struct Case {
  const char* op;
  std::vector<double> expected;
};

TEST_F(UnaryOps, FloatOpsMatchPyTorch) {
  const std::vector<double> x = {-2, -0.5, 0, 0.25, 3};
  const Case cases[] = {
      {"aten::expm1.out", {-0.8646647334098816, -0.39346933364868164, 0.0, 0.2840254306793213, 19.08553695678711}},
      {"aten::sin.out", {-0.9092974066734314, -0.4794255495071411, 0.0, 0.24740396440029144, 0.14112000167369843}},
      {"aten::cos.out", {-0.416146844625473, 0.8775825500488281, 1.0, 0.9689124226570129, -0.9899924993515015}},
      {"aten::tan.out", {2.185039758682251, -0.5463024973869324, 0.0, 0.25534191727638245, -0.14254654943943024}},
      {"aten::atan.out", {-1.1071487665176392, -0.46364760398864746, 0.0, 0.244978666305542, 1.249045729637146}},
      {"aten::sinh.out", {-3.6268603801727295, -0.5210952758789062, 0.0, 0.25261232256889343, 10.017874717712402}},
      {"aten::cosh.out", {3.7621958255767822, 1.1276259422302246, 1.0, 1.0314130783081055, 10.067662239074707}},
      {"aten::asinh.out", {-1.4436354637145996, -0.4812118411064148, 0.0, 0.24746647477149963, 1.8184465169906616}},
      {"aten::erf.out", {-0.9953222870826721, -0.5204998850822449, 0.0, 0.27632638812065125, 0.9999778866767883}},
      {"aten::log1p.out", {NAN, -0.6931471824645996, 0.0, 0.2231435477733612, 1.3862943649291992}},
      {"aten::reciprocal.out", {-0.5, -2.0, INFINITY, 4.0, 0.3333333432674408}},
  };
  for (const Case& c : cases) {
    Tensor* out = tf.zeros(ST::Float, {5});
    ASSERT_EQ(call_out(c.op, {t(f32({5}, x))}, out), Error::Ok) << c.op;
    EXPECT_VALUES(out, c.expected, 1e-6) << c.op;
  }
  const std::vector<double> y = {0.25, 0.5, 1};
  const Case cases01[] = {
      {"aten::log.out", {-1.3862943649291992, -0.6931471824645996, 0.0}},
      {"aten::log2.out", {-2.0, -1.0, 0.0}},
      {"aten::log10.out", {-0.6020600199699402, -0.3010300099849701, 0.0}},
      {"aten::sqrt.out", {0.5, 0.7071067690849304, 1.0}},
      {"aten::rsqrt.out", {2.0, 1.4142135381698608, 1.0}},
      {"aten::acos.out", {1.3181160688400269, 1.0471975803375244, 0.0}},
      {"aten::asin.out", {0.252680242061615, 0.5235987901687622, 1.5707963705062866}},
  };
  for (const Case& c : cases01) {
    Tensor* out = tf.zeros(ST::Float, {3});
    ASSERT_EQ(call_out(c.op, {t(f32({3}, y))}, out), Error::Ok) << c.op;
    EXPECT_VALUES(out, c.expected, 1e-6) << c.op;
  }
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::acosh.out", {t(f32({3}, {1, 2, 4}))}, out), Error::Ok);
  EXPECT_VALUES(out, {0.0, 1.316957950592041, 2.063436985015869}, 1e-6);
  ASSERT_EQ(call_out("aten::atanh.out", {t(f32({3}, {-0.5, 0, 0.5}))}, out), Error::Ok);
  EXPECT_VALUES(out, {-0.5493061542510986, 0.0, 0.5493061542510986}, 1e-6);
}

TEST_F(UnaryOps, FloatOpsPromoteIntegersAndCastOut) {
  // Integers compute in Float; the result casts into a Double out.
  Tensor* out = tf.zeros(ST::Double, {3});
  ASSERT_EQ(call_out("aten::sqrt.out", {t(tf.make(ST::Int, {3}, {0, 4, 2}))}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 2, 1.4142135381698608});
  Tensor* bout = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call_out("aten::log.out", {t(tf.make(ST::Bool, {2}, {0, 1}))}, bout), Error::Ok);
  EXPECT_VALUES(bout, {-INFINITY, 0});
  EXPECT_KERNEL_ERROR(call_out("aten::sin.out", {t(f32({2}, {1, 2}))}, tf.zeros(ST::Long, {2})),
                      Error::InvalidType, "out: dtype Long is not supported");
  EXPECT_KERNEL_ERROR(call_out("aten::cos.out", {t(f32({2}, {1, 2}))}, tf.zeros(ST::Float, {3})),
                      Error::InvalidArgument, "out: static tensor of shape [3]");
}

TEST_F(UnaryOps, SameDtypeOpsKeepIntegers) {
  Tensor* i8 = tf.zeros(ST::Char, {4});
  ASSERT_EQ(call_out("aten::abs.out", {t(tf.make(ST::Char, {4}, {-128, -5, 0, 7}))}, i8), Error::Ok);
  EXPECT_VALUES(i8, {-128, 5, 0, 7});  // wraps, as in ATen
  ASSERT_EQ(call_out("aten::sign.out", {t(tf.make(ST::Char, {4}, {-128, -5, 0, 7}))}, i8), Error::Ok);
  EXPECT_VALUES(i8, {-1, -1, 0, 1});
  ASSERT_EQ(call_out("aten::bitwise_not.out", {t(tf.make(ST::Char, {4}, {0, 5, -128, 127}))}, i8),
            Error::Ok);
  EXPECT_VALUES(i8, {-1, -6, 127, -128});
  Tensor* bo = tf.zeros(ST::Bool, {2});
  ASSERT_EQ(call_out("aten::bitwise_not.out", {t(tf.make(ST::Bool, {2}, {1, 0}))}, bo), Error::Ok);
  EXPECT_VALUES(bo, {0, 1});
  Tensor* l = tf.zeros(ST::Long, {2});
  ASSERT_EQ(call_out("aten::floor.out", {t(tf.make_long({2}, {INT64_MAX, -3}))}, l), Error::Ok);
  EXPECT_EQ(l->data_ptr<int64_t>()[0], INT64_MAX);
  ASSERT_EQ(call_out("aten::relu.out", {t(tf.make_long({2}, {5, -3}))}, l), Error::Ok);
  EXPECT_VALUES(l, {5, 0});
  Tensor* f = tf.zeros(ST::Float, {5});
  ASSERT_EQ(call_out("aten::sign.out", {t(f32({5}, {NAN, -0.0, 0, -2.5, INFINITY}))}, f), Error::Ok);
  EXPECT_VALUES(f, {0, 0, 0, -1, 1});
  EXPECT_KERNEL_ERROR(call_out("aten::abs.out", {t(tf.make(ST::Int, {2}, {1, 2}))}, tf.zeros(ST::Long, {2})),
                      Error::InvalidType, "out: dtype Long, expected Int");
  EXPECT_KERNEL_ERROR(call_out("aten::ceil.out", {t(tf.make(ST::Bool, {1}, {1}))}, tf.zeros(ST::Bool, {1})),
                      Error::InvalidType, "ceil does not support bool");
  EXPECT_KERNEL_ERROR(call_out("aten::bitwise_not.out", {t(f32({1}, {1}))}, tf.zeros(ST::Float, {1})),
                      Error::InvalidType, "self: dtype Float is not supported");
  EXPECT_KERNEL_ERROR(call_out("aten::relu.out", {t(tf.make(ST::Bool, {1}, {1}))}, tf.zeros(ST::Bool, {1})),
                      Error::InvalidType, "Boolean inputs not supported for relu");
}

TEST_F(UnaryOps, Rounding) {
  const std::vector<double> x = {0.5, 1.5, 2.5, -0.5, -1.7, 1234.5678};
  Tensor* out = tf.zeros(ST::Float, {6});
  ASSERT_EQ(call_out("aten::round.out", {t(f32({6}, x))}, out), Error::Ok);
  EXPECT_VALUES(out, {0.0, 2.0, 2.0, -0.0, -2.0, 1235.0});
  ASSERT_EQ(call("aten::round.decimals_out", {t(f32({6}, x)), i(2), t(out), t(out)}), Error::Ok);
  EXPECT_VALUES(out, {0.5, 1.5, 2.5, -0.5, -1.7000000476837158, 1234.5699462890625});
  ASSERT_EQ(call("aten::round.decimals_out", {t(f32({6}, x)), i(-2), t(out), t(out)}), Error::Ok);
  EXPECT_VALUES(out, {0.0, 0.0, 0.0, -0.0, -0.0, 1200.0});
  // 10^40 is inf in float: x * inf / inf is NaN, as in ATen; no overflow UB
  // for the most negative decimals either.
  ASSERT_EQ(call("aten::round.decimals_out", {t(f32({6}, x)), i(40), t(out), t(out)}), Error::Ok);
  EXPECT_TRUE(std::isnan(TensorFactory::values(*out)[0]));
  ASSERT_EQ(call("aten::round.decimals_out", {t(f32({6}, x)), i(INT64_MIN), t(out), t(out)}), Error::Ok);
  ASSERT_EQ(call_out("aten::floor.out", {t(f32({6}, x))}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 1, 2, -1, -2, 1234});
  ASSERT_EQ(call_out("aten::ceil.out", {t(f32({6}, x))}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 2, 3, -0.0, -1, 1235});
  ASSERT_EQ(call_out("aten::trunc.out", {t(f32({6}, x))}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 1, 2, -0.0, -1, 1234});
  Tensor* l = tf.zeros(ST::Long, {1});
  EXPECT_KERNEL_ERROR(call("aten::round.decimals_out", {t(tf.make_long({1}, {3})), i(1), t(l), t(l)}),
                      Error::InvalidType, "self: dtype Long is not supported");
}

TEST_F(UnaryOps, Predicates) {
  const std::vector<double> x = {NAN, INFINITY, -INFINITY, 0, 2};
  Tensor* out = tf.zeros(ST::Bool, {5});
  ASSERT_EQ(call_out("aten::isnan.out", {t(f32({5}, x))}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 0, 0, 0, 0});
  ASSERT_EQ(call_out("aten::isinf.out", {t(f32({5}, x))}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 1, 1, 0, 0});
  ASSERT_EQ(call_out("aten::logical_not.out", {t(f32({5}, x))}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 0, 0, 1, 0});
  // Any out dtype takes the bools.
  Tensor* fout = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::logical_not.out", {t(tf.make(ST::Int, {3}, {0, 3, -1}))}, fout), Error::Ok);
  EXPECT_VALUES(fout, {1, 0, 0});
  ASSERT_EQ(call_out("aten::isinf.out", {t(tf.make(ST::Int, {3}, {0, 3, -1}))}, fout), Error::Ok);
  EXPECT_VALUES(fout, {0, 0, 0});
}

TEST_F(UnaryOps, Activations) {
  const std::vector<double> x = {-3, -1, -0.5, 0, 0.5, 1, 4};
  const Case cases[] = {
      {"aten::silu.out", {-0.14227761328220367, -0.2689414322376251, -0.1887703388929367, 0.0, 0.3112296760082245, 0.7310585975646973, 3.9280550479888916}},
      {"aten::hardswish.out", {-0.0, -0.3333333432674408, -0.2083333283662796, 0.0, 0.2916666567325592, 0.6666666865348816, 4.0}},
      {"aten::hardsigmoid.out", {0.0, 0.3333333432674408, 0.4166666567325592, 0.5, 0.5833333134651184, 0.6666666865348816, 1.0}},
  };
  for (const Case& c : cases) {
    Tensor* out = tf.zeros(ST::Float, {7});
    ASSERT_EQ(call_out(c.op, {t(f32({7}, x))}, out), Error::Ok) << c.op;
    EXPECT_VALUES(out, c.expected, 1e-6) << c.op;
  }
  Tensor* out = tf.zeros(ST::Float, {7});
  ASSERT_EQ(call_out("aten::gelu.out", {t(f32({7}, x)), str("none")}, out), Error::Ok);
  EXPECT_VALUES(out, {-0.004049867391586304, -0.1586552858352661, -0.1542687863111496, 0.0, 0.3457311987876892, 0.8413447141647339, 3.999873161315918}, 1e-6);
  ASSERT_EQ(call_out("aten::gelu.out", {t(f32({7}, x)), str("tanh")}, out), Error::Ok);
  EXPECT_VALUES(out, {-0.0036374330520629883, -0.15880799293518066, -0.1542859971523285, 0.0, 0.3457140028476715, 0.8411920070648193, 3.999929904937744}, 1e-6);
  ASSERT_EQ(call_out("aten::elu.out", {t(f32({7}, x)), d(0.5), d(2.0), d(1.5)}, out), Error::Ok);
  EXPECT_VALUES(out, {-0.9888910055160522, -0.7768698334693909, -0.5276334285736084, 0.0, 1.0, 2.0, 8.0}, 1e-6);
  ASSERT_EQ(call_out("aten::leaky_relu.out", {t(f32({7}, x)), d(0.1)}, out), Error::Ok);
  EXPECT_VALUES(out, {-0.30000001192092896, -0.10000000149011612, -0.05000000074505806, 0.0, 0.5, 1.0, 4.0}, 1e-6);
  ASSERT_EQ(call_out("aten::hardtanh.out", {t(f32({7}, x)), d(-0.75), i(1)}, out), Error::Ok);
  EXPECT_VALUES(out, {-0.75, -0.75, -0.5, 0, 0.5, 1, 1});
  Tensor* nan_out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::hardtanh.out", {t(f32({3}, {NAN, -0.0, 5})), i(-1), i(1)}, nan_out), Error::Ok);
  EXPECT_VALUES(nan_out, {NAN, -0.0, 1});
  ASSERT_EQ(call_out("aten::relu.out", {t(f32({3}, {NAN, -2, 5}))}, nan_out), Error::Ok);
  EXPECT_VALUES(nan_out, {NAN, 0, 5});

  EXPECT_KERNEL_ERROR(call_out("aten::gelu.out", {t(f32({7}, x)), str("fast")}, out),
                      Error::InvalidArgument, "approximate: must be either 'none' or 'tanh'");
  EXPECT_KERNEL_ERROR(call_out("aten::gelu.out", {t(tf.make_long({1}, {1})), str("none")}, tf.zeros(ST::Long, {1})),
                      Error::InvalidType, "self: dtype Long is not supported");
  EXPECT_KERNEL_ERROR(call_out("aten::silu.out", {t(f32({1}, {1}))}, tf.zeros(ST::Double, {1})),
                      Error::InvalidType, "out: dtype Double, expected Float");
  EXPECT_KERNEL_ERROR(call_out("aten::hardtanh.out", {t(tf.make(ST::Byte, {1}, {1})), i(-1), i(1)}, tf.zeros(ST::Byte, {1})),
                      Error::InvalidArgument, "unsigned type with negative limits");
  EXPECT_KERNEL_ERROR(call_out("aten::hardtanh.out", {t(tf.make(ST::Char, {1}, {1})), i(-1), i(300)}, tf.zeros(ST::Char, {1})),
                      Error::InvalidArgument, "300");
}

TEST_F(UnaryOps, Glu) {
  Tensor* self = f32({2, 4}, {1, 2, -1, 0.5, 0, 3, 2, -2});
  Tensor* out = tf.zeros(ST::Float, {2, 2});
  ASSERT_EQ(call_out("aten::glu.out", {t(self), i(-1)}, out), Error::Ok);
  EXPECT_VALUES(out, {0.2689414322376251, 1.244918704032898, 0.0, 0.35760876536369324}, 1e-6);
  Tensor* out0 = tf.zeros(ST::Double, {1, 4});
  ASSERT_EQ(call_out("aten::glu.out", {t(self), i(0)}, out0), Error::Ok);
  EXPECT_VALUES(out0, {0.5, 1.9051482677459717, -0.8807970285415649, 0.05960145965218544}, 1e-6);
  EXPECT_KERNEL_ERROR(call_out("aten::glu.out", {t(f32({3}, {1, 2, 3})), i(0)}, tf.zeros(ST::Float, {1})),
                      Error::InvalidArgument, "dimension 0 is size 3");
  EXPECT_KERNEL_ERROR(call_out("aten::glu.out", {t(f32({}, {1})), i(0)}, tf.zeros(ST::Float, {})),
                      Error::InvalidArgument, "0-dimensional");
  EXPECT_KERNEL_ERROR(call_out("aten::glu.out", {t(self), i(2)}, out), Error::InvalidArgument,
                      "Dimension out of range");
  Tensor* empty = dyn(ST::Float, {4, 4});
  ASSERT_EQ(call_out("aten::glu.out", {t(tf.zeros(ST::Float, {0, 4})), i(1)}, empty), Error::Ok);
  EXPECT_EQ(sizes_of(*empty), (std::vector<SizesType>{0, 2}));
}

TEST_F(UnaryOps, Fill) {
  Tensor* out = tf.zeros(ST::Float, {2});
  // The value converts to self's dtype (Long: 2) before out's (Float).
  ASSERT_EQ(call_out("aten::fill.Scalar_out", {t(tf.make_long({2}, {1, 2})), d(2.5)}, out), Error::Ok);
  EXPECT_VALUES(out, {2, 2});
  ASSERT_EQ(call_out("aten::fill.Tensor_out", {t(f32({2}, {1, 2})), t(tf.make(ST::Double, {}, {2.5}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {2.5, 2.5});
  Tensor* b = tf.zeros(ST::Bool, {2});
  ASSERT_EQ(call_out("aten::fill.Scalar_out", {t(tf.make(ST::Bool, {2}, {0, 0})), d(2.5)}, b), Error::Ok);
  EXPECT_VALUES(b, {1, 1});
  EXPECT_KERNEL_ERROR(call_out("aten::fill.Scalar_out", {t(tf.make(ST::Char, {1}, {1})), i(300)}, tf.zeros(ST::Char, {1})),
                      Error::InvalidArgument, "300");
  EXPECT_KERNEL_ERROR(call_out("aten::fill.Tensor_out", {t(f32({2}, {1, 2})), t(f32({1}, {1}))}, out),
                      Error::InvalidArgument, "0-dimension value tensor");
}

TEST_F(UnaryOps, ChannelsLastAndEmpty) {
  // A channels-last input and out: same layout, values in logical order.
  Tensor* self = tf.make(ST::Float, {1, 2, 1, 2}, {-1, 2, -3, 4}, {0, 2, 3, 1});
  Tensor* out = tf.zeros(ST::Float, {1, 2, 1, 2}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("aten::relu.out", {t(self)}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 2, 0, 4});
  Tensor* rm = tf.zeros(ST::Float, {1, 2, 1, 2});
  ASSERT_EQ(call_out("aten::abs.out", {t(self)}, rm), Error::Ok);
  EXPECT_VALUES(rm, {1, 2, 3, 4});
  Tensor* empty = dyn(ST::Float, {4});
  ASSERT_EQ(call_out("aten::gelu.out", {t(tf.zeros(ST::Float, {0})), str("tanh")}, empty), Error::Ok);
  EXPECT_EQ(empty->numel(), 0u);
  Tensor* scalar = tf.zeros(ST::Float, {});
  ASSERT_EQ(call_out("aten::exp.out", {t(f32({}, {1}))}, scalar), Error::Ok);
  EXPECT_VALUES(scalar, {2.7182817459106445}, 1e-6);
}

}  // namespace
}  // namespace tri::testing
