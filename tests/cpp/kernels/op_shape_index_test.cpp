// index_put, scatter_add, scatter_reduce, select/slice_scatter,
// masked_select/scatter, nonzero, copy, full/zeros/ones/empty, and the
// random ops (properties only). Expected values from PyTorch 1.13.
#include <cmath>
#include <set>

#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class ShapeIndex : public KernelTest {
 protected:
  std::vector<double> iota(int n, double from = 0) {
    std::vector<double> v(n);
    for (int k = 0; k < n; ++k) v[k] = from + k;
    return v;
  }
  Tensor* longs(std::vector<SizesType> sizes, const std::vector<double>& v) {
    return tf.make(ST::Long, std::move(sizes), v);
  }
};

TEST_F(ShapeIndex, IndexPut) {
  Tensor* out = tf.zeros(ST::Float, {3, 4});
  EValue* idx = tf.tensor_list({longs({3}, {0, 2, 0})}, true);
  ASSERT_EQ(call_out("aten::index_put.out", {t(f32({3, 4}, iota(12))), idx, t(f32({4}, {1, 2, 3, 4})), b(true)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {2, 5, 8, 11, 4, 5, 6, 7, 9, 11, 13, 15});
  EValue* idx2 = tf.tensor_list({longs({2}, {0, 2}), longs({2}, {-1, 1})}, true);
  ASSERT_EQ(call_out("aten::index_put.out", {t(f32({3, 4}, iota(12))), idx2, t(f32({}, {-5})), b(false)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {0, 1, 2, -5, 4, 5, 6, 7, 8, -5, 10, 11});
  // A None entry and a Bool mask.
  EValue* idx3 = tf.tensor_list({nullptr, tf.make(ST::Bool, {4}, {1, 0, 0, 1})}, true);
  ASSERT_EQ(call_out("aten::index_put.out", {t(f32({3, 4}, iota(12))), idx3, t(f32({1}, {9})), b(false)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {9, 1, 2, 9, 9, 5, 6, 9, 9, 9, 10, 9});
  EXPECT_KERNEL_ERROR(call_out("aten::index_put.out", {t(f32({3, 4}, iota(12))), idx, t(tf.make(ST::Double, {4}, iota(4))), b(false)}, out),
                      Error::InvalidType, "Index put requires the source and destination dtypes match");
  EXPECT_KERNEL_ERROR(call_out("aten::index_put.out", {t(f32({3, 4}, iota(12))), idx, t(f32({3}, iota(3))), b(false)}, out),
                      Error::InvalidArgument, "shape mismatch");
  EValue* bad = tf.tensor_list({longs({1}, {3})}, true);
  EXPECT_KERNEL_ERROR(call_out("aten::index_put.out", {t(f32({3, 4}, iota(12))), bad, t(f32({}, {1})), b(false)}, out),
                      Error::InvalidArgument, "index 3 is out of bounds for dimension 0 with size 3");
}

TEST_F(ShapeIndex, ScatterAddReduce) {
  Tensor* idx = longs({2, 3}, {0, 1, 0, 2, 0, 0});
  Tensor* src = f32({2, 3}, iota(6, 1));
  Tensor* out = tf.zeros(ST::Float, {3, 3});
  ASSERT_EQ(call_out("aten::scatter_add.out", {t(tf.zeros(ST::Float, {3, 3})), i(0), t(idx), t(src)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 5, 9, 0, 2, 0, 4, 0, 0});
  struct Case { const char* reduce; bool include_self; std::vector<double> expected; };
  const Case cases[] = {
      {"sum", true, {2, 6, 10, 1, 3, 1, 5, 1, 1}},
      {"prod", false, {1, 5, 18, 1, 2, 1, 4, 1, 1}},
      {"mean", true, {1, 3, 3.3333332538604736, 1, 1.5, 1, 2.5, 1, 1}},
      {"mean", false, {1, 5, 4.5, 1, 2, 1, 4, 1, 1}},
      {"amax", true, {1, 5, 6, 1, 2, 1, 4, 1, 1}},
      {"amin", false, {1, 5, 3, 1, 2, 1, 4, 1, 1}},
  };
  for (const Case& c : cases) {
    ASSERT_EQ(call("aten::scatter_reduce.two_out",
                   {t(f32({3, 3}, std::vector<double>(9, 1))), i(0), t(idx), t(src), str(c.reduce),
                    b(c.include_self), t(out), t(out)}), Error::Ok) << c.reduce;
    EXPECT_VALUES(out, c.expected, 1e-7) << c.reduce << " " << c.include_self;
  }
  // int8: wrapping sums, floor division for mean, dtype-range identity for amax.
  Tensor* i8 = tf.zeros(ST::Char, {3, 3});
  Tensor* s8 = tf.make(ST::Char, {2, 3}, {50, 100, -106, -56, -6, 44});
  ASSERT_EQ(call("aten::scatter_reduce.two_out", {t(tf.make(ST::Char, {3, 3}, std::vector<double>(9, 3))), i(0), t(idx),
                                                  t(s8), str("mean"), b(true), t(i8), t(i8)}), Error::Ok);
  EXPECT_VALUES(i8, {26, -2, -20, 3, 51, 3, -27, 3, 3});
  ASSERT_EQ(call("aten::scatter_reduce.two_out", {t(tf.make(ST::Char, {3, 3}, std::vector<double>(9, 3))), i(0), t(idx),
                                                  t(tf.make(ST::Char, {2, 3}, iota(6, 1))), str("amax"), b(false), t(i8), t(i8)}),
            Error::Ok);
  EXPECT_VALUES(i8, {1, 5, 6, 3, 2, 3, 4, 3, 3});
  EXPECT_KERNEL_ERROR(call("aten::scatter_reduce.two_out", {t(f32({3, 3}, iota(9))), i(0), t(idx), t(src), str("max"),
                                                            b(true), t(out), t(out)}),
                      Error::InvalidArgument, "reduce argument must be either sum, prod, mean, amax or amin");
  use_temp_ = false;
  EXPECT_KERNEL_ERROR(call("aten::scatter_reduce.two_out", {t(f32({3, 3}, iota(9))), i(0), t(idx), t(src), str("mean"),
                                                            b(true), t(out), t(out)}),
                      Error::MemoryAllocationFailed, "needs temp memory");
  use_temp_ = true;
  EXPECT_KERNEL_ERROR(call_out("aten::scatter_add.out", {t(f32({3, 3}, iota(9))), i(0), t(longs({1}, {3})), t(src)}, out),
                      Error::InvalidArgument, "index must have the same number of dimensions");
  EXPECT_KERNEL_ERROR(call_out("aten::scatter_add.out", {t(f32({3, 3}, iota(9))), i(1), t(longs({1, 1}, {3})), t(src)}, out),
                      Error::InvalidArgument, "index 3 is out of bounds for dimension 1 with size 3");
}

TEST_F(ShapeIndex, SelectSliceScatter) {
  Tensor* out = tf.zeros(ST::Float, {2, 3});
  ASSERT_EQ(call_out("aten::select_scatter.out", {t(f32({2, 3}, iota(6))), t(f32({2}, {7, 8})), i(1), i(-1)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {0, 1, 7, 3, 4, 8});
  EXPECT_KERNEL_ERROR(call_out("aten::select_scatter.out", {t(f32({2, 3}, iota(6))), t(f32({3}, {7, 8, 9})), i(1), i(0)}, out),
                      Error::InvalidArgument, "expected src to have a size equal to the slice");
  Tensor* out2 = tf.zeros(ST::Float, {2, 5});
  ASSERT_EQ(call_out("aten::slice_scatter.out", {t(tf.zeros(ST::Float, {2, 5})), t(f32({2, 2}, {1, 1, 1, 1})), i(1), i(1),
                                                 none(), i(2)}, out2), Error::Ok);
  EXPECT_VALUES(out2, {0, 1, 0, 1, 0, 0, 1, 0, 1, 0});
  EXPECT_KERNEL_ERROR(call_out("aten::slice_scatter.out", {t(tf.zeros(ST::Float, {2, 5})), t(f32({2, 2}, {1, 1, 1, 1})),
                                                           i(1), i(1), none(), i(0)}, out2),
                      Error::InvalidArgument, "slice step must be positive");
}

TEST_F(ShapeIndex, MaskedAndNonzero) {
  Tensor* out = dyn(ST::Float, {6});
  ASSERT_EQ(call_out("aten::masked_select.out", {t(f32({2, 3}, iota(6))), t(tf.make(ST::Bool, {3}, {1, 0, 1}))}, out),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), std::vector<SizesType>({4}));
  EXPECT_VALUES(out, {0, 2, 3, 5});
  EXPECT_KERNEL_ERROR(call_out("aten::masked_select.out", {t(f32({2, 3}, iota(6))), t(tf.make(ST::Byte, {3}, {1, 0, 1}))}, out),
                      Error::InvalidType, "mask: dtype Byte, expected Bool");
  Tensor* ms = tf.zeros(ST::Float, {2, 3});
  ASSERT_EQ(call_out("aten::masked_scatter.out", {t(f32({2, 3}, iota(6))), t(tf.make(ST::Bool, {2, 1}, {1, 0})),
                                                  t(f32({4}, {10, 20, 30, 40}))}, ms), Error::Ok);
  EXPECT_VALUES(ms, {10, 20, 30, 3, 4, 5});
  EXPECT_KERNEL_ERROR(call_out("aten::masked_scatter.out", {t(f32({2, 3}, iota(6))), t(tf.make(ST::Bool, {2, 1}, {1, 1})),
                                                            t(f32({4}, {10, 20, 30, 40}))}, ms),
                      Error::InvalidArgument, "Number of elements of source (4) < number of ones in mask (6)");
  Tensor* nz = dyn(ST::Long, {6, 2});
  ASSERT_EQ(call_out("aten::nonzero.out", {t(f32({2, 3}, {0, 1, 0, NAN, -0.0, 2}))}, nz), Error::Ok);
  EXPECT_EQ(sizes_of(*nz), std::vector<SizesType>({3, 2}));
  EXPECT_VALUES(nz, {0, 1, 1, 0, 1, 2});
  EXPECT_KERNEL_ERROR(call_out("aten::nonzero.out", {t(f32({2}, {1, 0}))}, tf.zeros(ST::Int, {1, 1})),
                      Error::InvalidType, "out: dtype Int, expected Long");
}

TEST_F(ShapeIndex, CopyAndFactories) {
  Tensor* out = tf.zeros(ST::Float, {2, 3});
  // src -> Int self -> Float out: truncated on the way.
  ASSERT_EQ(call_out("aten::copy.out", {t(tf.zeros(ST::Int, {2, 3})), t(f32({3}, {1.5, -2.7, 3.2})), b(false)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {1, -2, 3, 1, -2, 3});
  EXPECT_KERNEL_ERROR(call_out("aten::copy.out", {t(tf.zeros(ST::Int, {2, 3})), t(f32({2}, {1, 2})), b(false)}, out),
                      Error::InvalidArgument, "must match the size of self");
  Tensor* f = tf.zeros(ST::Long, {2});
  ASSERT_EQ(call_out("aten::full.out", {il({2}), d(1.5)}, f), Error::Ok);
  EXPECT_VALUES(f, {1, 1});
  EXPECT_KERNEL_ERROR(call_out("aten::full.out", {il({-1, 2}), i(1)}, f), Error::InvalidArgument,
                      "Trying to create tensor with negative dimension -1: [-1, 2]");
  EXPECT_KERNEL_ERROR(call_out("aten::full.out", {il({2}), i(300)}, tf.zeros(ST::Byte, {2})), Error::InvalidArgument,
                      "cannot be converted to type Byte");
  Tensor* z = tf.zeros(ST::Half, {2, 2});
  ASSERT_EQ(call_out("aten::ones.out", {il({2, 2})}, z), Error::Ok);
  EXPECT_VALUES(z, {1, 1, 1, 1});
  ASSERT_EQ(call_out("aten::zeros.out", {il({2, 2})}, z), Error::Ok);
  EXPECT_VALUES(z, {0, 0, 0, 0});
  Tensor* e = dyn(ST::Float, {4, 4});
  ASSERT_EQ(call_out("aten::empty.out", {il({3, 2}), none()}, e), Error::Ok);
  EXPECT_EQ(sizes_of(*e), std::vector<SizesType>({3, 2}));
  EXPECT_KERNEL_ERROR(call_out("aten::empty.out", {il({3, 2}), i(2)}, e), Error::InvalidArgument, "channels_last");
}

TEST_F(ShapeIndex, RandomOps) {
  Tensor* r = tf.zeros(ST::Float, {1000});
  ASSERT_EQ(call_out("aten::rand.out", {il({1000})}, r), Error::Ok);
  double sum = 0;
  for (double v : TensorFactory::values(*r)) {
    EXPECT_TRUE(v >= 0 && v < 1) << v;
    sum += v;
  }
  EXPECT_NEAR(sum / 1000, 0.5, 0.05);
  Tensor* bf = tf.zeros(ST::BFloat16, {1000});
  ASSERT_EQ(call_out("aten::rand.out", {il({1000})}, bf), Error::Ok);
  for (double v : TensorFactory::values(*bf)) EXPECT_TRUE(v >= 0 && v < 1) << v;
  Tensor* n = tf.zeros(ST::Double, {2000});
  ASSERT_EQ(call_out("aten::randn.out", {il({2000})}, n), Error::Ok);
  double m = 0, m2 = 0;
  for (double v : TensorFactory::values(*n)) {
    m += v / 2000;
    m2 += v * v / 2000;
  }
  EXPECT_NEAR(m, 0, 0.1);
  EXPECT_NEAR(m2, 1, 0.15);
  EXPECT_KERNEL_ERROR(call_out("aten::rand.out", {il({2})}, tf.zeros(ST::Long, {2})), Error::InvalidType,
                      "out: dtype Long is not supported");
  Tensor* p = tf.zeros(ST::Short, {100});
  ASSERT_EQ(call_out("aten::randperm.out", {i(100)}, p), Error::Ok);
  std::set<double> seen;
  for (double v : TensorFactory::values(*p)) seen.insert(v);
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(*seen.begin(), 0);
  EXPECT_EQ(*seen.rbegin(), 99);
  EXPECT_KERNEL_ERROR(call_out("aten::randperm.out", {i(300)}, tf.zeros(ST::Byte, {300})), Error::InvalidArgument,
                      "n cannot be greater than 256");
  EXPECT_KERNEL_ERROR(call_out("aten::randperm.out", {i(-1)}, p), Error::InvalidArgument, "non-negative");
  Tensor* x = f32({1000}, std::vector<double>(1000, 2));
  Tensor* o = tf.zeros(ST::Float, {1000});
  Tensor* mask = tf.zeros(ST::Bool, {1000});
  ASSERT_EQ(call("aten::native_dropout.out", {t(x), d(0.25), none(), t(o), t(mask), none()}), Error::Ok);
  const std::vector<double> ov = TensorFactory::values(*o);
  const std::vector<double> mv = TensorFactory::values(*mask);
  int kept = 0;
  for (size_t k = 0; k < ov.size(); ++k) {
    EXPECT_NEAR(ov[k], mv[k] ? 2 / 0.75 : 0, 1e-6);
    kept += mv[k] ? 1 : 0;
  }
  EXPECT_NEAR(kept / 1000.0, 0.75, 0.06);
  ASSERT_EQ(call("aten::native_dropout.out", {t(x), d(0.25), b(false), t(o), t(mask), none()}), Error::Ok);
  EXPECT_VALUES(o, std::vector<double>(1000, 2));
  EXPECT_VALUES(mask, std::vector<double>(1000, 1));
  EXPECT_KERNEL_ERROR(call("aten::native_dropout.out", {t(x), d(1.5), b(true), t(o), t(mask), none()}),
                      Error::InvalidArgument, "between 0 and 1");
}

}  // namespace
}  // namespace tri::testing
