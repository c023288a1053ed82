// Backward ops of pooling, embedding and layer norm. Expected values from
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

}  // namespace
}  // namespace tri::testing
