// Batch, layer and group norm, upsampling, pixel (un)shuffle and embedding.
// Expected values from PyTorch 1.13.
#include <cmath>

#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class NnNorm : public KernelTest {
 protected:
  const std::vector<double> x_ = {-1.0, -0.63, -0.26, 0.11, 0.48, 0.85, 1.22, -0.7099998,
                                  -0.3399999, 0.03, 0.4000001, 0.7700002, 1.1400001, -0.79,
                                  -0.4199996, -0.0499997, 0.3200002, 0.6900001, 1.06, -0.8699996,
                                  -0.4999998, -0.1299999, 0.2400005, 0.6100004};
  // Logical-order values stored channels-last when `cl`.
  Tensor* x(bool cl = false) {
    return tf.make(ST::Float, {2, 3, 2, 2}, x_, cl ? std::vector<DimOrderType>{0, 2, 3, 1}
                                                    : std::vector<DimOrderType>{});
  }
  Tensor* vec(std::vector<double> v) {
    return f32({static_cast<SizesType>(v.size())}, v);
  }
  Error call3(const char* op, std::vector<EValue*> in, Tensor* a, Tensor* b2, Tensor* c) {
    in.push_back(t(a));
    in.push_back(t(b2));
    in.push_back(t(c));
    in.push_back(tf.tensor_list({a, b2, c}));
    return call(op, in);
  }
};

const std::vector<double> kBnEval = {
    -2.445559, -1.660678, -0.875798, -0.090917, -0.036783, -0.187835, -0.338886, 0.449031,
    -1.731074, -0.903735, -0.076394, 0.750946,  2.094021,  -2.000086, -1.215205, -0.430324,
    0.028536,  -0.122515, -0.273566, 0.51435,   -2.088843, -1.261503, -0.434162, 0.393178};

TEST_F(NnNorm, BatchNormEvalAnyLayout) {
  for (bool cl : {false, true}) {
    for (bool temp : {true, false}) {
      use_temp_ = temp;
      Tensor* out = tf.zeros(ST::Float, {2, 3, 2, 2}, cl ? std::vector<DimOrderType>{0, 2, 3, 1}
                                                         : std::vector<DimOrderType>{});
      Tensor* sm = dyn(ST::Float, {3});
      Tensor* si = dyn(ST::Float, {3});
      ASSERT_EQ(call3("aten::_native_batch_norm_legit_no_training.out",
                      {t(x(cl)), t(vec({1.5, -0.5, 2.0})), t(vec({0.1, 0.2, -0.3})),
                       t(vec({0.2, -0.1, 0.3})), t(vec({0.5, 1.5, 0.8})), d(0.1), d(1e-5)},
                      out, sm, si),
                Error::Ok)
          << last_error_message();
      EXPECT_TRUE(values_near(*out, kBnEval, 1e-5)) << "channels_last " << cl << " temp " << temp;
      EXPECT_EQ(sizes_of(*sm), std::vector<SizesType>{0});
    }
  }
  // Double, and native_batch_norm.out in evaluation mode.
  Tensor* out = tf.zeros(ST::Double, {2, 3, 2, 2});
  ASSERT_EQ(call3("aten::native_batch_norm.out",
                  {t(tf.make(ST::Double, {2, 3, 2, 2}, x_)), t(vec({1.5, -0.5, 2.0})),
                   t(vec({0.1, 0.2, -0.3})), t(vec({0.2, -0.1, 0.3})), t(vec({0.5, 1.5, 0.8})),
                   b(false), d(0.1), d(1e-5)},
                  out, dyn(ST::Double, {3}), dyn(ST::Double, {3})),
            Error::Ok);
  EXPECT_VALUES(out, kBnEval, 1e-5);
}

TEST_F(NnNorm, BatchNormTrainingUpdatesRunningStats) {
  Tensor* rm = vec({0.2, -0.1, 0.3});
  Tensor* rv = vec({0.5, 1.5, 0.8});
  Tensor* out = tf.zeros(ST::Float, {2, 3, 2, 2}, {0, 2, 3, 1});
  Tensor* sm = tf.zeros(ST::Float, {3});
  Tensor* si = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call3("aten::_native_batch_norm_legit.out",
                  {t(x(true)), t(vec({1.5, -0.5, 2.0})), t(vec({0.1, 0.2, -0.3})), t(rm), t(rv),
                   b(true), d(0.1), d(1e-5)},
                  out, sm, si),
            Error::Ok)
      << last_error_message();
  EXPECT_VALUES(out,
                {-1.729114, -0.841544, 0.046026, 0.933596, 0.131395, -0.122445, -0.376284,
                 0.947797, -2.554663, -0.7984, 0.957864, 2.714128, 3.404398, -1.225358, -0.337787,
                 0.549782, 0.241163, -0.012676, -0.266516, 1.057566, -3.314128, -1.557865, 0.1984,
                 1.954664},
                1e-5);
  EXPECT_VALUES(sm, {-0.2374999, 0.3800001, 0.1350002}, 1e-5);
  EXPECT_VALUES(si, {1.5992248, 1.3721051, 2.3733292}, 1e-5);
  EXPECT_VALUES(rm, {0.15625, -0.052, 0.2835}, 1e-5);
  EXPECT_VALUES(rv, {0.494685, 1.4107027, 0.7402886}, 1e-5);
  // No running stats.
  ASSERT_EQ(call3("aten::_native_batch_norm_legit.no_stats_out",
                  {t(x()), none(), none(), b(true), d(0.1), d(1e-5)}, tf.zeros(ST::Float, {2, 3, 2, 2}),
                  sm, si),
            Error::Ok);
  EXPECT_VALUES(sm, {-0.2374999, 0.3800001, 0.1350002}, 1e-5);
}

TEST_F(NnNorm, BatchNormErrors) {
  Tensor* out = tf.zeros(ST::Float, {2, 3, 2, 2});
  EXPECT_KERNEL_ERROR(call3("aten::_native_batch_norm_legit_no_training.out",
                            {t(x()), t(vec({1, 2})), none(), t(vec({0, 0, 0})), t(vec({1, 1, 1})),
                             d(0.1), d(1e-5)},
                            out, dyn(ST::Float, {3}), dyn(ST::Float, {3})),
                      Error::InvalidArgument, "weight should contain 3 elements not 2");
  EXPECT_KERNEL_ERROR(call3("aten::_native_batch_norm_legit.no_stats_out",
                            {t(x()), none(), none(), b(false), d(0.1), d(1e-5)}, out,
                            dyn(ST::Float, {3}), dyn(ST::Float, {3})),
                      Error::InvalidArgument, "must be defined in evaluation mode");
  EXPECT_KERNEL_ERROR(call3("aten::_native_batch_norm_legit.no_stats_out",
                            {t(vec({1, 2})), none(), none(), b(true), d(0.1), d(1e-5)}, out,
                            dyn(ST::Float, {3}), dyn(ST::Float, {3})),
                      Error::InvalidArgument, "at least 2 dims");
  EXPECT_KERNEL_ERROR(call3("aten::_native_batch_norm_legit.no_stats_out",
                            {t(tf.make(ST::Long, {2, 2}, {1, 2, 3, 4})), none(), none(), b(true),
                             d(0.1), d(1e-5)},
                            out, dyn(ST::Float, {3}), dyn(ST::Float, {3})),
                      Error::InvalidType, "input: dtype Long");
}

TEST_F(NnNorm, LayerNorm) {
  for (bool cl : {false, true}) {
    Tensor* out = tf.zeros(ST::Float, {2, 3, 2, 2});
    Tensor* mean = tf.zeros(ST::Float, {2, 3, 1, 1});
    Tensor* rstd = tf.zeros(ST::Float, {2, 3, 1, 1});
    ASSERT_EQ(call3("aten::native_layer_norm.out", {t(x(cl)), il({2, 2}), none(), none(), d(1e-5)},
                    out, mean, rstd),
              Error::Ok)
        << last_error_message();
    EXPECT_VALUES(out,
                  {-1.341602, -0.447201, 0.447201, 1.341602, 0.027609, 0.538374, 1.049139,
                   -1.615123, -1.341601, -0.447201, 0.4472, 1.341602, 1.615122, -1.04914,
                   -0.538374, -0.027609, 0.027609, 0.538374, 1.049139, -1.615123, -1.341601,
                   -0.447201, 0.447201, 1.341601},
                  1e-5);
    EXPECT_VALUES(mean, {-0.445, 0.46, 0.215, -0.03, 0.3, 0.055}, 1e-5);
    EXPECT_VALUES(rstd, {2.4173002, 1.3804468, 2.4172997, 1.3804467, 1.3804469, 2.4172995}, 1e-5);
  }
  Tensor* out = tf.zeros(ST::Float, {2, 3, 2, 2});
  ASSERT_EQ(call3("aten::native_layer_norm.out",
                  {t(x()), il({2, 2}), t(f32({2, 2}, {1, 2, 0.5, -1})), t(f32({2, 2}, {0, 1, -1, 0.5})),
                   d(1e-5)},
                  out, tf.zeros(ST::Float, {2, 3, 1, 1}), tf.zeros(ST::Float, {2, 3, 1, 1})),
            Error::Ok);
  EXPECT_VALUES(out,
                {-1.341602, 0.105599, -0.7764, -0.841602, 0.027609, 2.076748, -0.47543, 2.115123,
                 -1.341601, 0.105599, -0.7764, -0.841602, 1.615122, -1.098279, -1.269187, 0.527609,
                 0.027609, 2.076748, -0.47543, 2.115123, -1.341601, 0.105598, -0.7764, -0.841601},
                1e-5);
  // An empty normalized block: mean 0, rstd NaN.
  Tensor* m0 = tf.zeros(ST::Float, {3, 1});
  Tensor* r0 = tf.zeros(ST::Float, {3, 1});
  ASSERT_EQ(call3("aten::native_layer_norm.out", {t(tf.zeros(ST::Float, {3, 0})), il({0}), none(), none(), d(1e-5)},
                  tf.zeros(ST::Float, {3, 0}), m0, r0),
            Error::Ok);
  EXPECT_VALUES(r0, {NAN, NAN, NAN});
  EXPECT_KERNEL_ERROR(call3("aten::native_layer_norm.out", {t(x()), il({4}), none(), none(), d(1e-5)},
                            out, dyn(ST::Float, {2, 3, 2, 2}), dyn(ST::Float, {2, 3, 2, 2})),
                      Error::InvalidArgument, "does not end in normalized_shape");
  EXPECT_KERNEL_ERROR(call3("aten::native_layer_norm.out", {t(x()), il({}), none(), none(), d(1e-5)},
                            out, dyn(ST::Float, {2, 3, 2, 2}), dyn(ST::Float, {2, 3, 2, 2})),
                      Error::InvalidArgument, "at least 1-dimensional");
  EXPECT_KERNEL_ERROR(call3("aten::native_layer_norm.out",
                            {t(x()), il({2}), t(vec({1, 2, 3})), none(), d(1e-5)}, out,
                            dyn(ST::Float, {2, 3, 2, 2}), dyn(ST::Float, {2, 3, 2, 2})),
                      Error::InvalidArgument, "weight to be of same shape");
}

TEST_F(NnNorm, GroupNorm) {
  for (bool temp : {true, false}) {
    use_temp_ = temp;
    Tensor* out = tf.zeros(ST::Float, {2, 4, 3});
    Tensor* mean = tf.zeros(ST::Float, {2, 2});
    Tensor* rstd = tf.zeros(ST::Float, {2, 2});
    ASSERT_EQ(call3("aten::native_group_norm.out",
                    {t(f32({2, 4, 3}, x_)), t(vec({1, 2, 3, 4})), t(vec({0, 0.5, -0.5, 1})), i(2),
                     i(4), i(3), i(2), d(1e-5)},
                    out, mean, rstd),
              Error::Ok)
        << last_error_message();
    EXPECT_VALUES(out,
                  {-1.463832, -0.878299, -0.292766, 1.085533, 2.256598, 3.427664, 4.064209,
                   -4.818738, -3.11579, -0.217123, 2.053475, 4.324074, 1.521403, -1.43958,
                   -0.87193, -0.108561, 1.026738, 2.162036, 4.064208, -4.818738, -3.115791,
                   -0.217123, 2.053477, 4.324075},
                  1e-5);
    EXPECT_VALUES(mean, {-0.075, 0.2283334, 0.1483335, 0.0683336}, 1e-5);
    EXPECT_VALUES(rstd, {1.5825208, 1.5341878, 1.5341878, 1.5341879}, 1e-5);
  }
  EXPECT_KERNEL_ERROR(call3("aten::native_group_norm.out",
                            {t(x()), none(), none(), i(2), i(3), i(4), i(2), d(1e-5)},
                            tf.zeros(ST::Float, {2, 3, 2, 2}), dyn(ST::Float, {4, 4}), dyn(ST::Float, {4, 4})),
                      Error::InvalidArgument, "divisible by num_groups");
  EXPECT_KERNEL_ERROR(call3("aten::native_group_norm.out",
                            {t(x()), none(), none(), i(2), i(3), i(5), i(3), d(1e-5)},
                            tf.zeros(ST::Float, {2, 3, 2, 2}), dyn(ST::Float, {4, 4}), dyn(ST::Float, {4, 4})),
                      Error::InvalidArgument, "is not N * C * HxW");
  EXPECT_KERNEL_ERROR(call3("aten::native_group_norm.out",
                            {t(x()), none(), none(), i(2), i(3), i(4), i(0), d(1e-5)},
                            tf.zeros(ST::Float, {2, 3, 2, 2}), dyn(ST::Float, {4, 4}), dyn(ST::Float, {4, 4})),
                      Error::InvalidArgument, "greater than 0");
}

TEST_F(NnNorm, Upsample) {
  Tensor* in = f32({1, 1, 2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor* out = dyn(ST::Float, {1, 1, 8, 8});
  ASSERT_EQ(call_out("aten::upsample_nearest2d.out", {t(in), il({3, 5}), none(), none()}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 1, 2, 2, 3, 1, 1, 2, 2, 3, 4, 4, 5, 5, 6});
  ASSERT_EQ(call_out("aten::upsample_nearest2d.out", {t(in), il({5, 4}), d(1.7), d(1.3)}, out), Error::Ok);
  EXPECT_VALUES(out, {1, 1, 2, 3, 1, 1, 2, 3, 4, 4, 5, 6, 4, 4, 5, 6, 4, 4, 5, 6});
  ASSERT_EQ(call_out("aten::upsample_bilinear2d.out", {t(in), il({3, 4}), b(false), none(), none()}, out),
            Error::Ok);
  EXPECT_VALUES(out, {1.0, 1.625, 2.375, 3.0, 2.5, 3.125, 3.875, 4.5, 4.0, 4.625, 5.375, 6.0}, 1e-6);
  ASSERT_EQ(call_out("aten::upsample_bilinear2d.out", {t(in), il({3, 4}), b(true), none(), none()}, out),
            Error::Ok);
  EXPECT_VALUES(out, {1.0, 1.666667, 2.333333, 3.0, 2.5, 3.166667, 3.833333, 4.5, 4.0, 4.666667,
                      5.333333, 6.0}, 1e-6);
  ASSERT_EQ(call_out("aten::upsample_bilinear2d.vec_out",
                     {t(in), none(), b(false), tf.double_list({1.5, 2.0})}, out),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{1, 1, 3, 6}));
  EXPECT_VALUES(out, {1.0, 1.25, 1.75, 2.25, 2.75, 3.0, 2.5, 2.75, 3.25, 3.75, 4.25, 4.5, 4.0,
                      4.25, 4.75, 5.25, 5.75, 6.0}, 1e-6);
  Tensor* in1 = f32({1, 2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor* out1 = dyn(ST::Float, {1, 2, 8});
  ASSERT_EQ(call_out("aten::upsample_linear1d.out", {t(in1), il({5}), b(false), none()}, out1), Error::Ok);
  EXPECT_VALUES(out1, {1.0, 1.4, 2.0, 2.6, 3.0, 4.0, 4.4, 5.0, 5.6, 6.0}, 1e-6);
  ASSERT_EQ(call_out("aten::upsample_nearest1d.vec_out", {t(in1), none(), tf.double_list({2.5})}, out1),
            Error::Ok);
  EXPECT_VALUES(out1, {1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6});
  // Tiny scales give huge (or inf) source indices: clamped, never converted out of range.
  EXPECT_EQ(call_out("aten::upsample_nearest2d.out", {t(in), il({3, 5}), d(1e-300), d(1e-300)}, out), Error::Ok);
  EXPECT_EQ(call_out("aten::upsample_bilinear2d.out", {t(in), il({3, 5}), b(false), d(1e-300), d(1e-40)}, out),
            Error::Ok);
  EXPECT_KERNEL_ERROR(call_out("aten::upsample_nearest2d.vec_out", {t(in), il({2, 2}), tf.double_list({2, 2})}, out),
                      Error::InvalidArgument, "exactly one of output_size and scale_factors");
  EXPECT_KERNEL_ERROR(call_out("aten::upsample_nearest2d.out", {t(in), il({0, 2}), none(), none()}, out),
                      Error::InvalidArgument, "greater than 0");
  EXPECT_KERNEL_ERROR(call_out("aten::upsample_nearest2d.vec_out", {t(in), none(), tf.double_list({1e300, 2})}, out),
                      Error::InvalidArgument, "out of range");
  EXPECT_KERNEL_ERROR(call_out("aten::upsample_bilinear2d.out",
                               {t(tf.make(ST::Byte, {1, 1, 1, 1}, {1})), il({2, 2}), b(false), none(), none()},
                               tf.zeros(ST::Byte, {1, 1, 2, 2})),
                      Error::InvalidType, "self: dtype Byte");
}

TEST_F(NnNorm, PixelShuffleAndEmbedding) {
  std::vector<double> r16(16);
  for (int k = 0; k < 16; ++k) r16[k] = k;
  Tensor* out = tf.zeros(ST::Float, {1, 1, 4, 4}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("aten::pixel_shuffle.out", {t(f32({1, 4, 2, 2}, r16)), i(2)}, out), Error::Ok);
  EXPECT_VALUES(out, {0, 4, 1, 5, 8, 12, 9, 13, 2, 6, 3, 7, 10, 14, 11, 15});
  Tensor* out2 = tf.zeros(ST::Float, {1, 4, 2, 2});
  ASSERT_EQ(call_out("aten::pixel_unshuffle.out", {t(f32({1, 1, 4, 4}, r16)), i(2)}, out2), Error::Ok);
  EXPECT_VALUES(out2, {0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15});
  EXPECT_KERNEL_ERROR(call_out("aten::pixel_shuffle.out", {t(f32({1, 3, 2, 2}, std::vector<double>(12))), i(2)}, out),
                      Error::InvalidArgument, "divisible by the square");
  EXPECT_KERNEL_ERROR(call_out("aten::pixel_unshuffle.out", {t(f32({1, 1, 4, 4}, r16)), i(0)}, out2),
                      Error::InvalidArgument, "greater than 0");

  Tensor* w = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor* eout = tf.zeros(ST::Float, {2, 2, 2});
  ASSERT_EQ(call_out("aten::embedding.out",
                     {t(w), t(tf.make(ST::Long, {2, 2}, {2, 0, 1, 2})), i(-1), b(false), b(false)}, eout),
            Error::Ok);
  EXPECT_VALUES(eout, {5, 6, 1, 2, 3, 4, 5, 6});
  EXPECT_KERNEL_ERROR(call_out("aten::embedding.out",
                               {t(w), t(tf.make(ST::Int, {2}, {3, 0})), i(-1), b(false), b(false)},
                               tf.zeros(ST::Float, {2, 2})),
                      Error::InvalidArgument, "index 3 is out of range");
  EXPECT_KERNEL_ERROR(call_out("aten::embedding.out",
                               {t(w), t(tf.make(ST::Int, {2}, {-1, 0})), i(-1), b(false), b(false)},
                               tf.zeros(ST::Float, {2, 2})),
                      Error::InvalidArgument, "index -1 is out of range");
}

}  // namespace
}  // namespace tri::testing
