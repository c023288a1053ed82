// Winograd F(2x2, 3x3) against a float64 direct convolution, and against
// the im2col path it replaces (taken when temp is too small for it), over
// odd and even sizes, paddings 0-2, batches, strided inputs, bias and the
// fused affine tail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cpp/kernels/util/conv_forward.h"
#include "cpp/kernels/util/conv_plan.h"
#include "cpp/kernels/util/conv_winograd.h"
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;

struct Case {
  SizesType batch, in_ch, out_ch, h, w;
  int64_t pad;
  bool channels_last_input;
  bool bias;
  bool affine;
};

class ConvWinograd : public KernelTest {
 protected:
  // Room for the largest case's transformed planes (about 1.2 MB).
  ConvWinograd() {
    temp_buffer_.assign(size_t{4} << 20, 0);
    temp_ = MemoryAllocator(temp_buffer_.data(), temp_buffer_.size());
  }

  struct Built {
    ConvProblem p;
    Tensor* out;
    std::vector<double> x, wt, b;
    std::vector<float> scale, shift;
  };

  Built build(const Case& c) {
    Built r;
    const SizesType oh = c.h + 2 * static_cast<SizesType>(c.pad) - 2;
    const SizesType ow = c.w + 2 * static_cast<SizesType>(c.pad) - 2;
    r.x = random_values(static_cast<size_t>(c.batch * c.in_ch * c.h * c.w), 1);
    r.wt = random_values(static_cast<size_t>(c.out_ch * c.in_ch * 9), 2);
    r.b = random_values(static_cast<size_t>(c.out_ch), 3);
    const std::vector<DimOrderType> order =
        c.channels_last_input ? std::vector<DimOrderType>{0, 2, 3, 1} : std::vector<DimOrderType>{};
    Tensor* x = tf.make(ST::Float, {c.batch, c.in_ch, c.h, c.w}, r.x, order);
    Tensor* wt = tf.make(ST::Float, {c.out_ch, c.in_ch, 3, 3}, r.wt);
    Tensor* bias = c.bias ? tf.make(ST::Float, {c.out_ch}, r.b) : nullptr;
    r.out = tf.zeros(ST::Float, {c.batch, c.out_ch, oh, ow});
    ConvProblem& p = r.p;
    p.g.img[1] = c.h;
    p.g.img[2] = c.w;
    p.g.grid[1] = oh;
    p.g.grid[2] = ow;
    p.g.k[1] = p.g.k[2] = 3;
    p.g.p[1] = p.g.p[2] = c.pad;
    p.batch = c.batch;
    p.in_ch = c.in_ch;
    p.out_ch = c.out_ch;
    p.input = x;
    p.weight = wt;
    p.bias = bias;
    p.out = r.out;
    conv_strides5(*x, p.in_st);
    conv_strides5(*wt, p.w_st);
    conv_strides5(*r.out, p.out_st);
    const int64_t w_size[5] = {c.out_ch, c.in_ch, 1, 3, 3};
    for (int i = 0; i < 5; ++i) p.w_size[i] = w_size[i];
    if (c.affine) {
      for (SizesType o = 0; o < c.out_ch; ++o) {
        r.scale.push_back(0.5f + 0.125f * static_cast<float>(o % 5));
        r.shift.push_back(-0.25f + 0.0625f * static_cast<float>(o % 7));
      }
      p.affine.scale = r.scale.data();
      p.affine.shift = r.shift.data();
      p.affine.lo = 0.0f;
      p.affine.hi = 6.0f;
    }
    return r;
  }

  // The direct sum in float64, then the bias and the tail.
  static std::vector<double> reference(const Case& c, const Built& r) {
    const int64_t oh = c.h + 2 * c.pad - 2, ow = c.w + 2 * c.pad - 2;
    std::vector<double> y;
    for (int64_t n = 0; n < c.batch; ++n) {
      for (int64_t o = 0; o < c.out_ch; ++o) {
        for (int64_t i = 0; i < oh; ++i) {
          for (int64_t j = 0; j < ow; ++j) {
            double s = c.bias ? r.b[static_cast<size_t>(o)] : 0.0;
            for (int64_t ch = 0; ch < c.in_ch; ++ch) {
              for (int64_t kh = 0; kh < 3; ++kh) {
                for (int64_t kw = 0; kw < 3; ++kw) {
                  const int64_t yy = i + kh - c.pad, xx = j + kw - c.pad;
                  if (yy < 0 || yy >= c.h || xx < 0 || xx >= c.w) continue;
                  s += r.x[static_cast<size_t>(((n * c.in_ch + ch) * c.h + yy) * c.w + xx)] *
                       r.wt[static_cast<size_t>(((o * c.in_ch + ch) * 3 + kh) * 3 + kw)];
                }
              }
            }
            if (c.affine) {
              s = std::min(6.0, std::max(0.0, r.shift[static_cast<size_t>(o)] +
                                                  s * r.scale[static_cast<size_t>(o)]));
            }
            y.push_back(s);
          }
        }
      }
    }
    return y;
  }
};

const Case kCases[] = {
    {1, 64, 64, 16, 16, 1, false, true, false},
    {2, 64, 72, 13, 11, 1, false, true, false},
    {1, 72, 64, 19, 17, 0, false, false, false},
    {1, 64, 96, 20, 12, 2, false, true, true},
    {2, 65, 67, 9, 23, 1, true, true, true},
    // Last steps of 1 and 3 tiles with an odd width (5 and 1 columns).
    {2, 64, 64, 14, 13, 1, false, true, false},
    {1, 64, 80, 30, 9, 1, false, false, true},
};

TEST_F(ConvWinograd, MatchesTheDirectSumAndTheIm2colPath) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(::testing::Message() << "batch " << c.batch << " in " << c.in_ch << " out " << c.out_ch
                                    << " " << c.h << "x" << c.w << " pad " << c.pad);
    Built r = build(c);
    ASSERT_TRUE(winograd3x3_applies(r.p));
    const std::vector<double> expected = reference(c, r);

    KernelContext ctx{&temp_, nullptr};
    temp_ = MemoryAllocator(temp_buffer_.data(), temp_buffer_.size());
    ASSERT_LE(winograd3x3_scratch(r.p), temp_buffer_.size());
    ASSERT_TRUE(winograd3x3(ctx, r.p));
    const std::vector<double> winograd = TensorFactory::values(*r.out);

    // A temp one byte short of it: winograd3x3 declines, takes nothing,
    // and run_convolution runs the im2col path in what is there.
    const size_t short_of = winograd3x3_scratch(r.p) - 1;
    temp_ = MemoryAllocator(temp_buffer_.data(), short_of);
    ASSERT_FALSE(winograd3x3(ctx, r.p));
    EXPECT_EQ(temp_.used(), 0u);
    Tensor* out2 = tf.zeros(ST::Float, sizes_of(*r.out));
    r.p.out = out2;
    ASSERT_EQ(run_convolution(ctx, r.p), Error::Ok) << last_error_message();
    const std::vector<double> im2col = TensorFactory::values(*out2);

    ASSERT_EQ(winograd.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      // Transforms of 16 terms, then sums of in_ch x 16 products: rounding
      // of a few ulps of the terms' magnitude.
      const double tol = 2e-6 * static_cast<double>(c.in_ch) * 9 + 1e-6;
      ASSERT_NEAR(winograd[i], expected[i], tol) << "element " << i;
      ASSERT_NEAR(im2col[i], expected[i], tol) << "element " << i;
    }
  }
}

TEST_F(ConvWinograd, RunConvolutionTakesItWhereItApplies) {
  Built r = build(kCases[1]);
  KernelContext ctx{&temp_, nullptr};
  ASSERT_EQ(run_convolution(ctx, r.p), Error::Ok) << last_error_message();
  // The im2col path would have taken less: K x positions columns, not the
  // 16 transformed planes of both sides.
  EXPECT_GE(temp_.used(), winograd3x3_scratch(r.p) - kTempSlack - 4 * kDefaultAlignment);
  const std::vector<double> got = TensorFactory::values(*r.out);
  const std::vector<double> expected = reference(kCases[1], r);
  for (size_t i = 0; i < expected.size(); ++i) ASSERT_NEAR(got[i], expected[i], 1e-4) << i;
}

TEST_F(ConvWinograd, RunsInTheScratchTheConvolutionDeclares) {
  // 64 -> 64 channels at 16x16: Winograd's planes take more than im2col's
  // columns, so the declared scratch is Winograd's. A method whose largest
  // need this is gets exactly that: it must run Winograd in it.
  Built r = build(kCases[0]);
  const size_t declared = convolution_scratch(r.p);
  ASSERT_EQ(declared, winograd3x3_scratch(r.p));
  MemoryAllocator exact(temp_buffer_.data(), declared);
  KernelContext ctx{&exact, nullptr};
  ASSERT_EQ(run_convolution(ctx, r.p), Error::Ok) << last_error_message();
  EXPECT_GE(exact.used(), declared - kTempSlack - 4 * kDefaultAlignment);
  const std::vector<double> got = TensorFactory::values(*r.out);
  const std::vector<double> expected = reference(kCases[0], r);
  for (size_t i = 0; i < expected.size(); ++i) ASSERT_NEAR(got[i], expected[i], 1e-4) << i;
}

TEST_F(ConvWinograd, RunsWithItsOutOverItsInput) {
  // A memory plan may give the out the input's memory when the input dies
  // here: every input value is transformed before the first output.
  const Case c{1, 64, 64, 18, 16, 1, false, true, true};
  Built r = build(c);
  const std::vector<double> expected = reference(c, r);
  ConvProblem q = r.p;
  Tensor* io = tf.make(ST::Float, {1, 64, 18, 16}, r.x);
  q.input = q.out = io;
  q.out_over_input = true;
  ASSERT_TRUE(winograd3x3_applies(q));
  KernelContext ctx{&temp_, nullptr};
  ASSERT_EQ(run_convolution(ctx, q), Error::Ok) << last_error_message();
  const std::vector<double> got = TensorFactory::values(*io);
  for (size_t i = 0; i < expected.size(); ++i) ASSERT_NEAR(got[i], expected[i], 1e-4) << i;
}

TEST_F(ConvWinograd, LeavesOtherProblemsToIm2col) {
  Built r = build(kCases[0]);
  ASSERT_TRUE(winograd3x3_applies(r.p));
  auto declines = [&](auto change) {
    ConvProblem q = r.p;
    change(q);
    return !winograd3x3_applies(q);
  };
  EXPECT_TRUE(declines([](ConvProblem& q) { q.g.s[1] = q.g.s[2] = 2; }));
  EXPECT_TRUE(declines([](ConvProblem& q) { q.g.d[1] = 2; }));
  EXPECT_TRUE(declines([](ConvProblem& q) { q.g.k[2] = 5; }));
  EXPECT_TRUE(declines([](ConvProblem& q) { q.groups = 2; }));
  EXPECT_TRUE(declines([](ConvProblem& q) { q.transposed = true; }));
  EXPECT_TRUE(declines([](ConvProblem& q) { q.out_st[4] = 64; }));  // channels-last out
  EXPECT_TRUE(declines([](ConvProblem& q) { q.in_ch = 32; }));
  EXPECT_TRUE(declines([](ConvProblem& q) { q.in_ch = q.out_ch = 256; }));
  EXPECT_TRUE(declines([](ConvProblem& q) { q.g.grid[1] = q.g.grid[2] = 6; }));  // 9 tiles
  // 64 images of 16x16: 32 MiB of transformed planes, past what it takes.
  EXPECT_TRUE(declines([](ConvProblem& q) { q.batch = 64; }));
  EXPECT_FALSE(declines([](ConvProblem& q) { q.batch = 16; }));
}

}  // namespace
}  // namespace tri::testing
