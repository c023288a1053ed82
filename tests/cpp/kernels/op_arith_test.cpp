// add, sub, rsub, mul, div, pow: values, broadcasting, promotion, errors.
#include <cmath>

#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class Arith : public KernelTest {};

TEST_F(Arith, AddWithAlpha) {
  Tensor* out = tf.zeros(ST::Float, {2, 2});
  ASSERT_EQ(call_out("aten::add.out",
                     {t(f32({2, 2}, {1, 2, 3, 4})), t(f32({2, 2}, {10, 20, 30, 40})), i(2)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {21, 42, 63, 84});
}

TEST_F(Arith, AddBroadcastsBothWays) {
  Tensor* out = dyn(ST::Float, {4, 4});
  ASSERT_EQ(call_out("aten::add.out",
                     {t(f32({2, 1}, {1, 2})), t(f32({1, 3}, {10, 20, 30})), i(1)}, out),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3}));
  EXPECT_VALUES(out, {11, 21, 31, 12, 22, 32});
  // Rank-0 with rank-2, and a trailing-dim vector.
  Tensor* out2 = tf.zeros(ST::Float, {2, 3});
  ASSERT_EQ(call_out("aten::add.out",
                     {t(f32({2, 3}, {1, 2, 3, 4, 5, 6})), t(f32({3}, {1, 1, 2})), i(1)}, out2),
            Error::Ok);
  EXPECT_VALUES(out2, {2, 3, 5, 5, 6, 8});
}

TEST_F(Arith, AddPromotes) {
  struct Case {
    ST a, b, out;
    std::vector<SizesType> b_sizes;
  };
  // dim tensors win over 0-dim ones unless the 0-dim one is of a higher
  // category; uint8 + int8 is int16 (values from PyTorch).
  const Case cases[] = {
      {ST::Int, ST::Float, ST::Float, {2}},   {ST::Byte, ST::Char, ST::Short, {2}},
      {ST::Int, ST::Long, ST::Int, {}},       {ST::Int, ST::Double, ST::Double, {}},
      {ST::Float, ST::Double, ST::Float, {}}, {ST::Int, ST::Bool, ST::Int, {2}},
      {ST::Half, ST::BFloat16, ST::Float, {2}},
  };
  for (const Case& c : cases) {
    Tensor* out = tf.zeros(c.out, {2});
    std::vector<double> bv(c.b_sizes.empty() ? 1 : 2, 1.0);
    ASSERT_EQ(call_out("aten::add.out",
                       {t(tf.make(c.a, {2}, {1, 2})), t(tf.make(c.b, c.b_sizes, bv)), i(1)}, out),
              Error::Ok)
        << last_error_message();
    EXPECT_VALUES(out, {2, 3});
  }
  // The common dtype must be castable to out: Float into Long is refused.
  EXPECT_KERNEL_ERROR(call_out("aten::add.out",
                               {t(tf.make(ST::Int, {2}, {1, 2})), t(f32({2}, {1, 2})), i(1)},
                               tf.zeros(ST::Long, {2})),
                      Error::InvalidType, "result type Float can't be cast to the desired output type Long");
}

TEST_F(Arith, AddBoolIsLogicalOr) {
  Tensor* out = tf.zeros(ST::Bool, {4});
  ASSERT_EQ(call_out("aten::add.out",
                     {t(tf.make(ST::Bool, {4}, {0, 0, 1, 1})),
                      t(tf.make(ST::Bool, {4}, {0, 1, 0, 1})), i(1)},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {0, 1, 1, 1});
}

TEST_F(Arith, AddScalarFollowsScalarRules) {
  // An integral tensor with a Double scalar computes in Float.
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::add.Scalar_out", {t(tf.make(ST::Int, {3}, {1, 2, 3})), d(0.5), i(1)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {1.5, 2.5, 3.5});
  // An Int scalar keeps a uint8 tensor uint8 (wrapping), a Bool tensor goes Long.
  Tensor* out8 = tf.zeros(ST::Byte, {2});
  ASSERT_EQ(call_out("aten::add.Scalar_out", {t(tf.make(ST::Byte, {2}, {250, 1})), i(10), i(1)}, out8),
            Error::Ok);
  EXPECT_VALUES(out8, {4, 11});
  EXPECT_KERNEL_ERROR(call_out("aten::add.Scalar_out", {t(tf.make(ST::Bool, {2}, {1, 0})), i(1), i(1)},
                               tf.zeros(ST::Bool, {2})),
                      Error::InvalidType, "result type Long can't be cast to the desired output type Bool");
  // A float alpha with integral inputs is refused.
  EXPECT_KERNEL_ERROR(call_out("aten::add.out", {t(tf.make(ST::Int, {1}, {1})), t(tf.make(ST::Int, {1}, {1})), d(0.5)},
                               tf.zeros(ST::Int, {1})),
                      Error::InvalidArgument, "alpha must not be a floating point");
}

TEST_F(Arith, AddNonContiguousAndEmpty) {
  // self is channels-last [1, 2, 2, 2]; values are given in logical order.
  std::vector<double> v = {0, 1, 2, 3, 4, 5, 6, 7};
  Tensor* cl = tf.make(ST::Float, {1, 2, 2, 2}, v, {0, 2, 3, 1});
  Tensor* ones = tf.make(ST::Float, {2, 1, 1}, {100, 200});
  Tensor* out = tf.zeros(ST::Float, {1, 2, 2, 2}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("aten::add.out", {t(cl), t(ones), i(1)}, out), Error::Ok);
  EXPECT_VALUES(out, {100, 101, 102, 103, 204, 205, 206, 207});
  Tensor* out_contig = tf.zeros(ST::Float, {1, 2, 2, 2});
  ASSERT_EQ(call_out("aten::add.out", {t(cl), t(ones), i(1)}, out_contig), Error::Ok);
  EXPECT_VALUES(out_contig, {100, 101, 102, 103, 204, 205, 206, 207});
  Tensor* empty_out = dyn(ST::Float, {2, 3});
  ASSERT_EQ(call_out("aten::add.out", {t(tf.zeros(ST::Float, {0, 3})), t(f32({3}, {1, 2, 3})), i(1)},
                     empty_out),
            Error::Ok);
  EXPECT_EQ(sizes_of(*empty_out), (std::vector<SizesType>{0, 3}));
}

TEST_F(Arith, AddHalfComputesInFloat) {
  Tensor* out = tf.zeros(ST::Half, {2});
  ASSERT_EQ(call_out("aten::add.out", {t(tf.make(ST::Half, {2}, {1.5, 1000})),
                                       t(tf.make(ST::Half, {2}, {0.25, 0.5})), i(1)},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {1.75, 1000.5});
}

TEST_F(Arith, AddErrors) {
  EXPECT_KERNEL_ERROR(call_out("aten::add.out", {t(f32({2}, {1, 2})), i(3), i(1)}, tf.zeros(ST::Float, {2})),
                      Error::InvalidType, "argument 1: expected Tensor, got Int");
  EXPECT_KERNEL_ERROR(call_out("aten::add.out", {t(f32({2, 3}, std::vector<double>(6, 1))), t(f32({3}, {1, 2, 3})), i(1)},
                               tf.zeros(ST::Float, {3, 2})),
                      Error::InvalidArgument, "out: static tensor of shape [3, 2] cannot take shape [2, 3]");
  EXPECT_KERNEL_ERROR(call_out("aten::add.out", {t(f32({2}, {1, 2})), t(f32({3}, {1, 2, 3})), i(1)},
                               tf.zeros(ST::Float, {3})),
                      Error::InvalidArgument, "cannot be broadcast");
  EXPECT_KERNEL_ERROR(call_out("aten::add.out", {t(tf.make(ST::UInt16, {1}, {1})), t(tf.make(ST::Int, {1}, {1})), i(1)},
                               tf.zeros(ST::Int, {1})),
                      Error::InvalidType, "no common dtype");
}

TEST_F(Arith, SubAndRsub) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::sub.out", {t(f32({3}, {10, 20, 30})), t(f32({}, {1})), i(2)}, out), Error::Ok);
  EXPECT_VALUES(out, {8, 18, 28});
  ASSERT_EQ(call_out("aten::sub.Scalar_out", {t(f32({3}, {10, 20, 30})), d(0.5), i(1)}, out), Error::Ok);
  EXPECT_VALUES(out, {9.5, 19.5, 29.5});
  ASSERT_EQ(call_out("aten::rsub.Scalar_out", {t(f32({3}, {1, 2, 3})), i(10), i(2)}, out), Error::Ok);
  EXPECT_VALUES(out, {8, 6, 4});
  ASSERT_EQ(call_out("aten::rsub.Tensor_out", {t(f32({3}, {1, 2, 3})), t(f32({1}, {1})), i(1)}, out), Error::Ok);
  EXPECT_VALUES(out, {0, -1, -2});
  EXPECT_KERNEL_ERROR(call_out("aten::sub.out", {t(tf.make(ST::Bool, {1}, {1})), t(tf.make(ST::Bool, {1}, {1})), i(1)},
                               tf.zeros(ST::Bool, {1})),
                      Error::InvalidType, "two bool operands");
  EXPECT_KERNEL_ERROR(call_out("aten::sub.out", {t(tf.make(ST::Bool, {1}, {1})), t(f32({1}, {1})), i(1)},
                               tf.zeros(ST::Float, {1})),
                      Error::InvalidType, "bool tensor is not supported");
}

TEST_F(Arith, MulWrapsIntegersAndBroadcasts) {
  Tensor* out = tf.zeros(ST::Char, {2});
  ASSERT_EQ(call_out("aten::mul.out", {t(tf.make(ST::Char, {2}, {100, -3})), t(tf.make(ST::Char, {}, {2}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {-56, -6});
  Tensor* fout = tf.zeros(ST::Float, {3, 2});
  const std::vector<double> v = {1, 2, 3, 4, 5, 6};
  ASSERT_EQ(call_out("aten::mul.out", {t(f32({3, 2}, v)), t(f32({3, 2}, v))}, fout), Error::Ok);
  EXPECT_VALUES(fout, {1, 4, 9, 16, 25, 36});
  ASSERT_EQ(call_out("aten::mul.Scalar_out", {t(f32({3, 2}, v)), d(2.0)}, fout), Error::Ok);
  EXPECT_VALUES(fout, {2, 4, 6, 8, 10, 12});
  EXPECT_KERNEL_ERROR(call_out("aten::mul.Scalar_out", {t(f32({3, 2}, v)), t(f32({1}, {1}))}, fout),
                      Error::InvalidType, "argument 1: expected Scalar");
}

TEST_F(Arith, DivTrueAndRounded) {
  Tensor* out = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call_out("aten::div.out", {t(tf.make(ST::Long, {2}, {7, -7})), t(tf.make(ST::Long, {2}, {2, 2}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {3.5, -3.5});
  EXPECT_KERNEL_ERROR(call_out("aten::div.out", {t(tf.make(ST::Long, {1}, {7})), t(tf.make(ST::Long, {1}, {2}))},
                               tf.zeros(ST::Long, {1})),
                      Error::InvalidType, "result type Float can't be cast to the desired output type Long");
  // Values from PyTorch: floor rounds toward -inf, trunc toward 0.
  Tensor* lout = tf.zeros(ST::Long, {4});
  ASSERT_EQ(call_out("aten::div.out_mode", {t(tf.make(ST::Long, {4}, {-7, 7, -7, 7})),
                                            t(tf.make(ST::Long, {4}, {2, -2, 2, -2})), str("floor")},
                     lout),
            Error::Ok);
  EXPECT_VALUES(lout, {-4, -4, -4, -4});
  ASSERT_EQ(call_out("aten::div.out_mode", {t(tf.make(ST::Long, {4}, {-7, 7, -7, 7})),
                                            t(tf.make(ST::Long, {4}, {2, -2, 2, -2})), str("trunc")},
                     lout),
            Error::Ok);
  EXPECT_VALUES(lout, {-3, -3, -3, -3});
  Tensor* fout = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call_out("aten::div.Scalar_mode_out", {t(f32({2}, {-7.5, 7.5})), d(2.0), str("floor")}, fout),
            Error::Ok);
  EXPECT_VALUES(fout, {-4, 3});
  ASSERT_EQ(call_out("aten::div.Scalar_out", {t(f32({2}, {1, 2})), i(4)}, fout), Error::Ok);
  EXPECT_VALUES(fout, {0.25, 0.5});
  ASSERT_EQ(call_out("aten::div.out_mode", {t(f32({2}, {1, -1})), t(f32({2}, {0, 0})), none()}, fout),
            Error::Ok);
  EXPECT_VALUES(fout, {INFINITY, -INFINITY});
  EXPECT_KERNEL_ERROR(call_out("aten::div.out_mode", {t(tf.make(ST::Int, {2}, {1, 2})), t(tf.make(ST::Int, {2}, {1, 0})),
                                                      str("trunc")},
                               tf.zeros(ST::Int, {2})),
                      Error::InvalidArgument, "division by zero");
  EXPECT_KERNEL_ERROR(call_out("aten::div.out_mode", {t(f32({1}, {1})), t(f32({1}, {1})), str("round")},
                               tf.zeros(ST::Float, {1})),
                      Error::InvalidArgument, "rounding_mode must be None, 'trunc' or 'floor', got 'round'");
}

TEST_F(Arith, Pow) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::pow.Tensor_Scalar_out", {t(f32({3}, {-2, 0.5, 3})), i(2)}, out), Error::Ok);
  EXPECT_VALUES(out, {4, 0.25, 9});
  ASSERT_EQ(call_out("aten::pow.Tensor_Scalar_out", {t(f32({3}, {4, 9, 2})), d(0.5)}, out), Error::Ok);
  EXPECT_VALUES(out, {2, 3, 1.4142135623730951}, 1e-6);
  ASSERT_EQ(call_out("aten::pow.Tensor_Scalar_out", {t(f32({3}, {1, 2, 4})), d(-1.0)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 0.5, 0.25});
  Tensor* lout = tf.zeros(ST::Long, {3});
  ASSERT_EQ(call_out("aten::pow.Tensor_Scalar_out", {t(tf.make(ST::Long, {3}, {-2, 3, 10})), i(3)}, lout), Error::Ok);
  EXPECT_VALUES(lout, {-8, 27, 1000});
  EXPECT_KERNEL_ERROR(call_out("aten::pow.Tensor_Scalar_out", {t(tf.make(ST::Long, {1}, {2})), i(-1)},
                               tf.zeros(ST::Long, {1})),
                      Error::InvalidArgument, "negative integer powers");
  // Scalar base: an Int base keeps a Long exponent Long; a Double base gives Float.
  ASSERT_EQ(call_out("aten::pow.Scalar_out", {i(2), t(tf.make(ST::Long, {3}, {1, 2, 3}))}, lout), Error::Ok);
  EXPECT_VALUES(lout, {2, 4, 8});
  ASSERT_EQ(call_out("aten::pow.Scalar_out", {d(2.0), t(tf.make(ST::Long, {3}, {1, 2, 3}))}, out), Error::Ok);
  EXPECT_VALUES(out, {2, 4, 8});
  Tensor* bout = tf.zeros(ST::Float, {2, 2});
  ASSERT_EQ(call_out("aten::pow.Tensor_Tensor_out", {t(f32({2, 1}, {2, 3})), t(f32({2}, {1, 2}))}, bout), Error::Ok);
  EXPECT_VALUES(bout, {2, 4, 3, 9});
}

}  // namespace
}  // namespace tri::testing
