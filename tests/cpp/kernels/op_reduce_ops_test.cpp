// amax/amin, max/min (unary and .dim), argmin, any/all, prod, var/std,
// logsumexp, cumsum/cumprod, sort, topk, sum.out, mean.dtype_out and the
// column (outer-dim) paths of sum, amax and softmax. Expected numbers are
// PyTorch 1.13's.
#include <cmath>

#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;

class ReduceOps : public KernelTest {
 protected:
  // [[3, -1, 2, 7], [0.5, 4, -2, 1], [6, 6, -3, 0]]
  Tensor* x34() { return f32({3, 4}, {3, -1, 2, 7, 0.5, 4, -2, 1, 6, 6, -3, 0}); }
  Tensor* arange24_7() {
    std::vector<double> v(24);
    for (int k = 0; k < 24; ++k) v[k] = static_cast<float>(k) / 7.0f;
    return f32({2, 3, 4}, v);
  }
  Error call2(const char* name, std::vector<EValue*> inputs, Tensor* a, Tensor* b) {
    inputs.push_back(t(a));
    inputs.push_back(t(b));
    inputs.push_back(tf.tensor_list({a, b}));
    return call(name, inputs);
  }
};

TEST_F(ReduceOps, AmaxAmin) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::amax.out", {t(x34()), il({1}), b(false)}, out), Error::Ok);
  EXPECT_VALUES(out, {7, 4, 6});
  Tensor* out0 = tf.zeros(ST::Float, {1, 4});
  ASSERT_EQ(call_out("aten::amin.out", {t(x34()), il({-2}), b(true)}, out0), Error::Ok);
  EXPECT_VALUES(out0, {0.5, -1, -3, 0});
  Tensor* all = tf.zeros(ST::Float, {});
  ASSERT_EQ(call_out("aten::amax.out", {t(f32({3}, {1, NAN, 2})), il({}), b(false)}, all), Error::Ok);
  EXPECT_VALUES(all, {NAN});
  Tensor* bout = tf.zeros(ST::Bool, {});
  ASSERT_EQ(call_out("aten::amax.out", {t(tf.make(ST::Bool, {2}, {0, 1})), il({0}), b(false)}, bout),
            Error::Ok);
  EXPECT_VALUES(bout, {1});
  // No identity: an empty reduced dim is an error, an empty kept dim is not.
  EXPECT_KERNEL_ERROR(call_out("aten::amax.out", {t(tf.zeros(ST::Float, {2, 0})), il({1}), b(false)},
                               tf.zeros(ST::Float, {2})),
                      Error::InvalidArgument, "amax(): Expected reduction dim 1 to have non-zero size");
  EXPECT_KERNEL_ERROR(call_out("aten::amin.out", {t(tf.zeros(ST::Float, {0})), il({}), b(false)},
                               tf.zeros(ST::Float, {})),
                      Error::InvalidArgument, "input.numel() == 0");
  Tensor* e = tf.zeros(ST::Float, {0});
  ASSERT_EQ(call_out("aten::amax.out", {t(tf.zeros(ST::Float, {2, 0})), il({0}), b(false)}, e), Error::Ok);
  EXPECT_KERNEL_ERROR(call_out("aten::amax.out", {t(x34()), il({1}), b(false)}, tf.zeros(ST::Double, {3})),
                      Error::InvalidType, "out: dtype Double, expected Float");
}

TEST_F(ReduceOps, MaxMinUnaryAndDim) {
  Tensor* m = tf.zeros(ST::Float, {});
  ASSERT_EQ(call_out("aten::max.unary_out", {t(x34())}, m), Error::Ok);
  EXPECT_VALUES(m, {7});
  ASSERT_EQ(call_out("aten::min.unary_out", {t(x34())}, m), Error::Ok);
  EXPECT_VALUES(m, {-3});
  EXPECT_KERNEL_ERROR(call_out("aten::max.unary_out", {t(tf.zeros(ST::Float, {0}))}, m),
                      Error::InvalidArgument, "max(): Expected reduction dim to be specified");
  Tensor* v = tf.zeros(ST::Float, {3});
  Tensor* ind = tf.zeros(ST::Long, {3});
  ASSERT_EQ(call2("aten::max.dim_max", {t(x34()), i(1), b(false)}, v, ind), Error::Ok);
  EXPECT_VALUES(v, {7, 4, 6});
  EXPECT_VALUES(ind, {3, 1, 0});  // ties: the first
  Tensor* v0 = tf.zeros(ST::Float, {4});
  Tensor* i0 = tf.zeros(ST::Long, {4});
  ASSERT_EQ(call2("aten::min.dim_min", {t(x34()), i(-2), b(false)}, v0, i0), Error::Ok);
  EXPECT_VALUES(v0, {0.5, -1, -3, 0});
  EXPECT_VALUES(i0, {1, 0, 2, 2});
  Tensor* li = tf.zeros(ST::Int, {3});
  EXPECT_KERNEL_ERROR(call2("aten::max.dim_max", {t(x34()), i(1), b(false)}, v, li),
                      Error::InvalidType, "max_values: dtype Int, expected Long");
  EXPECT_KERNEL_ERROR(call2("aten::max.dim_max", {t(x34()), i(2), b(false)}, v, ind),
                      Error::InvalidArgument, "Dimension out of range");
}

TEST_F(ReduceOps, Argmin) {
  Tensor* out = tf.zeros(ST::Long, {3});
  ASSERT_EQ(call_out("aten::argmin.out", {t(x34()), i(1), b(false)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 2, 2});
  Tensor* s = tf.zeros(ST::Long, {});
  ASSERT_EQ(call_out("aten::argmin.out", {t(x34()), none(), b(false)}, s), Error::Ok);
  EXPECT_VALUES(s, {10});
  ASSERT_EQ(call_out("aten::argmin.out", {t(f32({3}, {1, NAN, -5})), none(), b(false)}, s), Error::Ok);
  EXPECT_VALUES(s, {1});
  EXPECT_KERNEL_ERROR(call_out("aten::argmin.out", {t(tf.zeros(ST::Float, {0})), none(), b(false)}, s),
                      Error::InvalidArgument, "argmin(): Expected reduction dim to be specified");
}

TEST_F(ReduceOps, AnyAll) {
  Tensor* x = tf.make(ST::Float, {2, 3}, {0, 0, NAN, 1, 2, 3});
  Tensor* out = tf.zeros(ST::Bool, {2});
  ASSERT_EQ(call_out("aten::any.out", {t(x), i(1), b(false)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 1});
  ASSERT_EQ(call_out("aten::all.out", {t(x), i(-1), b(false)}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 1});
  Tensor* s = tf.zeros(ST::Byte, {});
  ASSERT_EQ(call_out("aten::all.all_out", {t(tf.zeros(ST::Long, {0}))}, s), Error::Ok);
  EXPECT_VALUES(s, {1});
  ASSERT_EQ(call_out("aten::any.all_out", {t(tf.zeros(ST::Long, {0}))}, s), Error::Ok);
  EXPECT_VALUES(s, {0});
  Tensor* kept = tf.zeros(ST::Bool, {1, 3});
  ASSERT_EQ(call_out("aten::all.dims_out", {t(x), il({0}), b(true)}, kept), Error::Ok);
  EXPECT_VALUES(kept, {0, 0, 1});
  Tensor* b0 = tf.zeros(ST::Bool, {});
  ASSERT_EQ(call_out("aten::any.dims_out", {t(x), none(), b(false)}, b0), Error::Ok);
  EXPECT_VALUES(b0, {1});
  EXPECT_KERNEL_ERROR(call_out("aten::any.all_out", {t(x)}, tf.zeros(ST::Float, {})),
                      Error::InvalidType, "any only supports bool tensor for result, got: Float");
}

TEST_F(ReduceOps, Prod) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::prod.int_out", {t(x34()), i(1), b(false), none()}, out), Error::Ok);
  EXPECT_VALUES(out, {-42, -4, 0});
  Tensor* c = tf.zeros(ST::Char, {});
  ASSERT_EQ(call_out("aten::prod.out", {t(tf.make(ST::Char, {2}, {100, 3})), i(1)}, c), Error::Ok);
  EXPECT_VALUES(c, {44});  // wraps like int8
  Tensor* one = tf.zeros(ST::Long, {});
  ASSERT_EQ(call_out("aten::prod.out", {t(tf.zeros(ST::Int, {0})), none()}, one), Error::Ok);
  EXPECT_VALUES(one, {1});
  EXPECT_KERNEL_ERROR(call_out("aten::prod.out", {t(x34()), i(6)}, tf.zeros(ST::Double, {})),
                      Error::InvalidType, "out (must match dtype): dtype Double, expected Float");
}

TEST_F(ReduceOps, VarStd) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::var.correction_out", {t(x34()), il({1}), none(), b(false)}, out), Error::Ok);
  EXPECT_VALUES(out, {10.916666984558105, 6.0625, 20.25}, 1e-6);
  Tensor* s = tf.zeros(ST::Double, {});
  ASSERT_EQ(call_out("aten::std.correction_out", {t(x34()), il({0, 1}), i(0), b(false)}, s), Error::Ok);
  EXPECT_VALUES(s, {3.152104616165161}, 1e-6);
  Tensor* v0 = tf.zeros(ST::Float, {1, 4});
  ASSERT_EQ(call_out("aten::var.out", {t(x34()), il({0}), b(false), b(true)}, v0), Error::Ok);
  EXPECT_VALUES(v0, {5.05555534362793, 8.666666984558105, 4.666666507720947, 9.55555534362793}, 1e-6);
  Tensor* e = tf.zeros(ST::Float, {});
  ASSERT_EQ(call_out("aten::var.out", {t(tf.zeros(ST::Float, {0})), none(), b(true), b(false)}, e), Error::Ok);
  EXPECT_VALUES(e, {NAN});
  ASSERT_EQ(call_out("aten::std.out", {t(f32({2}, {1, 2})), none(), b(true), b(false)}, e), Error::Ok);
  EXPECT_VALUES(e, {0.7071067690849304}, 1e-6);
  ASSERT_EQ(call_out("aten::var.correction_out", {t(f32({2}, {1, 2})), none(), i(2), b(false)}, e), Error::Ok);
  EXPECT_VALUES(e, {INFINITY});
  EXPECT_KERNEL_ERROR(call_out("aten::var.out", {t(tf.make(ST::Long, {2}, {1, 2})), none(), b(true), b(false)}, e),
                      Error::InvalidType, "std and var only support floating point");
}

TEST_F(ReduceOps, Logsumexp) {
  Tensor* out = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call_out("aten::logsumexp.out", {t(x34()), il({1}), b(false)}, out), Error::Ok);
  EXPECT_VALUES(out, {7.02507209777832, 4.079239368438721, 6.6944475173950195}, 1e-6);
  Tensor* s = tf.zeros(ST::Float, {});
  ASSERT_EQ(call_out("aten::logsumexp.out", {t(f32({2}, {-INFINITY, -INFINITY})), il({0}), b(false)}, s),
            Error::Ok);
  EXPECT_VALUES(s, {-INFINITY});
  ASSERT_EQ(call_out("aten::logsumexp.out", {t(f32({2}, {INFINITY, 1})), il({0}), b(false)}, s), Error::Ok);
  EXPECT_VALUES(s, {INFINITY});
  Tensor* e = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call_out("aten::logsumexp.out", {t(tf.zeros(ST::Float, {2, 0})), il({1}), b(false)}, e), Error::Ok);
  EXPECT_VALUES(e, {-INFINITY, -INFINITY});
  EXPECT_KERNEL_ERROR(call_out("aten::logsumexp.out", {t(x34()), il({1}), b(false)}, tf.zeros(ST::Int, {3})),
                      Error::InvalidType, "Expected floating point type for result tensor, but got: Int");
}

TEST_F(ReduceOps, CumsumCumprod) {
  Tensor* out = tf.zeros(ST::Float, {3, 4});
  ASSERT_EQ(call_out("aten::cumsum.out", {t(x34()), i(0), none()}, out), Error::Ok);
  EXPECT_VALUES(out, {3, -1, 2, 7, 3.5, 3, 0, 8, 9.5, 9, -3, 8});
  ASSERT_EQ(call_out("aten::cumprod.out", {t(x34()), i(-1), none()}, out), Error::Ok);
  EXPECT_VALUES(out, {3, -3, -6, -42, 0.5, 2, -4, -4, 6, 36, -108, 0});
  Tensor* c = tf.zeros(ST::Char, {3});
  ASSERT_EQ(call_out("aten::cumsum.out", {t(tf.make(ST::Char, {3}, {100, 100, 100})), i(0), i(1)}, c), Error::Ok);
  EXPECT_VALUES(c, {100, -56, 44});
  EXPECT_KERNEL_ERROR(call_out("aten::cumsum.out", {t(x34()), i(0), none()}, tf.zeros(ST::Bool, {3, 4})),
                      Error::InvalidType, "out: dtype Bool is not supported");
  EXPECT_KERNEL_ERROR(call_out("aten::cumsum.out", {t(x34()), i(0), i(6)}, tf.zeros(ST::Double, {3, 4})),
                      Error::InvalidType, "out (must match dtype)");
}

TEST_F(ReduceOps, Sort) {
  Tensor* v = tf.zeros(ST::Float, {3, 4});
  Tensor* ix = tf.zeros(ST::Long, {3, 4});
  ASSERT_EQ(call2("aten::sort.values", {t(x34()), i(1), b(true)}, v, ix), Error::Ok);
  EXPECT_VALUES(v, {7, 3, 2, -1, 4, 1, 0.5, -2, 6, 6, 0, -3});
  EXPECT_VALUES(ix, {3, 0, 2, 1, 1, 3, 0, 2, 0, 1, 3, 2});
  ASSERT_EQ(call2("aten::sort.values_stable", {t(x34()), b(true), i(0), b(false)}, v, ix), Error::Ok);
  EXPECT_VALUES(v, {0.5, -1, -3, 0, 3, 4, -2, 1, 6, 6, 2, 7});
  EXPECT_VALUES(ix, {1, 0, 2, 2, 0, 1, 1, 1, 2, 2, 0, 0});
  Tensor* nv = tf.zeros(ST::Float, {4});
  Tensor* ni = tf.zeros(ST::Long, {4});
  ASSERT_EQ(call2("aten::sort.values", {t(f32({4}, {3, NAN, 1, NAN})), i(0), b(true)}, nv, ni), Error::Ok);
  EXPECT_VALUES(nv, {NAN, NAN, 3, 1});
  EXPECT_VALUES(ni, {1, 3, 0, 2});
  ASSERT_EQ(call2("aten::sort.values", {t(f32({4}, {3, NAN, 1, NAN})), i(0), b(false)}, nv, ni), Error::Ok);
  EXPECT_VALUES(nv, {1, 3, NAN, NAN});
  EXPECT_VALUES(ni, {2, 0, 1, 3});
  // Long rows: merge passes (and temp memory); without temp it fails clearly.
  std::vector<double> desc(1000);
  for (int k = 0; k < 1000; ++k) desc[k] = 999 - k;
  Tensor* lv = tf.zeros(ST::Long, {1000});
  Tensor* li = tf.zeros(ST::Long, {1000});
  Tensor* lin = tf.make(ST::Long, {1000}, desc);
  ASSERT_EQ(call2("aten::sort.values", {t(lin), i(0), b(false)}, lv, li), Error::Ok);
  std::vector<double> asc(1000);
  for (int k = 0; k < 1000; ++k) asc[k] = k;
  EXPECT_VALUES(lv, asc);
  EXPECT_VALUES(li, desc);
  use_temp_ = false;
  EXPECT_KERNEL_ERROR(call2("aten::sort.values", {t(lin), i(0), b(false)}, lv, li),
                      Error::MemoryAllocationFailed, "sort: rows of 1000 elements need");
}

TEST_F(ReduceOps, Topk) {
  Tensor* x = f32({3, 4}, {3, -1, 2, 7, 0.5, 4, -2, 1, 6, 5, -3, 0});
  Tensor* v = tf.zeros(ST::Float, {3, 2});
  Tensor* ix = tf.zeros(ST::Long, {3, 2});
  ASSERT_EQ(call2("aten::topk.values", {t(x), i(2), i(1), b(true), b(true)}, v, ix), Error::Ok);
  EXPECT_VALUES(v, {7, 3, 4, 1, 6, 5});
  EXPECT_VALUES(ix, {3, 0, 1, 3, 0, 1});
  Tensor* v0 = tf.zeros(ST::Float, {1, 4});
  Tensor* i0 = tf.zeros(ST::Long, {1, 4});
  ASSERT_EQ(call2("aten::topk.values", {t(x), i(1), i(0), b(false), b(true)}, v0, i0), Error::Ok);
  EXPECT_VALUES(v0, {0.5, -1, -3, 0});
  EXPECT_VALUES(i0, {1, 0, 2, 2});
  EXPECT_KERNEL_ERROR(call2("aten::topk.values", {t(x), i(5), i(1), b(true), b(true)}, v, ix),
                      Error::InvalidArgument, "selected index k out of range");
  EXPECT_KERNEL_ERROR(call2("aten::topk.values", {t(x), i(-1), i(1), b(true), b(true)}, v, ix),
                      Error::InvalidArgument, "selected index k out of range");
}

TEST_F(ReduceOps, SumOutMeanDtypeOut) {
  Tensor* s = tf.zeros(ST::Long, {});
  ASSERT_EQ(call_out("aten::sum.out", {t(tf.make(ST::Bool, {3}, {1, 1, 0})), none()}, s), Error::Ok);
  EXPECT_VALUES(s, {2});
  Tensor* m = tf.zeros(ST::Double, {});
  ASSERT_EQ(call_out("aten::mean.dtype_out", {t(tf.make(ST::Int, {4}, {1, 2, 3, 5})), i(7)}, m), Error::Ok);
  EXPECT_VALUES(m, {2.75});
  EXPECT_KERNEL_ERROR(call_out("aten::mean.dtype_out", {t(tf.make(ST::Int, {1}, {1})), none()}, m),
                      Error::InvalidType, "input dtype must be floating point, got Int");
}

TEST_F(ReduceOps, ColumnPaths) {
  // Reductions over outer dims of a row-major tensor take the block path.
  Tensor* sum = tf.zeros(ST::Float, {4});
  ASSERT_EQ(call_out("aten::sum.IntList_out", {t(arange24_7()), il({0, 1}), b(false), none()}, sum), Error::Ok);
  EXPECT_VALUES(sum, {8.571428298950195, 9.428571701049805, 10.285715103149414, 11.14285659790039}, 1e-6);
  Tensor* mx = tf.zeros(ST::Float, {3, 4});
  ASSERT_EQ(call_out("aten::amax.out", {t(arange24_7()), il({0}), b(false)}, mx), Error::Ok);
  EXPECT_VALUES(mx, {1.7142857313156128, 1.8571428060531616, 2.0, 2.142857074737549, 2.2857143878936768,
                     2.4285714626312256, 2.5714285373687744, 2.7142856121063232, 2.857142925262451, 3.0,
                     3.142857074737549, 3.2857143878936768}, 1e-6);
  Tensor* sm = tf.zeros(ST::Float, {2, 3, 4});
  ASSERT_EQ(call_out("aten::_softmax.out", {t(arange24_7()), i(1), b(false)}, sm), Error::Ok);
  std::vector<double> p;
  for (int k = 0; k < 2; ++k) {
    for (double v : {0.1693047136068344, 0.2998039424419403, 0.5308912992477417}) {
      for (int j = 0; j < 4; ++j) p.push_back(v);
    }
  }
  EXPECT_VALUES(sm, p, 1e-6);
  ASSERT_EQ(call_out("aten::_log_softmax.out", {t(arange24_7()), i(-2), b(false)}, sm), Error::Ok);
  for (double& v : p) v = std::log(v);
  EXPECT_VALUES(sm, p, 1e-5);
  // NaN in one lane stays in that lane.
  Tensor* xn = f32({2, 4}, {1, NAN, 3, 4, 5, 6, 7, 8});
  Tensor* cm = tf.zeros(ST::Float, {4});
  ASSERT_EQ(call_out("aten::amax.out", {t(xn), il({0}), b(false)}, cm), Error::Ok);
  EXPECT_VALUES(cm, {5, NAN, 7, 8});
  Tensor* cs = tf.zeros(ST::Float, {2, 4});
  ASSERT_EQ(call_out("aten::_softmax.out", {t(xn), i(0), b(false)}, cs), Error::Ok);
  EXPECT_VALUES(cs, {0.01798620996209156, NAN, 0.01798620996209156, 0.01798620996209156,
                     0.9820137900379085, NAN, 0.9820137900379085, 0.9820137900379085}, 1e-6);
}

}  // namespace
}  // namespace tri::testing
