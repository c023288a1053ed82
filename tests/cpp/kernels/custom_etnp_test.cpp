// etnp::lstm.out, the example C++ custom op (cpp/custom/etnp), called through
// the registry like the interpreter does.
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class CustomEtnp : public KernelTest {
 protected:
  // T=2, B=1, I=1, H=1 with every weight and bias 0.5; x = [1, 2], h0 = c0 = 0.
  std::vector<EValue*> args(Tensor* x) {
    return {t(x), t(f32({1, 1}, {0})), t(f32({1, 1}, {0})), t(f32({4, 1}, {0.5, 0.5, 0.5, 0.5})),
            t(f32({4, 1}, {0.5, 0.5, 0.5, 0.5})), t(f32({4}, {0.5, 0.5, 0.5, 0.5})),
            t(f32({4}, {0.5, 0.5, 0.5, 0.5})), t(out_), t(hn_), t(cn_), t(out_)};
  }
  Tensor* out_ = tf.zeros(ST::Float, {2, 1, 1});
  Tensor* hn_ = tf.zeros(ST::Float, {1, 1});
  Tensor* cn_ = tf.zeros(ST::Float, {1, 1});
};

TEST_F(CustomEtnp, LstmMatchesTorch) {
  ASSERT_EQ(call("etnp::lstm.out", args(f32({2, 1, 1}, {1, 2}))), Error::Ok) << last_error_message();
  // torch.nn.LSTM(1, 1) with all parameters 0.5, x = [[[1]], [[2]]], zero state.
  EXPECT_VALUES(out_, {0.5143858790397644, 0.8280510902404785}, 1e-6);
  EXPECT_VALUES(hn_, {0.8280510902404785}, 1e-6);
  EXPECT_VALUES(cn_, {1.555580735206604}, 1e-6);
}

TEST_F(CustomEtnp, LstmRejectsMismatchedWeights) {
  Tensor* x = f32({2, 1, 2}, {1, 2, 3, 4});  // I = 2, but w_ih has 1 column
  EXPECT_EQ(call("etnp::lstm.out", args(x)), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("w_ih"), std::string::npos) << last_error_message();
  EXPECT_VALUES(out_, {0, 0}, 0);
}

}  // namespace
}  // namespace tri::testing
