// permute, alias, view, unsqueeze, squeeze, slice, select, expand, clone,
// _to_copy and the dim-order copies.
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class Shape : public KernelTest {
 protected:
  std::vector<double> iota(int n) {
    std::vector<double> v(n);
    for (int k = 0; k < n; ++k) v[k] = k;
    return v;
  }
};

TEST_F(Shape, PermuteCopy) {
  Tensor* out = tf.zeros(ST::Float, {4, 2, 3});
  ASSERT_EQ(call_out("aten::permute_copy.out", {t(f32({2, 3, 4}, iota(24))), il({2, 0, -2})}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23});
  // Into a channels-last out.
  Tensor* cl = tf.zeros(ST::Float, {1, 2, 2, 2}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("aten::permute_copy.out", {t(f32({1, 2, 2, 2}, iota(8))), il({0, 1, 3, 2})}, cl), Error::Ok);
  EXPECT_VALUES(cl, {0, 2, 1, 3, 4, 6, 5, 7});
  EXPECT_KERNEL_ERROR(call_out("aten::permute_copy.out", {t(f32({2, 3}, iota(6))), il({0, 0})}, tf.zeros(ST::Float, {2, 3})),
                      Error::InvalidArgument, "dim 0 is repeated");
  EXPECT_KERNEL_ERROR(call_out("aten::permute_copy.out", {t(f32({2, 3}, iota(6))), il({0})}, tf.zeros(ST::Float, {2, 3})),
                      Error::InvalidArgument, "dims has 1 entries for a rank-2 tensor");
}

TEST_F(Shape, AliasCloneToCopy) {
  Tensor* out = tf.zeros(ST::Float, {2, 2});
  ASSERT_EQ(call_out("aten::alias_copy.out", {t(f32({2, 2}, {1, 2, 3, 4}))}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 2, 3, 4});
  Tensor* cl = tf.zeros(ST::Float, {1, 2, 1, 2}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("aten::clone.out", {t(f32({1, 2, 1, 2}, {1, 2, 3, 4})), none()}, cl), Error::Ok);
  EXPECT_VALUES(cl, {1, 2, 3, 4});
  EXPECT_EQ(cl->data_ptr<float>()[1], 3);  // stored NHWC
  EXPECT_KERNEL_ERROR(call_out("aten::clone.out", {t(f32({1, 2, 1, 2}, {1, 2, 3, 4})), i(0)}, cl),
                      Error::InvalidArgument, "memory_format contiguous, but out is not contiguous");
  Tensor* lout = tf.zeros(ST::Long, {3});
  ASSERT_EQ(call_out("aten::_to_copy.out", {t(f32({3}, {-1.7, 0.5, 2.9})), b(false), none()}, lout), Error::Ok);
  EXPECT_VALUES(lout, {-1, 0, 2});
  Tensor* bout = tf.zeros(ST::Bool, {3});
  ASSERT_EQ(call_out("aten::_to_copy.out", {t(f32({3}, {0, 0.5, -2})), b(false), none()}, bout), Error::Ok);
  EXPECT_VALUES(bout, {0, 1, 1});
  Tensor* hout = tf.zeros(ST::Half, {2});
  ASSERT_EQ(call_out("aten::_to_copy.out", {t(f32({2}, {65504, 1e-8})), b(false), i(1)}, hout), Error::Ok);
  EXPECT_VALUES(hout, {65504, 0});
  EXPECT_KERNEL_ERROR(call_out("aten::_to_copy.out", {t(f32({2}, {1, 2})), i(0), none()}, tf.zeros(ST::Float, {2})),
                      Error::InvalidType, "argument 1: expected Bool, got Int");
}

TEST_F(Shape, ViewCopy) {
  Tensor* out = tf.zeros(ST::Float, {3, 2});
  ASSERT_EQ(call_out("aten::view_copy.out", {t(f32({2, 3}, iota(6))), il({-1, 2})}, out), Error::Ok);
  EXPECT_VALUES(out, iota(6));
  // A channels-last input is read in logical order.
  Tensor* cl = tf.make(ST::Float, {1, 2, 1, 2}, {0, 1, 2, 3}, {0, 2, 3, 1});
  Tensor* flat = tf.zeros(ST::Float, {4});
  ASSERT_EQ(call_out("aten::view_copy.out", {t(cl), il({4})}, flat), Error::Ok);
  EXPECT_VALUES(flat, {0, 1, 2, 3});
  // Both sides non-contiguous.
  Tensor* cl2 = tf.zeros(ST::Float, {1, 1, 2, 2}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("aten::view_copy.out", {t(tf.make(ST::Float, {2, 2}, {0, 1, 2, 3}, {1, 0})), il({1, 1, 2, 2})}, cl2),
            Error::Ok);
  EXPECT_VALUES(cl2, {0, 1, 2, 3});
  EXPECT_KERNEL_ERROR(call_out("aten::view_copy.out", {t(f32({2, 3}, iota(6))), il({4, -1})}, out),
                      Error::InvalidArgument, "shape [4, -1] is invalid for input of size 6");
  EXPECT_KERNEL_ERROR(call_out("aten::view_copy.out", {t(f32({2, 3}, iota(6))), il({-1, -1})}, out),
                      Error::InvalidArgument, "only one dimension can be inferred");
}

TEST_F(Shape, UnsqueezeSqueeze) {
  Tensor* out = tf.zeros(ST::Long, {2, 1});
  ASSERT_EQ(call_out("aten::unsqueeze_copy.out", {t(tf.make(ST::Long, {2}, {1, 2})), i(-1)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 2});
  EXPECT_KERNEL_ERROR(call_out("aten::unsqueeze_copy.out", {t(tf.make(ST::Long, {2}, {1, 2})), i(2)}, out),
                      Error::InvalidArgument, "expected to be in range of [-2, 1], but got 2");
  Tensor* sq = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::squeeze_copy.dims_out", {t(f32({1, 3, 1}, {1, 2, 3})), il({0, -1})}, sq), Error::Ok);
  EXPECT_VALUES(sq, {1, 2, 3});
  ASSERT_EQ(call_out("aten::squeeze_copy.out", {t(f32({1, 3, 1}, {1, 2, 3}))}, sq), Error::Ok);
  // A listed dim that is not size 1 stays.
  Tensor* kept = tf.zeros(ST::Float, {3, 1});
  ASSERT_EQ(call_out("aten::squeeze_copy.dim_out", {t(f32({1, 3, 1}, {1, 2, 3})), i(0)}, kept), Error::Ok);
  Tensor* same = tf.zeros(ST::Float, {1, 3, 1});
  ASSERT_EQ(call_out("aten::squeeze_copy.dim_out", {t(f32({1, 3, 1}, {1, 2, 3})), i(1)}, same), Error::Ok);
  EXPECT_KERNEL_ERROR(call_out("aten::squeeze_copy.dims_out", {t(f32({1, 3, 1}, {1, 2, 3})), il({3})}, sq),
                      Error::InvalidArgument, "but got 3");
}

TEST_F(Shape, SliceSelectExpand) {
  Tensor* out = dyn(ST::Float, {4, 6});
  ASSERT_EQ(call_out("aten::slice_copy.Tensor_out", {t(f32({4, 6}, iota(24))), i(1), i(1), i(-1), i(2)}, out), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{4, 2}));
  EXPECT_VALUES(out, {1, 3, 7, 9, 13, 15, 19, 21});
  ASSERT_EQ(call_out("aten::slice_copy.Tensor_out", {t(f32({4, 6}, iota(24))), i(0), i(-2), none(), i(1)}, out), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 6}));
  ASSERT_EQ(call_out("aten::slice_copy.Tensor_out", {t(f32({4, 6}, iota(24))), i(0), i(10), i(20), i(1)}, out), Error::Ok);
  EXPECT_EQ(out->numel(), 0u);
  EXPECT_KERNEL_ERROR(call_out("aten::slice_copy.Tensor_out", {t(f32({4, 6}, iota(24))), i(0), none(), none(), i(0)}, out),
                      Error::InvalidArgument, "slice step must be positive");
  Tensor* row = tf.zeros(ST::Float, {6});
  ASSERT_EQ(call_out("aten::select_copy.int_out", {t(f32({4, 6}, iota(24))), i(0), i(-1)}, row), Error::Ok);
  EXPECT_VALUES(row, {18, 19, 20, 21, 22, 23});
  EXPECT_KERNEL_ERROR(call_out("aten::select_copy.int_out", {t(f32({4, 6}, iota(24))), i(0), i(4)}, row),
                      Error::InvalidArgument, "index 4 out of range for tensor of size 4 at dimension 0");
  Tensor* ex = tf.zeros(ST::Float, {2, 2, 3});
  ASSERT_EQ(call_out("aten::expand_copy.out", {t(f32({2, 1}, {1, 2})), il({2, -1, 3}), b(false)}, ex), Error::Ok);
  EXPECT_VALUES(ex, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2});
  EXPECT_KERNEL_ERROR(call_out("aten::expand_copy.out", {t(f32({2, 3}, iota(6))), il({2, 4}), b(false)}, ex),
                      Error::InvalidArgument, "expanded size (4) must match the existing size (3) at non-singleton dimension 1");
}

TEST_F(Shape, DimOrderCopies) {
  // The corpus pattern: a Long 0-dim to Float, dim_order [].
  Tensor* out = tf.zeros(ST::Float, {});
  ASSERT_EQ(call_out("dim_order_ops::_to_dim_order_copy.out", {t(tf.make(ST::Long, {}, {7})), b(false), il({})}, out),
            Error::Ok);
  EXPECT_VALUES(out, {7});
  // Contiguous to channels-last.
  Tensor* cl = tf.zeros(ST::Float, {1, 2, 1, 2}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("dim_order_ops::_to_dim_order_copy.out",
                     {t(f32({1, 2, 1, 2}, {1, 2, 3, 4})), b(false), il({0, 2, 3, 1})}, cl),
            Error::Ok);
  EXPECT_VALUES(cl, {1, 2, 3, 4});
  EXPECT_KERNEL_ERROR(call_out("dim_order_ops::_to_dim_order_copy.out",
                               {t(f32({1, 2, 1, 2}, {1, 2, 3, 4})), b(false), il({0, 1, 2, 3})}, cl),
                      Error::InvalidArgument, "dim_order[1] is 1 but out's dim order has 2 there");
  EXPECT_KERNEL_ERROR(call_out("dim_order_ops::_to_dim_order_copy.out",
                               {t(f32({1, 2, 1, 2}, {1, 2, 3, 4})), b(false), none()}, cl),
                      Error::InvalidArgument, "dim_order is None but out's dim order differs");
  Tensor* i8 = tf.zeros(ST::Char, {1, 2, 1, 2}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("dim_order_ops::_clone_dim_order.out",
                     {t(tf.make(ST::Char, {1, 2, 1, 2}, {1, -2, 3, -4})), b(false), il({0, 2, 3, 1})}, i8),
            Error::Ok);
  EXPECT_VALUES(i8, {1, -2, 3, -4});
  EXPECT_KERNEL_ERROR(call_out("dim_order_ops::_clone_dim_order.out",
                               {t(f32({1, 2, 1, 2}, {1, 2, 3, 4})), b(false), il({0, 2, 3, 1})}, i8),
                      Error::InvalidType, "out: dtype Char, expected Float");
}

}  // namespace
}  // namespace tri::testing
