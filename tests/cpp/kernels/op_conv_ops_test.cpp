// Convolution, pooling, bmm / linear, im2col / col2im and distances. Inputs are
// seq(): ((i * 7) % 11 - 5) / 2; expected values come from torch 1.13.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "cpp/kernels/util/gemm.h"
#include "cpp/kernels/util/conv_depthwise.h"
#include "cpp/kernels/util/conv_forward.h"
#include "cpp/kernels/util/conv_plan.h"
#include "cpp/kernels/util/gemm_f32.h"
#include "cpp/kernels/util/pool_channels_last.h"
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;

std::vector<double> seq(size_t n, double scale = 1.0) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (static_cast<double>((i * 7) % 11) - 5) * 0.5 * scale;
  return v;
}

size_t numel(const std::vector<SizesType>& s) {
  size_t n = 1;
  for (SizesType x : s) n *= static_cast<size_t>(x);
  return n;
}

class ConvOps : public KernelTest {
 protected:
  Tensor* S(std::vector<SizesType> sizes, ST type = ST::Float, std::vector<DimOrderType> order = {}) {
    const size_t n = numel(sizes);
    return tf.make(type, std::move(sizes), seq(n), std::move(order));
  }
  // convolution.out with the given parameters.
  Error conv(Tensor* x, Tensor* w, Tensor* bias, std::vector<int64_t> stride, std::vector<int64_t> pad,
             std::vector<int64_t> dil, bool transposed, std::vector<int64_t> out_pad, int64_t groups,
             Tensor* out) {
    return call_out("aten::convolution.out",
                    {t(x), t(w), bias ? t(bias) : none(), il(stride), il(pad), il(dil), b(transposed), il(out_pad),
                     i(groups)},
                    out);
  }
};

TEST(GemmF32, PackedMatchesReferenceAtTileEdges) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (int64_t m : {1, 2, 5, 6, 7, 13}) {
    for (int64_t n : {1, 3, 7, 8, 9, 17, 20, 37}) {
      for (int64_t k : {0, 1, 5, 256, 300}) {
        std::vector<float> a(static_cast<size_t>(m * k) + 1), b(static_cast<size_t>(k * n) + 1);
        for (float& v : a) v = dist(rng);
        for (float& v : b) v = dist(rng);
        // c has a wider row (ldc = n + 3) whose extra columns must stay untouched.
        const int64_t ldc = n + 3;
        std::vector<float> c_ref(static_cast<size_t>(m * ldc), 42.f), c(static_cast<size_t>(m * ldc), 42.f);
        gemm_reference<float>(m, n, k, {a.data(), k, 1}, {b.data(), n, 1}, c_ref.data(), ldc);
        gemm_f32_packed(m, n, k, {a.data(), k, 1}, {b.data(), n, 1}, c.data(), ldc);
        for (size_t i = 0; i < c.size(); ++i) {
          ASSERT_NEAR(c[i], c_ref[i], 1e-4 * (1 + std::abs(c_ref[i]))) << m << "x" << n << "x" << k;
        }
        // A transposed A (a.cs = m) too.
        gemm_reference<float>(m, n, k, {a.data(), 1, m}, {b.data(), n, 1}, c_ref.data(), ldc);
        gemm_f32_packed(m, n, k, {a.data(), 1, m}, {b.data(), n, 1}, c.data(), ldc);
        for (size_t i = 0; i < c.size(); ++i) ASSERT_NEAR(c[i], c_ref[i], 1e-4 * (1 + std::abs(c_ref[i])));
        // A starting row (addmm's bias): every row of c starts from it, in
        // the 16-wide panels and the narrow ones, over every K block.
        std::vector<float> row(static_cast<size_t>(n));
        for (float& v : row) v = 8 + dist(rng);
        gemm_f32_packed(m, n, k, {a.data(), k, 1}, {b.data(), n, 1}, c.data(), ldc, nullptr, row.data());
        gemm_reference<float>(m, n, k, {a.data(), k, 1}, {b.data(), n, 1}, c_ref.data(), ldc);
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j) c_ref[static_cast<size_t>(i * ldc + j)] += row[static_cast<size_t>(j)];
        }
        for (size_t i = 0; i < c.size(); ++i) {
          ASSERT_NEAR(c[i], c_ref[i], 1e-4 * (1 + std::abs(c_ref[i]))) << m << "x" << n << "x" << k << " at " << i;
        }
        // B column-major (b.rs = 1: a linear layer's [n, k] weight), packed
        // as it is read, with the same starting row.
        std::vector<float> bt(static_cast<size_t>(n * k) + 1);
        for (int64_t p = 0; p < k; ++p) {
          for (int64_t j = 0; j < n; ++j) bt[static_cast<size_t>(j * k + p)] = b[static_cast<size_t>(p * n + j)];
        }
        std::fill(c.begin(), c.end(), 42.f);
        gemm_f32_packed(m, n, k, {a.data(), k, 1}, {bt.data(), 1, k}, c.data(), ldc, nullptr, row.data());
        for (size_t i = 0; i < c.size(); ++i) {
          ASSERT_NEAR(c[i], c_ref[i], 1e-4 * (1 + std::abs(c_ref[i]))) << m << "x" << n << "x" << k << " b^T at " << i;
        }
      }
    }
  }
}

TEST_F(ConvOps, Bmm) {
  Tensor* out = tf.zeros(ST::Float, {2, 2, 2});
  ASSERT_EQ(call_out("aten::bmm.out", {t(S({2, 2, 3})), t(S({2, 3, 2}))}, out), Error::Ok) << last_error_message();
  EXPECT_VALUES(out, {4.75, 1.5, -7.5, 6.0, 5.0, 5.0, 5.25, 5.5});
  // Out in dim order (1, 2, 0): neither row- nor column-major per batch.
  Tensor* odd = tf.zeros(ST::Float, {2, 2, 2}, {1, 2, 0});
  ASSERT_EQ(call_out("aten::bmm.out", {t(S({2, 2, 3})), t(S({2, 3, 2}))}, odd), Error::Ok);
  EXPECT_VALUES(odd, {4.75, 1.5, -7.5, 6.0, 5.0, 5.0, 5.25, 5.5});
  use_temp_ = false;
  Tensor* lo = tf.zeros(ST::Long, {2, 2, 2});
  ASSERT_EQ(call_out("aten::bmm.out", {t(tf.make(ST::Long, {2, 2, 1}, {1, 2, 3, 4})), t(tf.make(ST::Long, {2, 1, 2}, {5, 6, 7, 8}))}, lo),
            Error::Ok);
  EXPECT_VALUES(lo, {5, 6, 10, 12, 21, 24, 28, 32});
  EXPECT_KERNEL_ERROR(call_out("aten::bmm.out", {t(S({2, 2, 3})), t(S({3, 3, 2}))}, out), Error::InvalidArgument,
                      "cannot be batch-multiplied");
  EXPECT_KERNEL_ERROR(call_out("aten::bmm.out", {t(S({2, 3})), t(S({3, 3, 2}))}, out), Error::InvalidArgument,
                      "self must be a 3D tensor");
}

TEST_F(ConvOps, Linear) {
  Tensor* out = tf.zeros(ST::Float, {2, 4});
  ASSERT_EQ(call_out("aten::linear.out", {t(S({2, 3})), t(S({4, 3})), t(S({4}))}, out), Error::Ok);
  EXPECT_VALUES(out, {5.75, -3.25, -4.0, 0.75, -6.75, 9.75, 7.0, 9.75});
  Tensor* out3 = tf.zeros(ST::Float, {2, 2, 4});
  ASSERT_EQ(call_out("aten::linear.out", {t(S({2, 2, 3})), t(S({4, 3})), none()}, out3), Error::Ok);
  EXPECT_VALUES(out3, {8.25, -4.25, -3.0, -1.75, -4.25, 8.75, 8.0, 7.25, -3.0, 8.0, 8.0, 8.0, -1.75, 7.25, 8.0, 8.75});
  // Leading dims that do not merge (dim order 1, 0, 2): one gemm per outer index.
  Tensor* x_perm = tf.make(ST::Float, {2, 2, 3}, seq(12), {1, 0, 2});
  ASSERT_EQ(call_out("aten::linear.out", {t(x_perm), t(S({4, 3})), none()}, out3), Error::Ok);
  EXPECT_VALUES(out3, {8.25, -4.25, -3.0, -1.75, -4.25, 8.75, 8.0, 7.25, -3.0, 8.0, 8.0, 8.0, -1.75, 7.25, 8.0, 8.75});
  Tensor* vout = tf.zeros(ST::Float, {2});
  ASSERT_EQ(call_out("aten::linear.out", {t(S({2, 3})), t(S({3})), none()}, vout), Error::Ok);
  EXPECT_VALUES(vout, {8.25, -4.25});
  EXPECT_KERNEL_ERROR(call_out("aten::linear.out", {t(S({2, 3})), t(S({4, 2})), none()}, out), Error::InvalidArgument,
                      "does not match weight's in_features");
  EXPECT_KERNEL_ERROR(call_out("aten::linear.out", {t(S({2, 3})), t(S({4, 3})), t(S({3}))}, out),
                      Error::InvalidArgument, "bias of shape [3] cannot be broadcast");
  EXPECT_KERNEL_ERROR(call_out("aten::linear.out", {t(S({2, 3})), t(S({4, 3}, ST::Double)), none()}, out),
                      Error::InvalidType, "weight");
}

TEST_F(ConvOps, Conv2d) {
  Tensor* bias = f32({3}, {0.5, -1.0, 2.0});
  Tensor* out = tf.zeros(ST::Float, {1, 3, 2, 2});
  ASSERT_EQ(conv(S({1, 2, 4, 4}), S({3, 2, 3, 3}), bias, {1}, {0}, {1}, false, {0}, 1, out), Error::Ok)
      << last_error_message();
  const std::vector<double> expect = {-7.5, 9.75, -7.25, 12.75, 14.75, -14.0, -1.25, -10.75, -19.0, 5.25, -18.25, 11.5};
  EXPECT_VALUES(out, expect, 1e-5);
  // Channels-last input and out.
  Tensor* x_cl = tf.make(ST::Float, {1, 2, 4, 4}, seq(32), {0, 2, 3, 1});
  Tensor* out_cl = tf.zeros(ST::Float, {1, 3, 2, 2}, {0, 2, 3, 1});
  ASSERT_EQ(conv(x_cl, S({3, 2, 3, 3}), bias, {1, 1}, {0, 0}, {1, 1}, false, {0, 0}, 1, out_cl), Error::Ok);
  EXPECT_VALUES(out_cl, expect, 1e-5);
  ASSERT_EQ(conv(S({1, 2, 4, 4}), S({3, 2, 3, 3}), nullptr, {2}, {1}, {1}, false, {0}, 1, out), Error::Ok);
  EXPECT_VALUES(out, {3.5, -2.25, 5.5, 12.25, 6.5, 5.75, 7.5, -9.75, 4.0, -2.75, 1.25, 9.5}, 1e-5);
  Tensor* big = tf.zeros(ST::Float, {1, 3, 4, 4});
  ASSERT_EQ(conv(S({1, 2, 4, 4}), S({3, 2, 3, 3}), bias, {1}, {2}, {2}, false, {0}, 1, big), Error::Ok);
  EXPECT_EQ(TensorFactory::values(*big)[0], 5.75);
  EXPECT_EQ(TensorFactory::values(*big)[47], -7.5);
  Tensor* gout = tf.zeros(ST::Float, {1, 2, 2, 2});
  ASSERT_EQ(conv(S({1, 4, 3, 3}), S({2, 2, 2, 2}), nullptr, {1}, {0}, {1}, false, {0}, 2, gout), Error::Ok);
  EXPECT_VALUES(gout, {9.5, -6.25, -4.75, -15.0, -4.25, 10.5, -17.75, 8.0}, 1e-5);
  Tensor* dw = tf.zeros(ST::Float, {1, 4, 3, 3});
  ASSERT_EQ(conv(S({1, 4, 3, 3}), S({4, 1, 3, 3}), nullptr, {1}, {1}, {1}, false, {0}, 4, dw), Error::Ok);
  EXPECT_VALUES(dw, {-3.75, 3.75, 3.0, -3.0, 25.0, -3.0, 3.0, 3.75, -3.75, -6.25, 2.75, -2.25,
                     -6.75, 23.5, -6.75, -2.25, 2.75, -6.25, -4.5, 1.25, 2.25, -5.5, 21.25, -5.5,
                     2.25, 1.25, -4.5, -6.75, 13.0, -8.25, -10.25, 21.0, -10.25, -8.25, 13.0, -6.75}, 1e-5);
  // Long: computed in wrapping int64.
  Tensor* x_l = tf.make(ST::Long, {1, 2, 4, 4}, seq(32, 2));
  Tensor* w_l = tf.make(ST::Long, {3, 2, 3, 3}, seq(54, 2));
  Tensor* out_l = tf.zeros(ST::Long, {1, 3, 2, 2});
  ASSERT_EQ(conv(x_l, w_l, nullptr, {1}, {0}, {1}, false, {0}, 1, out_l), Error::Ok);
  EXPECT_VALUES(out_l, {-32, 37, -31, 49, 63, -52, -1, -39, -84, 13, -81, 38});
}

TEST_F(ConvOps, Conv1d3dAndTransposed) {
  Tensor* bias = f32({3}, {0.5, -1.0, 2.0});
  Tensor* o1 = tf.zeros(ST::Float, {2, 3, 3});
  ASSERT_EQ(conv(S({2, 2, 5}), S({3, 2, 2}), bias, {2}, {1}, {1}, false, {0}, 1, o1), Error::Ok);
  EXPECT_VALUES(o1, {-5.75, -5.0, 0.5, 2.75, 5.0, -4.5, 2.0, -2.5, -5.0, 1.25, 14.25, 0.5, -0.25, -6.75, -5.25, 0.0,
                     4.25, 12.75}, 1e-5);
  Tensor* o3 = tf.zeros(ST::Float, {1, 2, 4, 2, 2});
  ASSERT_EQ(conv(S({1, 1, 3, 3, 3}), S({2, 1, 2, 2, 2}), nullptr, {1}, {1, 0, 0}, {1}, false, {0}, 1, o3), Error::Ok);
  EXPECT_VALUES(o3, {2.25, 3.0, 4.5, 2.5, 9.5, -6.25, -4.75, -15.0, -5.75, -2.25, -6.25, 13.75, -7.75, 11.5, 6.0, 6.0,
                     3.0, 2.5, 7.0, 1.0, 8.0, 0.75, -2.75, -4.5, -2.25, -17.75, 0.75, 4.5, 3.5, 5.0, -8.5, 4.0}, 1e-5);
  Tensor* ot = tf.zeros(ST::Float, {1, 3, 8, 8});
  ASSERT_EQ(conv(S({1, 2, 4, 4}), S({2, 3, 3, 3}), bias, {2}, {1}, {1}, true, {1}, 1, ot), Error::Ok)
      << last_error_message();
  const std::vector<double> v = TensorFactory::values(*ot);
  EXPECT_EQ(v[0], -3.0);
  EXPECT_EQ(v[5], 12.25);
  EXPECT_EQ(v[191], 4.5);
  Tensor* otg = tf.zeros(ST::Float, {1, 2, 4, 4});
  ASSERT_EQ(conv(S({1, 4, 3, 3}), S({4, 1, 2, 2}), nullptr, {1}, {0}, {1}, true, {0}, 2, otg), Error::Ok);
  EXPECT_VALUES(otg, {7.0, -7.5, 3.0, 2.75, -0.25, -9.0, 5.5, -7.75, -5.25, 4.25, 16.0, -8.75, -1.0, 2.0, 6.0, -5.0,
                      -1.5, 7.5, -8.0, 2.25, -4.75, 13.0, -2.5, -1.75, -5.25, 2.25, 6.0, -1.0, -5.75, 2.5, -8.5, -1.75},
                1e-5);
}

TEST_F(ConvOps, ConvErrors) {
  Tensor* out = tf.zeros(ST::Float, {1, 3, 2, 2});
  EXPECT_KERNEL_ERROR(conv(S({1, 3, 4, 4}), S({3, 2, 3, 3}), nullptr, {1}, {0}, {1}, false, {0}, 1, out),
                      Error::InvalidArgument, "input has 3 channels, but weight expects 2");
  EXPECT_KERNEL_ERROR(conv(S({1, 2, 4, 4}), S({3, 2, 3, 3}), nullptr, {0}, {0}, {1}, false, {0}, 1, out),
                      Error::InvalidArgument, "stride values must be in [1,");
  EXPECT_KERNEL_ERROR(conv(S({1, 2, 4, 4}), S({3, 2, 3, 3}), nullptr, {1}, {-1}, {1}, false, {0}, 1, out),
                      Error::InvalidArgument, "padding values");
  EXPECT_KERNEL_ERROR(conv(S({1, 2, 4, 4}), S({3, 2, 3, 3}), nullptr, {1, 1, 1}, {0}, {1}, false, {0}, 1, out),
                      Error::InvalidArgument, "stride must have 1 or 2 values, got 3");
  EXPECT_KERNEL_ERROR(conv(S({1, 2, 2, 2}), S({3, 2, 3, 3}), nullptr, {1}, {0}, {1}, false, {0}, 1, out),
                      Error::InvalidArgument, "kernel size (3, dilated) is larger than the padded input size (2)");
  EXPECT_KERNEL_ERROR(conv(S({1, 2, 4, 4}), S({3, 2, 3, 3}), nullptr, {1}, {0}, {1}, false, {0}, 2, out),
                      Error::InvalidArgument, "divisible by groups");
  EXPECT_KERNEL_ERROR(conv(S({1, 2, 4, 4}), S({3, 2, 3, 3}), S({2}), {1}, {0}, {1}, false, {0}, 1, out),
                      Error::InvalidArgument, "bias must have shape [3]");
  EXPECT_KERNEL_ERROR(conv(S({1, 2, 4, 4}), S({2, 3, 3, 3}), nullptr, {1}, {0}, {1}, true, {1}, 1,
                           tf.zeros(ST::Float, {1, 3, 7, 7})),
                      Error::InvalidArgument, "output_padding (1) must be smaller than stride or dilation");
  EXPECT_KERNEL_ERROR(conv(S({1, 2, 4, 4}), S({3, 2, 3, 3}), nullptr, {1}, {0}, {1}, false, {0}, 1,
                           tf.zeros(ST::Float, {1, 3, 3, 3})),
                      Error::InvalidArgument, "out");
  use_temp_ = false;
  EXPECT_KERNEL_ERROR(conv(S({1, 2, 4, 4}), S({3, 2, 3, 3}), nullptr, {1}, {0}, {1}, false, {0}, 1, out),
                      Error::MemoryAllocationFailed, "temp memory too small");
}

TEST_F(ConvOps, AvgPool) {
  Tensor* out = tf.zeros(ST::Float, {1, 1, 3, 3});
  ASSERT_EQ(call_out("aten::avg_pool2d.out", {t(S({1, 1, 5, 5})), il({3}), il({2}), il({1}), b(false), b(true), none()}, out),
            Error::Ok);
  EXPECT_VALUES(out, {-0.111111, 0.277778, 0.277778, -0.388889, -0.222222, -0.111111, 0.0, -0.166667, -0.222222}, 1e-5);
  ASSERT_EQ(call_out("aten::avg_pool2d.out", {t(S({1, 1, 5, 5})), il({2}), il({2}), il({1}), b(true), b(false), none()}, out),
            Error::Ok);
  EXPECT_VALUES(out, {-2.5, 0.0, 1.5, -1.0, 0.125, 0.25, 1.0, -0.625, -0.5}, 1e-6);
  Tensor* o2 = tf.zeros(ST::Float, {1, 1, 2, 2});
  ASSERT_EQ(call_out("aten::avg_pool2d.out", {t(S({1, 1, 5, 5})), il({2}), il({}), il({0}), b(false), b(true), i(3)}, o2),
            Error::Ok);
  EXPECT_VALUES(o2, {-0.333333, -0.166667, -1.333333, 0.666667}, 1e-5);
  // Long truncates toward zero: [[1, 2], [4, 4]] -> 2, negated -> -2.
  Tensor* ol = tf.zeros(ST::Long, {1, 1, 1});
  ASSERT_EQ(call_out("aten::avg_pool2d.out", {t(tf.make(ST::Long, {1, 2, 2}, {-1, -2, -4, -4})), il({2}), il({}), il({0}),
                                              b(false), b(true), none()}, ol),
            Error::Ok);
  EXPECT_VALUES(ol, {-2});
  Tensor* o3 = tf.zeros(ST::Float, {1, 1, 2, 2, 2});
  ASSERT_EQ(call_out("aten::avg_pool3d.out", {t(S({1, 1, 3, 4, 4})), il({2}), il({}), il({0}), b(true), b(true), none()}, o3),
            Error::Ok);
  EXPECT_VALUES(o3, {-0.125, 0.0, 0.375, -0.1875, 0.0, 0.125, -0.875, 0.625}, 1e-6);
  EXPECT_KERNEL_ERROR(call_out("aten::avg_pool2d.out", {t(S({1, 1, 5, 5})), il({3}), il({2}), il({2}), b(false), b(true), none()}, out),
                      Error::InvalidArgument, "pad should be at most half of kernel size");
  EXPECT_KERNEL_ERROR(call_out("aten::avg_pool2d.out", {t(S({1, 1, 5, 5})), il({3}), il({2}), il({1}), b(false), b(true), i(0)}, out),
                      Error::InvalidArgument, "divisor_override must be non-zero");
  EXPECT_KERNEL_ERROR(call_out("aten::avg_pool2d.out", {t(S({1, 1, 5, 5}, ST::Int)), il({3}), il({2}), il({1}), b(false), b(true), none()},
                               tf.zeros(ST::Int, {1, 1, 3, 3})),
                      Error::InvalidType, "self");
  EXPECT_KERNEL_ERROR(call_out("aten::avg_pool3d.out", {t(S({1, 5, 5})), il({3}), il({2}), il({1}), b(false), b(true), none()}, out),
                      Error::InvalidArgument, "expected a 4D or 5D input, got rank 3");
}

TEST_F(ConvOps, MaxPool3dAndAdaptive) {
  Tensor* out = tf.zeros(ST::Float, {1, 1, 2, 3, 3});
  Tensor* idx = tf.zeros(ST::Long, {1, 1, 2, 3, 3});
  ASSERT_EQ(call("aten::max_pool3d_with_indices.out", {t(S({1, 1, 3, 4, 4})), il({2}), il({}), il({1}), il({1}), b(false),
                                                        t(out), t(idx), tf.tensor_list({out, idx})}),
            Error::Ok);
  EXPECT_VALUES(out, {-2.5, 1.0, 2.5, 0.5, 2.0, 0.0, 1.0, 2.5, 0.5, -0.5, 2.0, -1.0, 2.5, 2.5, 2.0, 2.0, 1.0, 2.5});
  EXPECT_VALUES(idx, {0, 1, 3, 4, 6, 7, 12, 14, 15, 32, 17, 35, 36, 25, 39, 28, 45, 47});
  Tensor* o2 = tf.zeros(ST::Float, {1, 1, 1, 2, 2});
  Tensor* i2 = tf.zeros(ST::Long, {1, 1, 1, 2, 2});
  ASSERT_EQ(call("aten::max_pool3d_with_indices.out", {t(S({1, 1, 4, 5, 5})), il({2}), il({}), il({0}), il({2}), b(false),
                                                        t(o2), t(i2), tf.tensor_list({o2, i2})}),
            Error::Ok);
  EXPECT_VALUES(o2, {2.0, 2.5, 2.0, 2.5});
  EXPECT_VALUES(i2, {50, 14, 72, 14});
  Tensor* a2 = tf.zeros(ST::Float, {1, 2, 3, 4});
  ASSERT_EQ(call_out("aten::_adaptive_avg_pool2d.out", {t(S({1, 2, 5, 7})), il({3, 4})}, a2), Error::Ok);
  EXPECT_VALUES(a2, {-0.875, 0.25, -0.083333, 0.125, -0.333333, -0.277778, 0.0, -0.25, -0.25, -0.5, 0.083333, -0.625,
                     0.625, -0.083333, 0.5, 0.25, 0.25, 0.0, 0.277778, 0.333333, -0.125, 0.083333, -0.25, 0.875}, 1e-5);
  Tensor* a3 = tf.zeros(ST::Float, {1, 2, 2, 3});
  ASSERT_EQ(call_out("aten::_adaptive_avg_pool3d.out", {t(S({1, 3, 4, 5})), il({2, 2, 3})}, a3), Error::Ok);
  EXPECT_VALUES(a3, {0.375, 0.125, 0.5625, -0.375, -0.166667, -0.1875, 0.25, 0.0, -0.25, 0.1875, 0.166667, 0.375}, 1e-5);
  EXPECT_KERNEL_ERROR(call_out("aten::_adaptive_avg_pool2d.out", {t(S({1, 2, 5, 7})), il({3})}, a2),
                      Error::InvalidArgument, "output_size must have 2 values");
  EXPECT_KERNEL_ERROR(call_out("aten::_adaptive_avg_pool2d.out", {t(S({1, 2, 0, 7})), il({3, 4})}, a2),
                      Error::InvalidArgument, "non-empty spatial dims");
}

TEST_F(ConvOps, Im2colCol2im) {
  Tensor* out = tf.zeros(ST::Float, {1, 8, 4});
  ASSERT_EQ(call_out("aten::im2col.out", {t(S({1, 2, 3, 3})), il({2, 2}), il({1}), il({1}), il({2})}, out), Error::Ok);
  EXPECT_VALUES(out, {0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 2.5, -1.5, 0.0, 1.0, 0.0, 0.0, -2.5, -1.0, 2.0, -2.0,
                      0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 2.5, 0.0, -0.5, 0.0, -1.5, 1.5, -2.5, 0.5, 2.0});
  Tensor* img = tf.zeros(ST::Float, {1, 2, 3, 3});
  ASSERT_EQ(call_out("aten::col2im.out", {t(S({1, 8, 4})), il({3, 3}), il({2, 2}), il({1}), il({0}), il({1})}, img),
            Error::Ok);
  EXPECT_VALUES(img, {-2.5, 1.5, -1.5, -3.0, 7.0, -1.0, -0.5, 0.0, 0.5, -1.5, 3.5, -0.5, -1.0, 0.0, 1.0, 0.5, -3.5, 1.5});
  EXPECT_KERNEL_ERROR(call_out("aten::col2im.out", {t(S({1, 8, 5})), il({3, 3}), il({2, 2}), il({1}), il({0}), il({1})}, img),
                      Error::InvalidArgument, "number of sliding blocks");
  EXPECT_KERNEL_ERROR(call_out("aten::col2im.out", {t(S({1, 7, 4})), il({3, 3}), il({2, 2}), il({1}), il({0}), il({1})}, img),
                      Error::InvalidArgument, "divisible by the product of kernel_size");
  use_temp_ = false;
  EXPECT_KERNEL_ERROR(call_out("aten::col2im.out", {t(S({1, 8, 4})), il({3, 3}), il({2, 2}), il({1}), il({0}), il({1})}, img),
                      Error::MemoryAllocationFailed, "col2im: temp memory too small");
}

TEST_F(ConvOps, Distances) {
  Tensor* x1 = S({2, 3});
  Tensor* x2 = tf.make(ST::Float, {4, 3}, seq(12, 0.7));
  Tensor* out = tf.zeros(ST::Float, {2, 4});
  ASSERT_EQ(call_out("aten::_cdist_forward.out", {t(x1), t(x2), d(2.0), none()}, out), Error::Ok);
  EXPECT_VALUES(out, {0.861684, 4.299709, 4.045986, 3.871369, 4.329261, 0.887412, 1.212436, 1.699265}, 1e-5);
  ASSERT_EQ(call_out("aten::_cdist_forward.out", {t(x1), t(x2), d(0.0), i(0)}, out), Error::Ok);
  EXPECT_VALUES(out, {3, 3, 3, 3, 3, 3, 3, 3});
  ASSERT_EQ(call_out("aten::_cdist_forward.out", {t(x1), t(x2), d(3.0), none()}, out), Error::Ok);
  EXPECT_VALUES(out, {0.780724, 4.255064, 3.92318, 3.624654, 4.259575, 0.802272, 1.13367, 1.543661}, 1e-5);
  ASSERT_EQ(call_out("aten::_cdist_forward.out", {t(x1), t(x2), d(INFINITY), none()}, out), Error::Ok);
  EXPECT_VALUES(out, {0.75, 4.25, 3.9, 3.55, 4.25, 0.75, 1.1, 1.45}, 1e-5);
  Tensor* ob = tf.zeros(ST::Float, {2, 3, 2, 2});
  ASSERT_EQ(call_out("aten::_cdist_forward.out", {t(S({2, 1, 2, 3})), t(tf.make(ST::Float, {3, 2, 3}, seq(18, 0.3))), d(2.0), none()}, ob),
            Error::Ok);
  EXPECT_VALUES(ob, {2.010597, 3.404042, 3.470231, 2.070628, 3.281768, 3.176082, 2.161018, 2.277608, 3.548591, 3.418333,
                     3.246922, 3.291656, 3.246922, 1.996873, 3.246922, 2.277608, 1.979899, 1.996873, 2.161018, 2.070628,
                     3.246922, 3.222577, 3.470231, 3.381568}, 1e-5);
  Tensor* pd = tf.zeros(ST::Float, {6});
  ASSERT_EQ(call_out("aten::_pdist_forward.out", {t(S({4, 3})), d(1.5)}, pd), Error::Ok);
  EXPECT_VALUES(pd, {5.208657, 5.108416, 5.146188, 1.040042, 2.080084, 1.040042}, 1e-5);
  EXPECT_KERNEL_ERROR(call_out("aten::_pdist_forward.out", {t(S({4, 3})), d(-1.0)}, pd), Error::InvalidArgument,
                      "p must be non-negative");
  EXPECT_KERNEL_ERROR(call_out("aten::_cdist_forward.out", {t(x1), t(S({4, 2})), d(2.0), none()}, out),
                      Error::InvalidArgument, "same number of columns");
  EXPECT_KERNEL_ERROR(call_out("aten::_cdist_forward.out", {t(x1), t(x2), d(2.0), i(3)}, out), Error::InvalidArgument,
                      "compute_mode");
}

}  // namespace
}  // namespace tri::testing

namespace tri::testing {
namespace {

// The depthwise vector paths (emulated f32x4 natively) against the scalar loop.
TEST_F(ConvOps, DepthwiseVectorPathsMatchScalar) {
  for (bool cl : {false, true}) {
    for (int64_t stride : {1, 2}) {
      for (int64_t pad : {0, 1}) {
        for (SizesType w : {3, 5, 9, 13, 21, 30}) {
          // Odd and even heights: stride 1 goes two rows at a time, the
          // last row of an odd height alone.
          for (SizesType h : {5, 6}) {
            const SizesType c = 6;
            std::vector<DimOrderType> order = cl ? std::vector<DimOrderType>{0, 2, 3, 1} : std::vector<DimOrderType>{};
            Tensor* x = tf.make(ST::Float, {2, c, h, w}, seq(static_cast<size_t>(2 * c * h * w), 0.37), order);
            Tensor* wt = tf.make(ST::Float, {c, 1, 3, 3}, seq(static_cast<size_t>(c * 9), 1.3));
            Tensor* bias = tf.make(ST::Float, {c}, seq(static_cast<size_t>(c)));
            const SizesType oh = (h + 2 * pad - 3) / stride + 1, ow = (w + 2 * pad - 3) / stride + 1;
            if (ow < 1) continue;
            Tensor* o_ref = tf.zeros(ST::Float, {2, c, oh, ow}, order);
            Tensor* o_vec = tf.zeros(ST::Float, {2, c, oh, ow}, order);
            ConvProblem p;
            p.g.img[1] = h;
            p.g.img[2] = w;
            p.g.grid[1] = oh;
            p.g.grid[2] = ow;
            p.g.k[1] = p.g.k[2] = 3;
            p.g.s[1] = p.g.s[2] = stride;
            p.g.p[1] = p.g.p[2] = pad;
            p.batch = 2;
            p.in_ch = p.out_ch = p.groups = c;
            p.input = x;
            p.weight = wt;
            p.bias = bias;
            conv_strides5(*x, p.in_st);
            conv_strides5(*wt, p.w_st);
            ASSERT_TRUE(depthwise3x3_applies(p));
            KernelContext ctx{&temp_, nullptr};
            p.out = o_ref;
            conv_strides5(*o_ref, p.out_st);
            depthwise3x3(ctx, p, false);
            p.out = o_vec;
            depthwise3x3(ctx, p, true);
            EXPECT_EQ(TensorFactory::values(*o_ref), TensorFactory::values(*o_vec))
                << "cl=" << cl << " stride=" << stride << " pad=" << pad << " w=" << w << " h=" << h;
            // In place, out being the input itself: only planar, stride 1,
            // padding 1 (the size kept) runs so, and gives the same values.
            for (bool vector : {false, true}) {
              Tensor* io = tf.make(ST::Float, {2, c, h, w}, seq(static_cast<size_t>(2 * c * h * w), 0.37), order);
              ConvProblem q = p;
              q.input = q.out = io;
              conv_strides5(*io, q.out_st);
              q.out_over_input = true;
              const bool applies = !cl && stride == 1 && pad == 1;
              ASSERT_EQ(depthwise3x3_in_place_applies(q), applies)
                  << "cl=" << cl << " stride=" << stride << " pad=" << pad << " w=" << w;
              if (!applies) continue;
              depthwise3x3(ctx, q, vector);
              EXPECT_EQ(TensorFactory::values(*io), TensorFactory::values(*o_ref))
                  << "in place, vector=" << vector << " w=" << w << " h=" << h;
            }
            // A fused tail: both paths give the plain result, finished value
            // by value (clamps that bite on both sides).
            std::vector<float> scale(c), shift(c);
            for (SizesType ch = 0; ch < c; ++ch) {
              scale[ch] = 0.5f + 0.25f * static_cast<float>(ch) * (ch % 2 == 0 ? 1.f : -1.f);
              shift[ch] = 0.3f * static_cast<float>(ch) - 0.6f;
            }
            p.affine.scale = scale.data();
            p.affine.shift = shift.data();
            p.affine.lo = -1.5f;
            p.affine.hi = 2.0f;
            std::vector<double> want = TensorFactory::values(*o_ref);
            for (size_t e = 0; e < want.size(); ++e) {
              const size_t ch = (e / static_cast<size_t>(oh * ow)) % static_cast<size_t>(c);
              const float y = shift[ch] + static_cast<float>(want[e]) * scale[ch];
              want[e] = std::min(std::max(y, -1.5f), 2.0f);
            }
            for (bool vector : {false, true}) {
              Tensor* o_fused = tf.zeros(ST::Float, {2, c, oh, ow}, order);
              p.out = o_fused;
              depthwise3x3(ctx, p, vector);
              EXPECT_EQ(TensorFactory::values(*o_fused), want) << "fused, vector=" << vector;
            }
            p.affine = ChannelAffine();
            // And the op (im2col + gemm or this path) agrees with both.
            Tensor* o_op = tf.zeros(ST::Float, {2, c, oh, ow}, order);
            ASSERT_EQ(conv(x, wt, bias, {stride}, {pad}, {1}, false, {0}, c, o_op), Error::Ok);
            EXPECT_VALUES(o_op, TensorFactory::values(*o_ref), 1e-5);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace tri::testing

namespace tri::testing {
namespace {

// Convolution in chunks of window positions (a small temp) equals one chunk,
// for the paths that read the input in place (1x1) and write out in place,
// and for the weight gradient.
TEST_F(ConvOps, ChunkedMatchesWhole) {
  Tensor* x = tf.make(ST::Float, {2, 8, 9, 7}, seq(2 * 8 * 63, 0.37));
  Tensor* bias = tf.make(ST::Float, {5}, {0.5, -1, 0, 2, 0.25});
  for (SizesType k : {1, 3}) {
    Tensor* w = tf.make(ST::Float, {5, 8, k, k}, seq(static_cast<size_t>(40 * k * k), 0.53));
    const SizesType o = k == 1 ? 9 : 7;
    const SizesType ow = k == 1 ? 7 : 5;
    Tensor* whole = tf.zeros(ST::Float, {2, 5, o, ow});
    Tensor* chunked = tf.zeros(ST::Float, {2, 5, o, ow});
    ASSERT_EQ(conv(x, w, bias, {1}, {0}, {1}, false, {0}, 1, whole), Error::Ok);
    temp_ = MemoryAllocator(temp_buffer_.data(), k == 1 ? 900 : 2500);
    ASSERT_EQ(conv(x, w, bias, {1}, {0}, {1}, false, {0}, 1, chunked), Error::Ok) << last_error_message();
    EXPECT_VALUES(chunked, TensorFactory::values(*whole), 1e-5) << "k=" << k;
    // The weight gradient, with grad_output = whole.
    Tensor* dw_whole = tf.zeros(ST::Float, {5, 8, k, k});
    Tensor* dw_chunked = tf.zeros(ST::Float, {5, 8, k, k});
    for (Tensor* dw : {dw_whole, dw_chunked}) {
      temp_ = MemoryAllocator(temp_buffer_.data(), dw == dw_whole ? temp_buffer_.size() : 2500);
      Tensor* unused = tf.zeros(ST::Float, {1});
      ASSERT_EQ(call("aten::convolution_backward.out",
                     {t(whole), t(x), t(w), none(), il({1}), il({0}), il({1}), b(false), il({0}), i(1),
                      tf.bool_list({false, true, false}), t(unused), t(dw), t(unused),
                      tf.tensor_list({unused, dw, unused})}),
                Error::Ok)
          << last_error_message();
    }
    EXPECT_VALUES(dw_chunked, TensorFactory::values(*dw_whole), 1e-4) << "k=" << k;
    temp_ = MemoryAllocator(temp_buffer_.data(), temp_buffer_.size());
  }
}

// Float32 convolutions with many positions fill and multiply their columns a
// cache-sized chunk at a time (columns_times_weights); the double path
// fills the whole tile first. Chunks of 112 positions here (1152 column
// rows), the last one partial, with a last panel of 10 columns and of 1
// (the narrow tile), bias and an odd channel count.
TEST_F(ConvOps, ColumnChunksMatchTheWholeTile) {
  for (SizesType width : {37, 33}) {
    const SizesType h = width == 37 ? 34 : 33;
    const size_t xn = static_cast<size_t>(128 * h * width);
    const std::vector<double> xv = random_values(xn, 7), wv = random_values(20 * 128 * 9, 8);
    const std::vector<double> bv = random_values(20, 9);
    std::vector<double> results[2];
    for (ST type : {ST::Float, ST::Double}) {
      Tensor* x = tf.make(type, {1, 128, h, width}, xv);
      Tensor* w = tf.make(type, {20, 128, 3, 3}, wv);
      Tensor* bias = tf.make(type, {20}, bv);
      Tensor* out = tf.zeros(type, {1, 20, h, width});
      ASSERT_EQ(conv(x, w, bias, {1}, {1}, {1}, false, {0}, 1, out), Error::Ok)
          << last_error_message();
      results[type == ST::Float ? 0 : 1] = TensorFactory::values(*out);
    }
    ASSERT_EQ(results[0].size(), results[1].size());
    for (size_t i = 0; i < results[0].size(); ++i) {
      ASSERT_NEAR(results[0][i], results[1][i], 1e-4 * (1 + std::abs(results[1][i])))
          << "width " << width << ", element " << i;
    }
  }
}

TEST(ConvChunks, WholePanelsAboutTheCacheTarget) {
  // One chunk when it holds the span.
  EXPECT_EQ(conv_chunk_positions(49, 4608 * 4), 49);
  EXPECT_EQ(conv_chunk_positions(400, 288 * 4), 400);
  // 784 positions of 2304 bytes: a target of 227, 4 even chunks of 196,
  // rounded up to whole panels.
  EXPECT_EQ(conv_chunk_positions(784, 2304), 208);
  // 12544 positions of 1152 bytes: a target of 455 -> 28 chunks of 448.
  EXPECT_EQ(conv_chunk_positions(12544, 1152), 448);
  // Wide rows: never under 64 positions (the weights are read per chunk).
  EXPECT_EQ(conv_chunk_positions(1000, 1 << 20), 64);
  for (int64_t span : {65, 300, 1258, 5000}) {
    for (int64_t row_bytes : {12, 588, 4608, 20000}) {
      const int64_t c = conv_chunk_positions(span, row_bytes);
      if (c == span) continue;
      EXPECT_EQ(c % 16, 0) << span << " " << row_bytes;
      EXPECT_GE(c * row_bytes, std::min<int64_t>(kConvChunkBytes / 2, 64 * row_bytes));
      EXPECT_LE(c * row_bytes, std::max<int64_t>(kConvChunkBytes, 64 * row_bytes) + 16 * row_bytes)
          << span << " " << row_bytes;
    }
  }
}

// The channels-last pooling vector path (emulated natively) equals the scalar loop,
// max indices included.
TEST_F(ConvOps, PoolChannelsLastVectorMatchesScalar) {
  for (PoolKind kind : {PoolKind::Max, PoolKind::Avg, PoolKind::AdaptiveAvg}) {
    for (SizesType c : {4, 6, 9}) {
      for (bool ceil : {false, true}) {
        Tensor* x = tf.make(ST::Float, {2, c, 7, 6}, seq(static_cast<size_t>(2 * c * 42), 0.77), {0, 2, 3, 1});
        PoolProblem p;
        p.kind = kind;
        p.g.img[1] = 7;
        p.g.img[2] = 6;
        p.g.k[1] = 3;
        p.g.k[2] = 2;
        p.g.s[1] = 2;
        p.g.s[2] = 2;
        p.g.p[1] = 1;
        p.g.d[2] = kind == PoolKind::Max ? 2 : 1;
        p.count_include_pad = !ceil;
        for (int i = 1; i < 3; ++i) {
          p.g.grid[i] = kind == PoolKind::AdaptiveAvg ? 3 + i
                                                      : window_count(p.g.img[i], p.g.k[i], p.g.p[i], p.g.s[i], p.g.d[i], ceil);
        }
        const std::vector<SizesType> shape = {2, c, static_cast<SizesType>(p.g.grid[1]), static_cast<SizesType>(p.g.grid[2])};
        Tensor* o1 = tf.zeros(ST::Float, shape, {0, 2, 3, 1});
        Tensor* o2 = tf.zeros(ST::Float, shape, {0, 2, 3, 1});
        Tensor* i1 = tf.zeros(ST::Long, shape, {0, 2, 3, 1});
        Tensor* i2 = tf.zeros(ST::Long, shape, {0, 2, 3, 1});
        p.in = x;
        p.out = o1;
        p.indices = kind == PoolKind::Max ? i1 : nullptr;
        ASSERT_TRUE(pool_channels_last_applies(p, 2));
        run_pool(p, 2, false);
        p.out = o2;
        p.indices = kind == PoolKind::Max ? i2 : nullptr;
        run_pool(p, 2, true);
        EXPECT_EQ(TensorFactory::values(*o1), TensorFactory::values(*o2)) << static_cast<int>(kind) << " c=" << c;
        EXPECT_EQ(TensorFactory::values(*i1), TensorFactory::values(*i2)) << static_cast<int>(kind) << " c=" << c;
      }
    }
  }
}

// A transposed convolution whose stride and dilation make an output of
// 2^60+ elements per dim: the kernel refuses the out, and its scratch
// function (which the call asks first) answers 0 without overflowing.
TEST_F(ConvOps, HugeTransposedGeometryDeclaresNoScratch) {
  Tensor* x = tf.make(ST::Float, {1, 1, 3, 3}, seq(9, 0.5));
  Tensor* w = tf.make(ST::Float, {1, 1, 2, 2}, {1, 2, 3, 4});
  Tensor* out = tf.zeros(ST::Float, {1, 1, 4, 4});
  const int64_t big = int64_t{1} << 30;
  std::vector<EValue*> args = {t(x), t(w), none(), il({big, big}), il({0, 0}), il({big, big}), b(true),
                               il({0, 0}), i(1), t(out), t(out)};
  KernelArgs kernel_args(args.data(), args.size());
  EXPECT_EQ(find_kernel("aten::convolution.out")->scratch(kernel_args), 0u);
  EXPECT_NE(call("aten::convolution.out", args), Error::Ok);
}

// The row-wise f32x4 max pool (four output columns at a time, emulated
// natively) equals the scalar loop: values and indices, with NaNs, ties
// (rounded values repeat) and -inf windows, over strides, paddings and
// dilations whose edges fall back to the scalar columns.
TEST_F(ConvOps, MaxPoolRowsVectorMatchesScalar) {
  const SizesType h = 9;
  const SizesType w = 23;
  std::vector<double> v = seq(static_cast<size_t>(2 * h * w), 0.61);
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::round(v[i] * 4) / 4;  // ties
  v[5] = std::nan("");
  v[31] = std::nan("");
  v[32] = std::nan("");
  for (size_t i = 60; i < 70; ++i) v[i] = -std::numeric_limits<double>::infinity();
  Tensor* x = tf.make(ST::Float, {1, 2, h, w}, v);
  int cases = 0;
  for (int64_t k : {2, 3}) {
    for (int64_t stride : {1, 2, 3}) {
      for (int64_t pad = 0; pad <= k / 2; ++pad) {
        for (int64_t dil : {1, 2}) {
          PoolProblem p;
          p.kind = PoolKind::Max;
          p.g.img[1] = h;
          p.g.img[2] = w;
          p.g.k[1] = p.g.k[2] = k;
          p.g.s[1] = p.g.s[2] = stride;
          p.g.p[1] = p.g.p[2] = pad;
          p.g.d[1] = p.g.d[2] = dil;
          for (int i = 1; i < 3; ++i) p.g.grid[i] = window_count(p.g.img[i], k, pad, stride, dil, false);
          const std::vector<SizesType> shape = {1, 2, static_cast<SizesType>(p.g.grid[1]),
                                                static_cast<SizesType>(p.g.grid[2])};
          Tensor* o1 = tf.zeros(ST::Float, shape);
          Tensor* o2 = tf.zeros(ST::Float, shape);
          Tensor* i1 = tf.zeros(ST::Long, shape);
          Tensor* i2 = tf.zeros(ST::Long, shape);
          p.in = x;
          p.out = o1;
          p.indices = i1;
          run_pool(p, 2, false);
          p.out = o2;
          p.indices = i2;
          run_pool(p, 2, true);
          const std::string where = "k=" + std::to_string(k) + " s=" + std::to_string(stride) +
                                    " p=" + std::to_string(pad) + " d=" + std::to_string(dil);
          EXPECT_VALUES(o2, TensorFactory::values(*o1)) << where;
          EXPECT_EQ(TensorFactory::values(*i2), TensorFactory::values(*i1)) << where;
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 2 * 3 * 2 * 2);
}

}  // namespace
}  // namespace tri::testing
