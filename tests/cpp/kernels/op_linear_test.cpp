// mm and addmm, and the blocked gemm against the reference at tile edges.
#include <random>

#include "cpp/kernels/util/gemm.h"
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class Linear : public KernelTest {};

TEST_F(Linear, Mm) {
  Tensor* out = tf.zeros(ST::Float, {2, 2});
  ASSERT_EQ(call_out("aten::mm.out", {t(f32({2, 3}, {1, 2, 3, 4, 5, 6})), t(f32({3, 2}, {7, 8, 9, 10, 11, 12}))}, out),
            Error::Ok);
  EXPECT_VALUES(out, {58, 64, 139, 154});
  // A transposed (dim order 1, 0) mat2 and a column-major out.
  Tensor* b_t = tf.make(ST::Float, {3, 2}, {7, 8, 9, 10, 11, 12}, {1, 0});
  Tensor* out_t = tf.zeros(ST::Float, {2, 2}, {1, 0});
  ASSERT_EQ(call_out("aten::mm.out", {t(f32({2, 3}, {1, 2, 3, 4, 5, 6})), t(b_t)}, out_t), Error::Ok);
  EXPECT_VALUES(out_t, {58, 64, 139, 154});
  Tensor* iout = tf.zeros(ST::Long, {1, 1});
  ASSERT_EQ(call_out("aten::mm.out", {t(tf.make(ST::Long, {1, 2}, {3, 4})), t(tf.make(ST::Long, {2, 1}, {5, 6}))}, iout),
            Error::Ok);
  EXPECT_VALUES(iout, {39});
  // K = 0 gives zeros.
  Tensor* zout = tf.make(ST::Float, {2, 2}, {9, 9, 9, 9});
  ASSERT_EQ(call_out("aten::mm.out", {t(tf.zeros(ST::Float, {2, 0})), t(tf.zeros(ST::Float, {0, 2}))}, zout), Error::Ok);
  EXPECT_VALUES(zout, {0, 0, 0, 0});
}

TEST_F(Linear, MmErrors) {
  EXPECT_KERNEL_ERROR(call_out("aten::mm.out", {t(f32({2, 3}, std::vector<double>(6))), t(f32({2, 2}, {1, 2, 3, 4}))},
                               tf.zeros(ST::Float, {2, 2})),
                      Error::InvalidArgument, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)");
  EXPECT_KERNEL_ERROR(call_out("aten::mm.out", {t(f32({2, 2}, {1, 2, 3, 4})), t(tf.make(ST::Double, {2, 2}, {1, 2, 3, 4}))},
                               tf.zeros(ST::Float, {2, 2})),
                      Error::InvalidType, "same dtype, but got Float != Double");
  EXPECT_KERNEL_ERROR(call_out("aten::mm.out", {t(f32({4}, {1, 2, 3, 4})), t(f32({2, 2}, {1, 2, 3, 4}))},
                               tf.zeros(ST::Float, {2, 2})),
                      Error::InvalidArgument, "mat1 must be a matrix");
}

TEST_F(Linear, Addmm) {
  Tensor* out = tf.zeros(ST::Float, {2, 2});
  const std::vector<double> a = {1, 2, 3, 4, 5, 6};
  const std::vector<double> b = {7, 8, 9, 10, 11, 12};
  ASSERT_EQ(call_out("aten::addmm.out", {t(f32({2}, {1, -1})), t(f32({2, 3}, a)), t(f32({3, 2}, b)), i(1), i(1)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {59, 63, 140, 153});
  ASSERT_EQ(call_out("aten::addmm.out", {t(f32({2, 1}, {1, 2})), t(f32({2, 3}, a)), t(f32({3, 2}, b)), d(2.0), d(0.5)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {31, 34, 73.5, 81});
  // beta = 0 ignores self, NaN included.
  ASSERT_EQ(call_out("aten::addmm.out", {t(f32({1}, {NAN})), t(f32({2, 3}, a)), t(f32({3, 2}, b)), i(0), i(1)}, out),
            Error::Ok);
  EXPECT_VALUES(out, {58, 64, 139, 154});
  EXPECT_KERNEL_ERROR(call_out("aten::addmm.out", {t(f32({3}, {1, 2, 3})), t(f32({2, 3}, a)), t(f32({3, 2}, b)), i(1), i(1)}, out),
                      Error::InvalidArgument, "self of shape [3] cannot be broadcast to [2, 2]");
}

// The blocked kernel must equal the reference at sizes below, at and above
// its 4-row tile and kGemmNc / kGemmKc blocks.
TEST(Gemm, BlockedMatchesReferenceAtTileEdges) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  const int64_t sizes[] = {1, 3, 4, 5, 8, 255, 256, 257};
  for (int64_t m : {int64_t{1}, int64_t{3}, int64_t{4}, int64_t{5}, int64_t{9}}) {
    for (int64_t n : sizes) {
      for (int64_t k : {int64_t{1}, int64_t{7}, int64_t{256}, int64_t{300}}) {
        std::vector<float> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
        for (float& v : a) v = dist(rng);
        for (float& v : b) v = dist(rng);
        std::vector<float> c_ref(static_cast<size_t>(m * n)), c(static_cast<size_t>(m * n));
        gemm_reference<float>(m, n, k, {a.data(), k, 1}, {b.data(), n, 1}, c_ref.data(), n);
        gemm_blocked<float>(m, n, k, {a.data(), k, 1}, {b.data(), n, 1}, c.data(), n);
        for (size_t i = 0; i < c.size(); ++i) {
          ASSERT_NEAR(c[i], c_ref[i], 1e-4 * (1 + std::abs(c_ref[i]))) << m << "x" << n << "x" << k;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tri::testing
