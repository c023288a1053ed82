// Backward ops of pooling, embedding, convolution, layer and group norm. Expected values from
// PyTorch 1.13.
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class NnBackward : public KernelTest {};

TEST_F(NnBackward, Pooling) {
  Tensor* g = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  Tensor* out = tf.zeros(ST::Float, {1, 1, 3, 3}, {0, 2, 3, 1});
  ASSERT_EQ(call_out("aten::_adaptive_avg_pool2d_backward.out", {t(g), t(tf.zeros(ST::Float, {1, 1, 3, 3}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {0.25, 0.75, 0.5, 1.0, 2.5, 1.5, 0.75, 1.75, 1.0});
  Tensor* gi = tf.zeros(ST::Float, {1, 1, 4, 4});
  ASSERT_EQ(call_out("aten::avg_pool2d_backward.grad_input",
                     {t(g), t(tf.zeros(ST::Float, {1, 1, 4, 4})), il({3, 3}), il({2, 2}), il({1, 1}),
                      b(false), b(false), none()},
                     gi),
            Error::Ok);
  EXPECT_VALUES(gi, {0.25, 0.5833334, 0.3333333, 0.3333333, 0.75, 1.5277778, 0.7777778, 0.7777778,
                     0.5, 0.9444444, 0.4444444, 0.4444444, 0.5, 0.9444444, 0.4444444, 0.4444444},
                1e-6);
  ASSERT_EQ(call_out("aten::avg_pool2d_backward.grad_input",
                     {t(g), t(tf.zeros(ST::Float, {1, 1, 4, 4})), il({3, 3}), il({2, 2}), il({1, 1}),
                      b(false), b(true), none()},
                     gi),
            Error::Ok);
  EXPECT_VALUES(gi, {0.1111111, 0.3333333, 0.2222222, 0.2222222, 0.4444444, 1.1111112, 0.6666667,
                     0.6666667, 0.3333333, 0.7777778, 0.4444444, 0.4444444, 0.3333333, 0.7777778,
                     0.4444444, 0.4444444},
                1e-6);
  EXPECT_KERNEL_ERROR(call_out("aten::avg_pool2d_backward.grad_input",
                               {t(g), t(tf.zeros(ST::Float, {1, 1, 4, 4})), il({3, 3}), il({1, 1}), il({1, 1}),
                                b(false), b(true), none()},
                               gi),
                      Error::InvalidArgument, "should be 4x4");
  Tensor* mi = tf.zeros(ST::Float, {1, 1, 3, 3});
  std::vector<EValue*> args = {t(g), t(tf.zeros(ST::Float, {1, 1, 3, 3})), il({2, 2}), il({1, 1}), il({0, 0}),
                               il({1, 1}), b(false), t(tf.make(ST::Long, {1, 1, 2, 2}, {0, 0, 8, 5})),
                               t(mi), t(mi)};
  ASSERT_EQ(call("aten::max_pool2d_with_indices_backward.grad_input", args), Error::Ok);
  EXPECT_VALUES(mi, {3, 0, 0, 0, 0, 4, 0, 0, 3});
  args[7] = t(tf.make(ST::Long, {1, 1, 2, 2}, {0, 9, 8, 5}));
  EXPECT_KERNEL_ERROR(call("aten::max_pool2d_with_indices_backward.grad_input", args),
                      Error::InvalidArgument, "index 9 is out of range");
}

TEST_F(NnBackward, EmbeddingDense) {
  for (bool temp : {true, false}) {
    use_temp_ = temp;
    Tensor* go = f32({3, 2}, {1, 2, 3, 4, 5, 6});
    Tensor* out = tf.zeros(ST::Float, {4, 2});
    ASSERT_EQ(call_out("aten::embedding_dense_backward.out",
                       {t(go), t(tf.make(ST::Long, {3}, {2, 0, 2})), i(4), i(0), b(false)}, out),
              Error::Ok);
    EXPECT_VALUES(out, {0, 0, 0, 0, 6, 8, 0, 0});
    ASSERT_EQ(call_out("aten::embedding_dense_backward.out",
                       {t(go), t(tf.make(ST::Int, {3}, {2, 0, 2})), i(4), i(-1), b(true)}, out),
              Error::Ok);
    EXPECT_VALUES(out, {3, 4, 0, 0, 3, 4, 0, 0});
  }
  EXPECT_KERNEL_ERROR(call_out("aten::embedding_dense_backward.out",
                               {t(f32({1, 2}, {1, 2})), t(tf.make(ST::Long, {1}, {4})), i(4), i(-1), b(false)},
                               tf.zeros(ST::Float, {4, 2})),
                      Error::InvalidArgument, "index 4 is out of range");
}

TEST_F(NnBackward, LayerNorm) {
  Tensor* x = f32({2, 3}, {1, 2, 4, 0, -1, 3});
  Tensor* dy = f32({2, 3}, {0.5, -1, 2, 1, 1, -2});
  Tensor* mean = f32({2, 1}, {2.3333333, 0.6666666});
  Tensor* rstd = f32({2, 1}, {0.80178106, 0.58834738});
  Tensor* dx = tf.zeros(ST::Float, {2, 3});
  Tensor* dw = tf.zeros(ST::Float, {3});
  Tensor* db = tf.zeros(ST::Float, {3});
  ASSERT_EQ(call("aten::native_layer_norm_backward.out",
                 {t(dy), t(x), il({3}), t(mean), t(rstd), t(f32({3}, {1, 2, -1})), t(f32({3}, {0, 0, 0})),
                  tf.bool_list({true, true, true}), t(dx), t(dw), t(db), tf.tensor_list({dx, dw, db})}),
            Error::Ok)
      << last_error_message();
  EXPECT_VALUES(dx, {0.572706, -0.85905, 0.286344, -0.36206, 0.271545, 0.090515}, 1e-5);
  EXPECT_VALUES(dw, {-0.926752, -0.713319, -0.073018}, 1e-5);
  EXPECT_VALUES(db, {1.5, 0, 0}, 1e-6);
  // Only dx.
  Tensor* dx2 = tf.zeros(ST::Float, {2, 3});
  Tensor* unused = tf.zeros(ST::Float, {1});
  ASSERT_EQ(call("aten::native_layer_norm_backward.out",
                 {t(dy), t(x), il({3}), t(mean), t(rstd), t(f32({3}, {1, 2, -1})), none(),
                  tf.bool_list({true, false, false}), t(dx2), t(unused), t(unused),
                  tf.tensor_list({dx2, unused, unused})}),
            Error::Ok);
  EXPECT_VALUES(dx2, {0.572706, -0.85905, 0.286344, -0.36206, 0.271545, 0.090515}, 1e-5);
  EXPECT_KERNEL_ERROR(call("aten::native_layer_norm_backward.out",
                           {t(dy), t(x), il({3}), t(f32({1}, {0})), t(rstd), none(), none(),
                            tf.bool_list({true, false, false}), t(dx2), t(unused), t(unused),
                            tf.tensor_list({dx2, unused, unused})}),
                      Error::InvalidArgument, "mean should contain 2 elements not 1");
}

TEST_F(NnBackward, Convolution) {
  Tensor* x = f32({1, 1, 3, 3}, {1, 2, 0, 3, -1, 2, 0, 1, 1});
  Tensor* w = f32({1, 1, 2, 2}, {1, -1, 2, 0.5});
  Tensor* go = f32({1, 1, 2, 2}, {1, 2, -1, 0.5});
  Tensor* dx = tf.zeros(ST::Float, {1, 1, 3, 3});
  Tensor* dw = tf.zeros(ST::Float, {1, 1, 2, 2});
  Tensor* db = tf.zeros(ST::Float, {1});
  auto args = [&](EValue* grad, EValue* mask, Tensor* a, Tensor* bb, Tensor* c) {
    return std::vector<EValue*>{grad, t(x), t(w), il({1}), il({1, 1}), il({0, 0}), il({1, 1}), b(false),
                                il({0, 0}), i(1), mask, t(a), t(bb), t(c), tf.tensor_list({a, bb, c})};
  };
  ASSERT_EQ(call("aten::convolution_backward.out", args(t(go), tf.bool_list({true, true, true}), dx, dw, db)),
            Error::Ok)
      << last_error_message();
  EXPECT_VALUES(dx, {1, 1, -2, 1, 6, 0.5, -2, 0.5, 0.25}, 1e-6);
  EXPECT_VALUES(dw, {1.5, 4, 1.5, 2.5}, 1e-6);
  EXPECT_VALUES(db, {2.5}, 1e-6);
  // Only the weight gradient: the other outs are not touched.
  Tensor* dw2 = tf.zeros(ST::Float, {1, 1, 2, 2});
  Tensor* unused = tf.make(ST::Float, {1}, {7});
  ASSERT_EQ(call("aten::convolution_backward.out",
                 args(t(go), tf.bool_list({false, true, false}), unused, dw2, unused)),
            Error::Ok);
  EXPECT_VALUES(dw2, {1.5, 4, 1.5, 2.5}, 1e-6);
  EXPECT_VALUES(unused, {7});
  EXPECT_KERNEL_ERROR(call("aten::convolution_backward.out",
                           args(t(f32({1, 1, 3, 2}, {1, 2, 3, 4, 5, 6})), tf.bool_list({true, true, true}),
                                dx, dw, db)),
                      Error::InvalidArgument, "grad_output must have the convolution's output shape");
  EXPECT_KERNEL_ERROR(call("aten::convolution_backward.out",
                           args(t(go), tf.bool_list({true, true}), dx, dw, db)),
                      Error::InvalidArgument, "output_mask must have 3 entries");
  EXPECT_KERNEL_ERROR(call("aten::convolution_backward.out",
                           args(t(tf.zeros(ST::Long, {1, 1, 2, 2})), tf.bool_list({true, true, true}), dx,
                                dw, db)),
                      Error::InvalidType, "grad_output");
}

TEST_F(NnBackward, GroupNorm) {
  Tensor* x = f32({1, 2, 3}, {1, 2, 4, 0, -1, 3});
  Tensor* dy = f32({1, 2, 3}, {0.5, -1, 2, 1, 1, -2});
  Tensor* mean = f32({1, 1}, {1.2});
  Tensor* rstd = f32({1, 1}, {0.6});
  Tensor* dx = tf.zeros(ST::Float, {1, 2, 3});
  Tensor* dw = tf.zeros(ST::Float, {2});
  Tensor* db = tf.zeros(ST::Float, {2});
  auto args = [&](Tensor* m, EValue* mask, Tensor* a, Tensor* bb, Tensor* c) {
    return std::vector<EValue*>{t(dy), t(x), t(m), t(rstd), t(f32({2}, {1, -2})), i(1), i(2), i(3), i(1),
                                mask, t(a), t(bb), t(c), tf.tensor_list({a, bb, c})};
  };
  ASSERT_EQ(call("aten::native_group_norm_backward.out",
                 args(mean, tf.bool_list({true, true, true}), dx, dw, db)),
            Error::Ok)
      << last_error_message();
  EXPECT_VALUES(dx, {0.28464, -1.28856, -0.83496, -0.54216, 0.13104, 1.03824}, 1e-5);
  EXPECT_VALUES(dw, {2.82, -4.2}, 1e-5);
  EXPECT_VALUES(db, {1.5, 0}, 1e-6);
  Tensor* dx2 = tf.zeros(ST::Float, {1, 2, 3});
  Tensor* unused = tf.make(ST::Float, {1}, {7});
  ASSERT_EQ(call("aten::native_group_norm_backward.out",
                 args(mean, tf.bool_list({true, false, false}), dx2, unused, unused)),
            Error::Ok);
  EXPECT_VALUES(dx2, {0.28464, -1.28856, -0.83496, -0.54216, 0.13104, 1.03824}, 1e-5);
  EXPECT_VALUES(unused, {7});
  EXPECT_KERNEL_ERROR(call("aten::native_group_norm_backward.out",
                           args(f32({2}, {0, 0}), tf.bool_list({true, true, true}), dx, dw, db)),
                      Error::InvalidArgument, "mean should contain 1 elements not 2");
  std::vector<EValue*> bad = args(mean, tf.bool_list({true, true, true}), dx, dw, db);
  bad[8] = i(4);  // 2 channels in 4 groups
  EXPECT_KERNEL_ERROR(call("aten::native_group_norm_backward.out", bad), Error::InvalidArgument,
                      "to be divisible by num_groups 4");
}

}  // namespace
}  // namespace tri::testing
