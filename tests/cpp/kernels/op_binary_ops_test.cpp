// atan2, hypot, copysign, fmod, remainder, floor_divide, bitwise_*, logical_*,
// maximum, minimum, masked_fill: values (from PyTorch 1.13), broadcasting,
// promotion, empty tensors and errors.
#include <cmath>

#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class BinaryOps : public KernelTest {};

TEST_F(BinaryOps, Atan2BroadcastsAndPromotesIntegers) {
  Tensor* out = tf.zeros(ST::Float, {2, 3});
  ASSERT_EQ(call_out("aten::atan2.out",
                     {t(f32({2, 3}, {1, -2, 3, -4, 5, -6})), t(f32({3}, {2, -3, 0.5}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {0.46364760398864746, -2.5535900592803955, 1.4056476354599,
                      -1.1071487665176392, 2.111215829849243, -1.4876550436019897},
                1e-6);
  // Int operands compute in Float; the Float result may not go into an Int out.
  Tensor* f = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::atan2.out",
                     {t(tf.make(ST::Int, {3}, {5, -3, 7})), t(tf.make(ST::Int, {3}, {5, -3, 7}))}, f),
            Error::Ok);
  EXPECT_VALUES(f, {0.7853981852531433, -2.356194496154785, 0.7853981852531433}, 1e-6);
  EXPECT_KERNEL_ERROR(call_out("aten::atan2.out",
                               {t(tf.make(ST::Int, {1}, {1})), t(tf.make(ST::Int, {1}, {1}))},
                               tf.zeros(ST::Int, {1})),
                      Error::InvalidType, "can't be cast to the desired output type Int");
}

TEST_F(BinaryOps, HypotRefusesIntegers) {
  Tensor* out = tf.zeros(ST::Double, {3});
  ASSERT_EQ(call_out("aten::hypot.out", {t(f32({3}, {1, -2, 3})), t(f32({3}, {2, -3, 0.5}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {2.2360680103302, 3.605551242828369, 3.041381359100342}, 1e-6);
  EXPECT_KERNEL_ERROR(call_out("aten::hypot.out",
                               {t(tf.make(ST::Int, {1}, {1})), t(tf.make(ST::Int, {1}, {1}))},
                               tf.zeros(ST::Float, {1})),
                      Error::InvalidType, "dtype Int is not supported");
}

TEST_F(BinaryOps, Copysign) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::copysign.out",
                     {t(tf.make(ST::Int, {3}, {1, 2, 3})), t(f32({3}, {-0.0, 1, -2}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {-1, 2, -3});
  Tensor* out2 = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call_out("aten::copysign.Scalar_out", {t(f32({2}, {1, -2})), d(-0.0)}, out2),
            Error::Ok);
  EXPECT_VALUES(out2, {-1, -2});
}

TEST_F(BinaryOps, ModuloAndFloorDivideFollowTheirSignRules) {
  Tensor* a = tf.make(ST::Int, {4}, {7, -7, 7, -7});
  Tensor* b = tf.make(ST::Int, {4}, {3, 3, -3, -3});
  Tensor* out = tf.zeros(ST::Int, {4});
  ASSERT_EQ(call_out("aten::fmod.Tensor_out", {t(a), t(b)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, -1, 1, -1});
  ASSERT_EQ(call_out("aten::remainder.Tensor_out", {t(a), t(b)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 2, -2, -1});
  ASSERT_EQ(call_out("aten::floor_divide.out", {t(a), t(b)}, out), Error::Ok);
  EXPECT_VALUES(out, {2, -3, -3, 2});
  ASSERT_EQ(call_out("aten::remainder.Scalar_Tensor_out", {i(5), t(b)}, out), Error::Ok);
  EXPECT_VALUES(out, {2, 2, -1, -1});
  Tensor* fa = f32({4}, {5.5, -5.5, 5.5, -5.5});
  Tensor* fb = f32({4}, {2, 2, -2, -2});
  Tensor* fout = tf.zeros(ST::Float, {4});
  ASSERT_EQ(call_out("aten::fmod.Tensor_out", {t(fa), t(fb)}, fout), Error::Ok);
  EXPECT_VALUES(fout, {1.5, -1.5, 1.5, -1.5});
  ASSERT_EQ(call_out("aten::remainder.Tensor_out", {t(fa), t(fb)}, fout), Error::Ok);
  EXPECT_VALUES(fout, {1.5, 0.5, -0.5, -1.5});
  ASSERT_EQ(call_out("aten::floor_divide.out", {t(fa), t(fb)}, fout), Error::Ok);
  EXPECT_VALUES(fout, {2, -3, -3, 2});
  // An integral tensor with a Double scalar computes in Float.
  ASSERT_EQ(call_out("aten::remainder.Scalar_out", {t(a), d(2.5)}, fout), Error::Ok);
  EXPECT_VALUES(fout, {2, 0.5, 2, 0.5});
  // Float division by zero is defined.
  ASSERT_EQ(call_out("aten::fmod.Scalar_out", {t(fa), d(0.0)}, fout), Error::Ok);
  EXPECT_TRUE(std::isnan(fout->data_ptr<float>()[0]));
}

TEST_F(BinaryOps, IntegerModuloByZeroIsAnError) {
  Tensor* a = tf.make(ST::Int, {2}, {1, 2});
  Tensor* zero = tf.make(ST::Int, {2}, {1, 0});
  const char* ops[] = {"aten::fmod.Tensor_out", "aten::remainder.Tensor_out",
                       "aten::floor_divide.out"};
  for (const char* op : ops) {
    EXPECT_KERNEL_ERROR(call_out(op, {t(a), t(zero)}, tf.zeros(ST::Int, {2})),
                        Error::InvalidArgument, "ZeroDivisionError");
  }
  // A Scalar divisor is a value of the common dtype: 256 is 0 for uint8.
  EXPECT_KERNEL_ERROR(call_out("aten::remainder.Scalar_out",
                               {t(tf.make(ST::Byte, {2}, {1, 2})), i(256)}, tf.zeros(ST::Byte, {2})),
                      Error::InvalidArgument, "ZeroDivisionError");
  // INT64_MIN % -1 and // -1 do not trap.
  Tensor* lout = tf.zeros(ST::Long, {1});
  ASSERT_EQ(call_out("aten::fmod.Scalar_out", {t(tf.make_long({1}, {INT64_MIN})), i(-1)}, lout),
            Error::Ok);
  EXPECT_EQ(lout->data_ptr<int64_t>()[0], 0);
  ASSERT_EQ(call_out("aten::floor_divide.out",
                     {t(tf.make_long({1}, {INT64_MIN})), t(tf.make_long({1}, {-1}))}, lout),
            Error::Ok);
  EXPECT_EQ(lout->data_ptr<int64_t>()[0], INT64_MIN);
  // Bool is not supported by the modulo ops.
  EXPECT_KERNEL_ERROR(call_out("aten::fmod.Tensor_out",
                               {t(tf.make(ST::Bool, {1}, {1})), t(tf.make(ST::Bool, {1}, {1}))},
                               tf.zeros(ST::Bool, {1})),
                      Error::InvalidType, "dtype Bool is not supported");
}

TEST_F(BinaryOps, Bitwise) {
  Tensor* u = tf.make(ST::Byte, {3}, {12, 10, 255});
  Tensor* out = tf.zeros(ST::Byte, {3});
  ASSERT_EQ(call_out("aten::bitwise_and.Tensor_out", {t(u), t(tf.make(ST::Byte, {3}, {10, 6, 15}))},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {8, 2, 15});
  ASSERT_EQ(call_out("aten::bitwise_or.Scalar_out", {t(u), i(-1)}, out), Error::Ok);
  EXPECT_VALUES(out, {255, 255, 255});
  Tensor* lout = tf.zeros(ST::Long, {2});
  ASSERT_EQ(call_out("aten::bitwise_xor.Scalar_out", {t(tf.make(ST::Long, {2}, {5, -1})), i(3)},
                     lout),
            Error::Ok);
  EXPECT_VALUES(lout, {6, -4});
  // Bool with Long promotes to Long.
  ASSERT_EQ(call_out("aten::bitwise_and.Tensor_out",
                     {t(tf.make(ST::Bool, {2}, {1, 0})), t(tf.make(ST::Long, {2}, {3, 2}))}, lout),
            Error::Ok);
  EXPECT_VALUES(lout, {1, 0});
  EXPECT_KERNEL_ERROR(call_out("aten::bitwise_and.Scalar_out", {t(tf.make(ST::Int, {1}, {1})), d(2.5)},
                               tf.zeros(ST::Float, {1})),
                      Error::InvalidType, "dtype Float is not supported");
}

TEST_F(BinaryOps, LogicalTreatsNaNAsTrue) {
  Tensor* out = tf.zeros(ST::Bool, {4});
  ASSERT_EQ(call_out("aten::logical_xor.out",
                     {t(f32({4}, {0, NAN, 2, 0})), t(tf.make(ST::Char, {4}, {0, 0, 1, 3}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {0, 1, 0, 1});
  // Any out dtype receives 0/1.
  Tensor* fout = tf.zeros(ST::Float, {2, 2});
  ASSERT_EQ(call_out("aten::logical_and.out",
                     {t(tf.make(ST::Int, {2, 1}, {0, 4})), t(f32({2}, {1, 0.5}))}, fout),
            Error::Ok);
  EXPECT_VALUES(fout, {0, 0, 1, 1});
  ASSERT_EQ(call_out("aten::logical_or.out",
                     {t(tf.make(ST::Int, {2, 1}, {0, 4})), t(f32({2}, {0, 0.5}))}, fout),
            Error::Ok);
  EXPECT_VALUES(fout, {0, 1, 1, 1});
}

TEST_F(BinaryOps, MaximumMinimumPropagateNaN) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::maximum.out", {t(f32({3}, {1, NAN, 3})), t(f32({3}, {2, 1, NAN}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {2, NAN, NAN});
  Tensor* out2 = dyn(ST::Float, {4, 4});
  ASSERT_EQ(call_out("aten::minimum.out",
                     {t(tf.make(ST::Char, {2, 1}, {1, 5})), t(f32({3}, {3, 4, 6}))}, out2),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out2), (std::vector<SizesType>{2, 3}));
  EXPECT_VALUES(out2, {1, 1, 1, 3, 4, 5});
  // Empty broadcast.
  Tensor* empty = dyn(ST::Float, {4, 4});
  ASSERT_EQ(call_out("aten::maximum.out", {t(f32({0, 1}, {})), t(f32({3}, {1, 2, 3}))}, empty),
            Error::Ok);
  EXPECT_EQ(sizes_of(*empty), (std::vector<SizesType>{0, 3}));
  EXPECT_KERNEL_ERROR(call_out("aten::maximum.out", {t(f32({2}, {1, 2})), t(f32({3}, {1, 2, 3}))},
                               tf.zeros(ST::Float, {3})),
                      Error::InvalidArgument, "");
}

TEST_F(BinaryOps, MaskedFill) {
  Tensor* out = dyn(ST::Short, {4, 4});
  ASSERT_EQ(call_out("aten::masked_fill.Scalar_out",
                     {t(tf.zeros(ST::Short, {2, 3})), t(tf.make(ST::Bool, {3}, {1, 0, 1})), i(-7)},
                     out),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3}));
  EXPECT_VALUES(out, {-7, 0, -7, -7, 0, -7});
  // The mask broadcasts self too; the value converts to self's dtype (1.5 -> 1).
  Tensor* iout = dyn(ST::Int, {4, 4});
  ASSERT_EQ(call_out("aten::masked_fill.Scalar_out",
                     {t(tf.make(ST::Int, {3}, {5, -3, 7})), t(tf.make(ST::Bool, {2, 1}, {1, 0})),
                      d(1.5)},
                     iout),
            Error::Ok);
  EXPECT_VALUES(iout, {1, 1, 1, 5, -3, 7});
  EXPECT_KERNEL_ERROR(call_out("aten::masked_fill.Scalar_out",
                               {t(tf.make(ST::Byte, {1}, {1})), t(tf.make(ST::Bool, {1}, {1})), i(300)},
                               tf.zeros(ST::Byte, {1})),
                      Error::InvalidArgument, "cannot be converted to type");
  EXPECT_KERNEL_ERROR(call_out("aten::masked_fill.Scalar_out",
                               {t(f32({1}, {1})), t(tf.make(ST::Byte, {1}, {1})), i(1)},
                               tf.zeros(ST::Float, {1})),
                      Error::InvalidType, "mask: expected a Bool tensor");
}

}  // namespace
}  // namespace tri::testing
