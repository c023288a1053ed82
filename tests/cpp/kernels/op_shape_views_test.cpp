// cat, stack, split/unbind, repeat, flip, roll, transpose/t, diagonal,
// as_strided, narrow, unfold, detach/lift_fresh, tril/triu, padding.
// Expected values from PyTorch 1.13.
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class ShapeViews : public KernelTest {
 protected:
  std::vector<double> iota(int n, double from = 0) {
    std::vector<double> v(n);
    for (int k = 0; k < n; ++k) v[k] = from + k;
    return v;
  }
  EValue* tl(const std::vector<Tensor*>& items) { return tf.tensor_list(items); }
};

TEST_F(ShapeViews, CatStack) {
  Tensor* out = tf.zeros(ST::Float, {3, 3});
  ASSERT_EQ(call_out("aten::cat.out", {tl({f32({2, 3}, iota(6)), f32({1, 3}, iota(3, 10)),
                                           f32({0}, {})}), i(0)}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 1, 2, 3, 4, 5, 10, 11, 12});
  // Int + Float promote to Float; negative dim.
  Tensor* out2 = tf.zeros(ST::Float, {2, 4});
  ASSERT_EQ(call_out("aten::cat.out", {tl({tf.make(ST::Int, {2, 3}, iota(6)),
                                           tf.make(ST::Float, {2, 1}, {1, 1})}), i(-1)}, out2),
            Error::Ok);
  EXPECT_VALUES(out2, {0, 1, 2, 1, 3, 4, 5, 1});
  EXPECT_KERNEL_ERROR(call_out("aten::cat.out", {tl({f32({2}, {1, 2})}), i(0)},
                               tf.zeros(ST::Long, {2})),
                      Error::InvalidType, "can't be cast to the desired output type Long");
  EXPECT_KERNEL_ERROR(call_out("aten::cat.out", {tl({f32({2, 3}, iota(6)), f32({2, 2}, iota(4))}),
                                                 i(0)}, tf.zeros(ST::Float, {4, 3})),
                      Error::InvalidArgument, "sizes of tensors must match except in dimension 0");
  EXPECT_KERNEL_ERROR(call_out("aten::cat.out", {tl({}), i(0)}, tf.zeros(ST::Float, {0})),
                      Error::InvalidArgument, "non-empty list");
  Tensor* st = tf.zeros(ST::Float, {2, 3, 2});
  ASSERT_EQ(call_out("aten::stack.out", {tl({f32({2, 3}, iota(6)), f32({2, 3}, iota(6, 10))}),
                                         i(-1)}, st), Error::Ok);
  EXPECT_VALUES(st, {0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15});
  EXPECT_KERNEL_ERROR(call_out("aten::stack.out", {tl({f32({2}, {1, 2}), f32({3}, {1, 2, 3})}),
                                                   i(0)}, tf.zeros(ST::Float, {2, 2})),
                      Error::InvalidArgument, "stack expects each tensor to be equal size");
}

TEST_F(ShapeViews, SplitUnbind) {
  Tensor* a = tf.zeros(ST::Float, {2, 2});
  Tensor* b = tf.zeros(ST::Float, {2, 1});
  ASSERT_EQ(call("aten::split_copy.Tensor_out", {t(f32({2, 3}, iota(6))), i(2), i(-1), tl({a, b}), tl({a, b})}),
            Error::Ok);
  EXPECT_VALUES(a, {0, 1, 3, 4});
  EXPECT_VALUES(b, {2, 5});
  EXPECT_KERNEL_ERROR(call("aten::split_copy.Tensor_out", {t(f32({2, 3}, iota(6))), i(1), i(1), tl({a, b}), tl({a, b})}),
                      Error::InvalidArgument, "expected 3 tensors");
  Tensor* c = tf.zeros(ST::Long, {1, 3});
  Tensor* d = tf.zeros(ST::Long, {0, 3});
  Tensor* e = tf.zeros(ST::Long, {1, 3});
  ASSERT_EQ(call("aten::split_with_sizes_copy.out", {t(f32({2, 3}, iota(6))), il({1, 0, 1}), i(0), tl({c, d, e}), tl({c, d, e})}),
            Error::Ok);
  EXPECT_VALUES(c, {0, 1, 2});
  EXPECT_VALUES(e, {3, 4, 5});
  EXPECT_KERNEL_ERROR(call("aten::split_with_sizes_copy.out", {t(f32({2, 3}, iota(6))), il({1, 3}), i(0), tl({c, e}), tl({c, e})}),
                      Error::InvalidArgument, "split_sizes[1] = 3 is not in [0, 2]");
  Tensor* u0 = tf.zeros(ST::Float, {2});
  Tensor* u1 = tf.zeros(ST::Float, {2});
  Tensor* u2 = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call("aten::unbind_copy.int_out", {t(f32({2, 3}, iota(6))), i(1), tl({u0, u1, u2}), tl({u0, u1, u2})}), Error::Ok);
  EXPECT_VALUES(u1, {1, 4});
  EXPECT_KERNEL_ERROR(call("aten::unbind_copy.int_out", {t(f32({}, {1})), i(0), tl({u0}), tl({u0})}),
                      Error::InvalidArgument, "at least a 1-dimensional tensor");
}

TEST_F(ShapeViews, RepeatFlipRoll) {
  Tensor* out = tf.zeros(ST::Float, {2, 3, 2});
  ASSERT_EQ(call_out("aten::repeat.out", {t(f32({3, 1}, iota(3))), il({2, 1, 2})}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2});
  Tensor* out2 = tf.zeros(ST::Float, {4, 6});
  ASSERT_EQ(call_out("aten::repeat.out", {t(f32({2, 3}, iota(6))), il({2, 2})}, out2), Error::Ok);
  EXPECT_VALUES(out2, {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5});
  EXPECT_KERNEL_ERROR(call_out("aten::repeat.out", {t(f32({2, 3}, iota(6))), il({2})}, out2),
                      Error::InvalidArgument, "can not be smaller than number of dimensions");
  EXPECT_KERNEL_ERROR(call_out("aten::repeat.out", {t(f32({2, 3}, iota(6))), il({-1, 2})}, out2),
                      Error::InvalidArgument, "negative dimension -1");
  EXPECT_KERNEL_ERROR(call_out("aten::repeat.out", {t(f32({2, 3}, iota(6))), il({INT64_MAX, 2})}, out2),
                      Error::InvalidArgument, "too large");
  Tensor* f = tf.zeros(ST::Float, {2, 3});
  ASSERT_EQ(call_out("aten::flip.out", {t(f32({2, 3}, iota(6))), il({0, -1})}, f), Error::Ok);
  EXPECT_VALUES(f, {5, 4, 3, 2, 1, 0});
  EXPECT_KERNEL_ERROR(call_out("aten::flip.out", {t(f32({2, 3}, iota(6))), il({0, -2})}, f),
                      Error::InvalidArgument, "appears multiple times");
  ASSERT_EQ(call_out("aten::roll.out", {t(f32({2, 3}, iota(6))), il({1}), il({1})}, f), Error::Ok);
  EXPECT_VALUES(f, {2, 0, 1, 5, 3, 4});
  ASSERT_EQ(call_out("aten::roll.out", {t(f32({2, 3}, iota(6))), il({-1, 4}), il({0, 1})}, f), Error::Ok);
  EXPECT_VALUES(f, {5, 3, 4, 2, 0, 1});
  // Flattened roll of a channels-last tensor, into a contiguous out.
  Tensor* cl = tf.make(ST::Float, {1, 2, 1, 3}, iota(6), {0, 2, 3, 1});
  Tensor* r = tf.zeros(ST::Float, {1, 2, 1, 3});
  ASSERT_EQ(call_out("aten::roll.out", {t(cl), il({2}), il({})}, r), Error::Ok);
  EXPECT_VALUES(r, {4, 5, 0, 1, 2, 3});
  EXPECT_KERNEL_ERROR(call_out("aten::roll.out", {t(f32({2, 3}, iota(6))), il({1, 2}), il({0})}, f),
                      Error::InvalidArgument, "shifts and dimensions must align");
}

TEST_F(ShapeViews, ViewCopies) {
  Tensor* tr = tf.zeros(ST::Float, {3, 2});
  ASSERT_EQ(call_out("aten::transpose_copy.int_out", {t(f32({2, 3}, iota(6))), i(-1), i(0)}, tr), Error::Ok);
  EXPECT_VALUES(tr, {0, 3, 1, 4, 2, 5});
  ASSERT_EQ(call_out("aten::t_copy.out", {t(f32({2, 3}, iota(6)))}, tr), Error::Ok);
  EXPECT_VALUES(tr, {0, 3, 1, 4, 2, 5});
  EXPECT_KERNEL_ERROR(call_out("aten::t_copy.out", {t(f32({1, 1, 1}, {1}))}, tr),
                      Error::InvalidArgument, "<= 2 dimensions");
  Tensor* dg = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::diagonal_copy.out", {t(f32({3, 4}, iota(12))), i(1), i(0), i(1)}, dg), Error::Ok);
  EXPECT_VALUES(dg, {1, 6, 11});
  Tensor* dg2 = tf.zeros(ST::Float, {3, 2});
  ASSERT_EQ(call_out("aten::diagonal_copy.out", {t(f32({2, 3, 4}, iota(24))), i(-1), i(-1), i(0)}, dg2), Error::Ok);
  EXPECT_VALUES(dg2, {1, 14, 5, 18, 9, 22});
  EXPECT_KERNEL_ERROR(call_out("aten::diagonal_copy.out", {t(f32({2, 3}, iota(6))), i(0), i(1), i(-1)}, dg),
                      Error::InvalidArgument, "diagonal dimensions cannot be identical");
  Tensor* as = tf.zeros(ST::Float, {2, 2});
  ASSERT_EQ(call_out("aten::as_strided_copy.out", {t(f32({9}, iota(9))), il({2, 2}), il({3, 1}), i(1)}, as), Error::Ok);
  EXPECT_VALUES(as, {1, 2, 4, 5});
  EXPECT_KERNEL_ERROR(call_out("aten::as_strided_copy.out", {t(f32({9}, iota(9))), il({2, 2}), il({5, 1}), i(4)}, as),
                      Error::InvalidArgument, "reaches element 10 of a storage of 9");
  EXPECT_KERNEL_ERROR(call_out("aten::as_strided_copy.out", {t(f32({9}, iota(9))), il({2, 2}), il({INT64_MAX, 1}), none()}, as),
                      Error::InvalidArgument, "of a storage of 9");
  Tensor* nw = tf.zeros(ST::Float, {2, 2});
  ASSERT_EQ(call_out("aten::narrow_copy.out", {t(f32({2, 3}, iota(6))), i(1), i(-2), i(2)}, nw), Error::Ok);
  EXPECT_VALUES(nw, {1, 2, 4, 5});
  EXPECT_KERNEL_ERROR(call_out("aten::narrow_copy.out", {t(f32({2, 3}, iota(6))), i(1), i(2), i(2)}, nw),
                      Error::InvalidArgument, "start (2) + length (2) exceeds dimension size (3)");
  Tensor* uf = tf.zeros(ST::Float, {3, 3});
  ASSERT_EQ(call_out("aten::unfold_copy.out", {t(f32({7}, iota(7))), i(0), i(3), i(2)}, uf), Error::Ok);
  EXPECT_VALUES(uf, {0, 1, 2, 2, 3, 4, 4, 5, 6});
  EXPECT_KERNEL_ERROR(call_out("aten::unfold_copy.out", {t(f32({7}, iota(7))), i(0), i(8), i(2)}, uf),
                      Error::InvalidArgument, "maximum size for tensor at dimension 0 is 7");
  Tensor* dc = tf.zeros(ST::Long, {2});
  ASSERT_EQ(call_out("aten::detach_copy.out", {t(f32({2}, {1.5, -2.5}))}, dc), Error::Ok);
  EXPECT_VALUES(dc, {1, -2});
  ASSERT_EQ(call_out("aten::lift_fresh_copy.out", {t(f32({2}, {3, 4}))}, dc), Error::Ok);
  EXPECT_VALUES(dc, {3, 4});
}

TEST_F(ShapeViews, TrilTriu) {
  Tensor* out = tf.zeros(ST::Float, {3, 4});
  ASSERT_EQ(call_out("aten::tril.out", {t(f32({3, 4}, iota(12, 1))), i(-1)}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0});
  ASSERT_EQ(call_out("aten::triu.out", {t(f32({3, 4}, iota(12, 1))), i(1)}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12});
  ASSERT_EQ(call_out("aten::triu.out", {t(f32({3, 4}, iota(12, 1))), i(INT64_MIN)}, out), Error::Ok);
  EXPECT_VALUES(out, iota(12, 1));
  EXPECT_KERNEL_ERROR(call_out("aten::tril.out", {t(f32({3}, iota(3))), i(0)}, out),
                      Error::InvalidArgument, "at least 2 dimensions");
}

TEST_F(ShapeViews, Padding) {
  Tensor* out = tf.zeros(ST::Float, {3, 3});
  ASSERT_EQ(call_out("aten::constant_pad_nd.out", {t(f32({2, 3}, iota(6))), il({1, -1, 0, 1}), d(-1)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {-1, 0, 1, -1, 3, 4, -1, -1, -1});
  EXPECT_KERNEL_ERROR(call_out("aten::constant_pad_nd.out", {t(f32({2, 3}, iota(6))), il({1}), d(0)}, out),
                      Error::InvalidArgument, "Length of pad must be even");
  EXPECT_KERNEL_ERROR(call_out("aten::constant_pad_nd.out", {t(f32({2, 3}, iota(6))), il({-2, -2}), d(0)}, out),
                      Error::InvalidArgument, "negative output size");
  EXPECT_KERNEL_ERROR(call_out("aten::constant_pad_nd.out", {t(f32({2, 3}, iota(6))), il({INT64_MAX, 1}), d(0)}, out),
                      Error::InvalidArgument, "negative output size");
  Tensor* rf = tf.zeros(ST::Float, {1, 5, 6});
  ASSERT_EQ(call_out("aten::reflection_pad2d.out", {t(f32({1, 3, 3}, iota(9))), il({1, 2, 2, 0})}, rf), Error::Ok);
  EXPECT_VALUES(rf, {7, 6, 7, 8, 7, 6, 4, 3, 4, 5, 4, 3, 1, 0, 1, 2, 1, 0, 4, 3, 4, 5, 4, 3, 7, 6, 7, 8, 7, 6});
  EXPECT_KERNEL_ERROR(call_out("aten::reflection_pad1d.out", {t(f32({1, 4}, iota(4))), il({4, 2})}, rf),
                      Error::InvalidArgument, "Padding size should be less than");
  Tensor* rp = tf.zeros(ST::Float, {1, 6});
  ASSERT_EQ(call_out("aten::replication_pad1d.out", {t(f32({1, 3}, iota(3))), il({2, 1})}, rp), Error::Ok);
  EXPECT_VALUES(rp, {0, 0, 0, 1, 2, 2});
  // Huge opposite pads that cancel: every element is an edge.
  Tensor* rp2 = tf.zeros(ST::Float, {1, 2});
  ASSERT_EQ(call_out("aten::replication_pad1d.out", {t(f32({1, 3}, iota(3))), il({INT64_MIN + 5, INT64_MAX - 5})}, rp2),
            Error::Ok);
  EXPECT_VALUES(rp2, {2, 2});
  EXPECT_KERNEL_ERROR(call_out("aten::replication_pad2d.out", {t(f32({4, 4}, iota(16))), il({1, 1, 1, 1})}, rp),
                      Error::InvalidArgument, "expected a 3D or 4D");
  EXPECT_KERNEL_ERROR(call_out("aten::replication_pad1d.out", {t(tf.make(ST::Int, {1, 3}, iota(3))), il({1, 1})}, rp),
                      Error::InvalidType, "dtype Int is not supported");
}

}  // namespace
}  // namespace tri::testing
