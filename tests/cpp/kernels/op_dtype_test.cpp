// Kernels compute in three compute types (int64, float, double) and convert
// operands of other dtypes (util/convert.h, util/elementwise.h). These cases
// pin the conversions: integer results wrap in the common dtype even when it
// is narrower than int64 or than out, Half results round to Half, mixed and
// strided operands take the converting path across chunk boundaries, and
// matmul converts dtypes with and without temp memory. Expected values are
// from PyTorch 1.13 unless computed in the test.
#include <cmath>
#include <cstdint>

#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class Dtypes : public KernelTest {};

TEST_F(Dtypes, IntegerResultsWrapInTheCommonDtype) {
  // int8 tensor + int32 0-dim tensor: common Char; 1000 is -24 in int8.
  Tensor* a = tf.make(ST::Char, {3}, {1, 100, -128});
  Tensor* b = tf.make(ST::Int, {}, {1000});
  Tensor* out = tf.zeros(ST::Char, {3});
  ASSERT_EQ(call_out("aten::add.out", {t(a), t(b), i(1)}, out), Error::Ok);
  EXPECT_VALUES(out, {-23, 76, 104});
  Tensor* lout = tf.zeros(ST::Long, {3});
  ASSERT_EQ(call_out("aten::add.out", {t(a), t(b), i(1)}, lout), Error::Ok);
  EXPECT_VALUES(lout, {-23, 76, 104});
  // int16 products wrap before they reach an Int out.
  Tensor* iout = tf.zeros(ST::Int, {2});
  ASSERT_EQ(call_out("aten::mul.out", {t(tf.make(ST::Short, {2}, {300, -300})),
                                       t(tf.make(ST::Short, {2}, {300, 2}))},
                     iout),
            Error::Ok);
  EXPECT_VALUES(iout, {24464, -600});
  // Bool + Bool is Bool (logical or) even in a Long out; Bool * Bool is and.
  Tensor* bl = tf.zeros(ST::Long, {3});
  ASSERT_EQ(call_out("aten::add.out", {t(tf.make(ST::Bool, {3}, {1, 1, 0})),
                                       t(tf.make(ST::Bool, {3}, {1, 0, 0})), i(1)},
                     bl),
            Error::Ok);
  EXPECT_VALUES(bl, {1, 1, 0});
  Tensor* bb = tf.zeros(ST::Bool, {3});
  ASSERT_EQ(call_out("aten::mul.out", {t(tf.make(ST::Bool, {3}, {1, 1, 0})),
                                       t(tf.make(ST::Bool, {3}, {1, 0, 1}))},
                     bb),
            Error::Ok);
  EXPECT_VALUES(bb, {1, 0, 0});
  // uint8: 5 - [10, 3] wraps; rsub with a scalar the same.
  Tensor* u = tf.zeros(ST::Byte, {2});
  ASSERT_EQ(call_out("aten::sub.out", {t(tf.make(ST::Byte, {}, {5})), t(tf.make(ST::Byte, {2}, {10, 3})), i(1)}, u),
            Error::Ok);
  EXPECT_VALUES(u, {251, 2});
  ASSERT_EQ(call_out("aten::rsub.Scalar_out", {t(tf.make(ST::Byte, {2}, {10, 3})), i(5), i(1)}, u), Error::Ok);
  EXPECT_VALUES(u, {251, 2});
  // neg and pow wrap in int8; rounded division of INT8_MIN by -1 wraps too.
  Tensor* c = tf.zeros(ST::Char, {2});
  ASSERT_EQ(call_out("aten::neg.out", {t(tf.make(ST::Char, {2}, {-128, 5}))}, c), Error::Ok);
  EXPECT_VALUES(c, {-128, -5});
  ASSERT_EQ(call_out("aten::pow.Tensor_Scalar_out", {t(tf.make(ST::Char, {2}, {3, -2})), i(5)}, c), Error::Ok);
  EXPECT_VALUES(c, {-13, -32});
  Tensor* num = tf.make(ST::Char, {2}, {-128, 7});
  Tensor* den = tf.make(ST::Char, {2}, {-1, -2});
  ASSERT_EQ(call_out("aten::div.out_mode", {t(num), t(den), str("floor")}, c), Error::Ok);
  EXPECT_VALUES(c, {-128, -4});
  ASSERT_EQ(call_out("aten::div.out_mode", {t(num), t(den), str("trunc")}, c), Error::Ok);
  EXPECT_VALUES(c, {-128, -3});
  Tensor* dl = tf.zeros(ST::Long, {2});
  ASSERT_EQ(call_out("aten::div.out_mode", {t(num), t(den), str("floor")}, dl), Error::Ok);
  EXPECT_VALUES(dl, {-128, -4});
  // A divisor that is zero only in the common dtype (256 as int8) is caught.
  EXPECT_KERNEL_ERROR(call_out("aten::div.out_mode", {t(num), t(tf.make(ST::Int, {}, {256})), str("trunc")}, c),
                      Error::InvalidArgument, "division by zero");
}

TEST_F(Dtypes, ComparisonsAndSelectionUseTheCommonDtype) {
  // Scalar -1 is 255 as uint8.
  Tensor* out = tf.zeros(ST::Bool, {2});
  Tensor* u = tf.make(ST::Byte, {2}, {255, 1});
  ASSERT_EQ(call_out("aten::eq.Scalar_out", {t(u), i(-1)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 0});
  ASSERT_EQ(call_out("aten::lt.Scalar_out", {t(u), i(-1)}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 1});
  // int32 0-dim 258 is 2 as int8.
  Tensor* out3 = tf.zeros(ST::Bool, {3});
  ASSERT_EQ(call_out("aten::ge.Tensor_out", {t(tf.make(ST::Char, {3}, {1, 2, 3})), t(tf.make(ST::Int, {}, {258}))}, out3),
            Error::Ok);
  EXPECT_VALUES(out3, {0, 1, 1});
  // where: 300 is 44 as int8; clamp: min 300 is 44 as uint8.
  Tensor* w = tf.zeros(ST::Char, {2});
  ASSERT_EQ(call_out("aten::where.self_out", {t(tf.make(ST::Bool, {2}, {1, 0})), t(tf.make(ST::Char, {2}, {1, 2})),
                                              t(tf.make(ST::Int, {}, {300}))},
                     w),
            Error::Ok);
  EXPECT_VALUES(w, {1, 44});
  Tensor* cl = tf.zeros(ST::Byte, {3});
  ASSERT_EQ(call_out("aten::clamp.Tensor_out", {t(tf.make(ST::Byte, {3}, {0, 100, 250})),
                                                t(tf.make(ST::Long, {}, {300})), none()},
                     cl),
            Error::Ok);
  EXPECT_VALUES(cl, {44, 100, 250});
}

TEST_F(Dtypes, LongIsExactAndHalfRoundsToHalf) {
  Tensor* l = tf.zeros(ST::Long, {2});
  ASSERT_EQ(call_out("aten::add.Scalar_out", {t(tf.make_long({2}, {(int64_t{1} << 62) + 1, INT64_MIN})), i(3), i(1)}, l),
            Error::Ok);
  const int64_t* lv = l->data_ptr<int64_t>();
  EXPECT_EQ(lv[0], (int64_t{1} << 62) + 4);
  EXPECT_EQ(lv[1], INT64_MIN + 3);
  // Half + Half is a Half value even when out is Float.
  Tensor* f = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call_out("aten::add.out", {t(tf.make(ST::Half, {2}, {1.0, 2048.0})),
                                       t(tf.make(ST::Half, {2}, {0.0001, 1.0})), i(1)},
                     f),
            Error::Ok);
  EXPECT_VALUES(f, {1.0, 2048.0});
}

TEST_F(Dtypes, ConvertingPathAcrossChunksAndStrides) {
  // 1000 elements (several conversion chunks), int32 with a permuted int16
  // operand and a Long out: out = 3 * i + 7.
  const int64_t n = 1000;
  std::vector<double> av(n), bv(n), expected(n);
  for (int64_t k = 0; k < n; ++k) {
    av[k] = static_cast<double>(k);
    bv[k] = static_cast<double>(2 * k + 7);  // stored transposed below
    expected[k] = static_cast<double>(3 * k + 7);
  }
  Tensor* at = tf.make(ST::Int, {25, 40}, av);
  Tensor* bt = tf.make(ST::Short, {25, 40}, bv, {1, 0});
  Tensor* out = tf.zeros(ST::Long, {25, 40});
  ASSERT_EQ(call_out("aten::add.out", {t(at), t(bt), i(1)}, out), Error::Ok);
  EXPECT_VALUES(out, expected);
  // All Long (the in-place path), with a broadcast row.
  std::vector<double> row(40), expected2(n);
  for (int64_t k = 0; k < 40; ++k) row[k] = static_cast<double>(k);
  for (int64_t k = 0; k < n; ++k) expected2[k] = static_cast<double>(k + 2 * (k % 40));
  Tensor* lout = tf.zeros(ST::Long, {25, 40});
  ASSERT_EQ(call_out("aten::add.out", {t(tf.make(ST::Long, {25, 40}, av)), t(tf.make(ST::Long, {40}, row)), i(2)}, lout),
            Error::Ok);
  EXPECT_VALUES(lout, expected2);
  // Float with a channels-last Double out.
  Tensor* dout = tf.zeros(ST::Double, {1, 10, 10, 10}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("aten::mul.Scalar_out", {t(tf.make(ST::Float, {1, 10, 10, 10}, av)), d(0.5)}, dout), Error::Ok);
  std::vector<double> half(n);
  for (int64_t k = 0; k < n; ++k) half[k] = 0.5 * static_cast<double>(k);
  EXPECT_VALUES(dout, half);
  // Sum of int8 values in int64 (not wrapped to int8).
  Tensor* s = tf.zeros(ST::Long, {});
  ASSERT_EQ(call_out("aten::sum.IntList_out", {t(tf.make(ST::Char, {3}, {100, 100, 100})), none(), b(false), none()}, s),
            Error::Ok);
  EXPECT_VALUES(s, {300});
}

TEST_F(Dtypes, CopiesConvertLikeATen) {
  Tensor* h = tf.zeros(ST::Half, {2});
  ASSERT_EQ(call_out("aten::_to_copy.out", {t(tf.make_long({2}, {(int64_t{1} << 40) + 1, -3})), b(false), none()}, h),
            Error::Ok);
  EXPECT_VALUES(h, {INFINITY, -3});
  Tensor* i32 = tf.zeros(ST::Int, {2});
  ASSERT_EQ(call_out("aten::_to_copy.out", {t(f32({2}, {2.9, -2.9})), b(false), none()}, i32), Error::Ok);
  EXPECT_VALUES(i32, {2, -2});
  Tensor* bf = tf.zeros(ST::BFloat16, {2});
  ASSERT_EQ(call_out("aten::_to_copy.out", {t(tf.make(ST::Double, {2}, {1.00390625, 3.0e38})), b(false), none()}, bf),
            Error::Ok);
  EXPECT_VALUES(bf, {1.0, 3.00405527047391e+38});
}

TEST_F(Dtypes, ReductionsAndPoolingInOtherDtypes) {
  Tensor* idx = tf.zeros(ST::Long, {});
  ASSERT_EQ(call_out("aten::argmax.out", {t(tf.make(ST::Char, {4}, {3, -5, 7, 7})), none(), b(false)}, idx),
            Error::Ok);
  EXPECT_VALUES(idx, {2});
  ASSERT_EQ(call_out("aten::argmax.out", {t(tf.make(ST::Half, {3}, {0.5, NAN, 2.0})), none(), b(false)}, idx),
            Error::Ok);
  EXPECT_VALUES(idx, {1});
  Tensor* sm = tf.zeros(ST::Half, {2, 3});
  ASSERT_EQ(call_out("aten::_softmax.out", {t(tf.make(ST::Half, {2, 3}, {1, 2, 3, 0.5, 0.25, -1})), i(1), b(false)}, sm),
            Error::Ok);
  EXPECT_VALUES(sm, {0.09002685546875, 0.2447509765625, 0.6650390625, 0.49951171875, 0.388916015625,
                     0.1114501953125},
                1e-3);
  Tensor* pout = tf.zeros(ST::Char, {1, 2, 1, 1});
  Tensor* pidx = tf.zeros(ST::Long, {1, 2, 1, 1});
  EValue* po = t(pout);
  EValue* pi = t(pidx);
  ASSERT_EQ(call("aten::max_pool2d_with_indices.out",
                 {t(tf.make(ST::Char, {1, 2, 2, 2}, {1, -5, 3, 4, -1, -2, -3, -4})), il({2, 2}), il({}),
                  il({0, 0}), il({1, 1}), b(false), po, pi, tf.tensor_list({pout, pidx})}),
            Error::Ok);
  EXPECT_VALUES(pout, {4, -1});
  EXPECT_VALUES(pidx, {3, 0});
  Tensor* ar = dyn(ST::Half, {8});
  ASSERT_EQ(call_out("aten::arange.start_out", {i(0), i(5), d(1.5)}, ar), Error::Ok);
  EXPECT_VALUES(ar, {0, 1.5, 3, 4.5});
}

TEST_F(Dtypes, MatmulConvertsWithAndWithoutTemp) {
  const std::vector<double> a = {1, 2, 3, 4, 5, 6};
  const std::vector<double> b = {7, 8, 9, 10, 11, 12};
  for (bool temp : {true, false}) {
    use_temp_ = temp;
    Tensor* iout = tf.zeros(ST::Int, {2, 2});
    ASSERT_EQ(call_out("aten::mm.out", {t(tf.make(ST::Int, {2, 3}, a)), t(tf.make(ST::Int, {3, 2}, b))}, iout),
              Error::Ok);
    EXPECT_VALUES(iout, {58, 64, 139, 154});
    // int8 products and sums wrap in int8.
    std::vector<double> a40(6);
    for (size_t k = 0; k < 6; ++k) a40[k] = static_cast<double>(static_cast<int8_t>(static_cast<int32_t>(a[k] * 40)));
    Tensor* c8 = tf.zeros(ST::Char, {2, 2});
    ASSERT_EQ(call_out("aten::mm.out", {t(tf.make(ST::Char, {2, 3}, a40)), t(tf.make(ST::Char, {3, 2}, b))}, c8),
              Error::Ok);
    EXPECT_VALUES(c8, {16, 0, -72, 16});
    std::vector<double> ahalf(6);
    for (size_t k = 0; k < 6; ++k) ahalf[k] = a[k] * 0.5;
    Tensor* hout = tf.zeros(ST::Half, {2, 2}, {1, 0});
    ASSERT_EQ(call_out("aten::mm.out", {t(tf.make(ST::Half, {2, 3}, ahalf)), t(tf.make(ST::Half, {3, 2}, b, {1, 0}))},
                       hout),
              Error::Ok);
    EXPECT_VALUES(hout, {29, 32, 69.5, 77});
    // Long and Float with a transposed mat2: packed with temp, converted without.
    Tensor* lout = tf.zeros(ST::Long, {2, 2});
    ASSERT_EQ(call_out("aten::mm.out", {t(tf.make(ST::Long, {2, 3}, a)), t(tf.make(ST::Long, {3, 2}, b, {1, 0}))},
                       lout),
              Error::Ok);
    EXPECT_VALUES(lout, {58, 64, 139, 154});
    Tensor* fout = tf.zeros(ST::Float, {2, 2});
    ASSERT_EQ(call_out("aten::addmm.out", {t(f32({2}, {1, -1})), t(f32({2, 3}, a)), t(tf.make(ST::Float, {3, 2}, b, {1, 0})),
                                           i(1), i(1)},
                       fout),
              Error::Ok);
    EXPECT_VALUES(fout, {59, 63, 140, 153});
  }
}

TEST_F(Dtypes, Int32TensorsRunOnInt32) {
  // Contiguous Int operands take the int32 path (add, sub, mul, comparisons);
  // it wraps like the int64 path.
  Tensor* out = tf.zeros(ST::Int, {3});
  ASSERT_EQ(call_out("aten::add.out", {t(tf.make(ST::Int, {3}, {2147483647, -5, 7})),
                                       t(tf.make(ST::Int, {3}, {1, 5, -7})), i(2)},
                     out),
            Error::Ok);
  EXPECT_VALUES(out, {-2147483647, 5, -7});
  Tensor* out2 = tf.zeros(ST::Int, {2});
  ASSERT_EQ(call_out("aten::add.Scalar_out", {t(tf.make(ST::Int, {2}, {1, 2})), i((int64_t{1} << 32) + 1), i(1)}, out2),
            Error::Ok);
  EXPECT_VALUES(out2, {2, 3});
  ASSERT_EQ(call_out("aten::mul.out", {t(tf.make(ST::Int, {2}, {65536, 3})), t(tf.make(ST::Int, {2}, {65536, -3}))}, out2),
            Error::Ok);
  EXPECT_VALUES(out2, {0, -9});
  ASSERT_EQ(call_out("aten::rsub.Scalar_out", {t(tf.make(ST::Int, {2}, {1, 2})), i(10), i(3)}, out2), Error::Ok);
  EXPECT_VALUES(out2, {7, 4});
  Tensor* b2 = tf.zeros(ST::Bool, {2});
  ASSERT_EQ(call_out("aten::eq.Tensor_out", {t(tf.make(ST::Int, {2}, {3, 4})), t(tf.make_long({}, {(int64_t{1} << 32) + 3}))}, b2),
            Error::Ok);
  EXPECT_VALUES(b2, {1, 0});
  ASSERT_EQ(call_out("aten::gt.Scalar_out", {t(tf.make(ST::Int, {2}, {3, 4})), i(3)}, b2), Error::Ok);
  EXPECT_VALUES(b2, {0, 1});
  // An Int out for a comparison takes the general path.
  ASSERT_EQ(call_out("aten::lt.Scalar_out", {t(tf.make(ST::Int, {2}, {3, 4})), i(4)}, out2), Error::Ok);
  EXPECT_VALUES(out2, {1, 0});
  // 5000 elements: several 4096-element chunks.
  std::vector<double> v(5000), twice(5000);
  for (size_t k = 0; k < v.size(); ++k) {
    v[k] = static_cast<double>(k);
    twice[k] = static_cast<double>(2 * k);
  }
  Tensor* big = tf.zeros(ST::Int, {5000});
  ASSERT_EQ(call_out("aten::add.out", {t(tf.make(ST::Int, {5000}, v)), t(tf.make(ST::Int, {5000}, v)), i(1)}, big),
            Error::Ok);
  EXPECT_VALUES(big, twice);
}

}  // namespace
}  // namespace tri::testing
