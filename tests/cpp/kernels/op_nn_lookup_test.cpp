// Ops that read their input at computed positions: _embedding_bag and
// grid_sampler_2d. Expected values from PyTorch 1.13.
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;
class NnLookup : public KernelTest {};

TEST_F(NnLookup, EmbeddingBagMax) {
  Tensor* w = f32({3, 2}, {1, 2, 3, 4, 5, -6});
  Tensor* out = tf.zeros(ST::Float, {3, 2});
  Tensor* o2b = tf.zeros(ST::Long, {4});
  Tensor* size = tf.zeros(ST::Long, {3});
  Tensor* maxi = tf.zeros(ST::Long, {3, 2});
  auto args = [&](Tensor* idx, Tensor* off, int64_t mode, bool last) {
    return std::vector<EValue*>{t(w), t(idx), t(off), b(false), i(mode), b(false), none(), b(last), i(-1),
                                t(out), t(o2b), t(size), t(maxi), tf.tensor_list({out, o2b, size, maxi})};
  };
  Tensor* idx = tf.make(ST::Long, {4}, {0, 2, 1, 2});
  ASSERT_EQ(call("aten::_embedding_bag.out", args(idx, tf.make(ST::Long, {3}, {0, 1, 1}), 2, false)), Error::Ok)
      << last_error_message();
  EXPECT_VALUES(out, {1, 2, 0, 0, 5, 4});  // bag 1 is empty
  EXPECT_VALUES(o2b, {0, 2, 2, 2});
  EXPECT_VALUES(size, {1, 0, 3});
  EXPECT_VALUES(maxi, {0, 0, 0, 0, 2, 1});
  EXPECT_KERNEL_ERROR(call("aten::_embedding_bag.out", args(tf.make(ST::Long, {4}, {0, 3, 1, 2}),
                                                             tf.make(ST::Long, {3}, {0, 1, 1}), 2, false)),
                      Error::InvalidArgument, "indices[1] = 3 is out of range for weight with 3 rows");
  EXPECT_KERNEL_ERROR(call("aten::_embedding_bag.out", args(idx, tf.make(ST::Long, {2}, {1, 2}), 2, false)),
                      Error::InvalidArgument, "offsets[0] has to be 0");
  EXPECT_KERNEL_ERROR(call("aten::_embedding_bag.out", args(idx, tf.make(ST::Long, {3}, {0, 3, 2}), 2, false)),
                      Error::InvalidArgument, "offsets[2] = 2 must lie in");
  EXPECT_KERNEL_ERROR(call("aten::_embedding_bag.out", args(idx, tf.make(ST::Long, {3}, {0, 1, 5}), 2, false)),
                      Error::InvalidArgument, "offsets[2] = 5 must lie in");
  EXPECT_KERNEL_ERROR(call("aten::_embedding_bag.out", args(idx, tf.make(ST::Long, {3}, {0, 1, 3}), 2, true)),
                      Error::InvalidArgument, "the last offset must be the number of indices (4)");
  EXPECT_KERNEL_ERROR(call("aten::_embedding_bag.out", args(idx, tf.make(ST::Long, {3}, {0, 1, 1}), 3, false)),
                      Error::InvalidArgument, "mode must be 0 (sum), 1 (mean) or 2 (max)");
  std::vector<EValue*> psw = args(idx, tf.make(ST::Long, {3}, {0, 1, 1}), 1, false);
  psw[6] = t(f32({4}, {1, 1, 1, 1}));
  EXPECT_KERNEL_ERROR(call("aten::_embedding_bag.out", psw), Error::InvalidArgument,
                      "per_sample_weights is only supported for mode sum");
  // After the errors the kernel still runs; mean mode's max_indices is [bags].
  maxi = tf.make(ST::Long, {3}, {9, 9, 9});
  ASSERT_EQ(call("aten::_embedding_bag.out", args(idx, tf.make(ST::Long, {3}, {0, 1, 1}), 1, false)), Error::Ok)
      << last_error_message();
  EXPECT_VALUES(maxi, {0, 0, 0});
  EXPECT_VALUES(out, {1, 2, 0, 0, 13.0 / 3, -8.0 / 3}, 1e-6);
}

TEST_F(NnLookup, GridSampler) {
  Tensor* in = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  Tensor* grid = f32({1, 1, 4, 2}, {0, 0, -1, -1, 1, 1, 0.5, -0.5});
  Tensor* out = tf.zeros(ST::Float, {1, 1, 1, 4});
  struct Expect {
    int64_t interp, padding;
    bool align;
    std::vector<double> values;
  };
  const Expect expect[] = {
      {0, 0, false, {2.5, 0.25, 1.0, 2.0}}, {0, 1, true, {2.5, 1.0, 4.0, 2.25}},
      {1, 0, false, {1.0, 1.0, 0.0, 2.0}},  {1, 1, true, {1.0, 1.0, 4.0, 2.0}},
      {2, 0, false, {3.525390625, 0.109375, 1.140625, 2.0}}, {2, 1, true, {2.5, 1.0, 4.0, 2.2265625}},
  };
  for (const Expect& e : expect) {
    ASSERT_EQ(call_out("aten::grid_sampler_2d.out", {t(in), t(grid), i(e.interp), i(e.padding), b(e.align)}, out),
              Error::Ok)
        << last_error_message();
    EXPECT_VALUES(out, e.values, 1e-6);
  }
  EXPECT_KERNEL_ERROR(call_out("aten::grid_sampler_2d.out",
                               {t(in), t(f32({1, 1, 2, 3}, {0, 0, 0, 0, 0, 0})), i(0), i(0), b(false)}, out),
                      Error::InvalidArgument, "grid must end in a dim of 2");
  EXPECT_KERNEL_ERROR(call_out("aten::grid_sampler_2d.out", {t(in), t(grid), i(3), i(0), b(false)}, out),
                      Error::InvalidArgument, "interpolation_mode must be");
  EXPECT_KERNEL_ERROR(call_out("aten::grid_sampler_2d.out", {t(in), t(grid), i(0), i(-1), b(false)}, out),
                      Error::InvalidArgument, "padding_mode must be");
  EXPECT_KERNEL_ERROR(call_out("aten::grid_sampler_2d.out",
                               {t(tf.zeros(ST::Float, {1, 1, 0, 2})), t(grid), i(0), i(0), b(false)}, out),
                      Error::InvalidArgument, "non-empty spatial dims");
  EXPECT_KERNEL_ERROR(call_out("aten::grid_sampler_2d.out",
                               {t(in), t(tf.zeros(ST::Float, {2, 1, 4, 2})), i(0), i(0), b(false)}, out),
                      Error::InvalidArgument, "the same batch size");
}

}  // namespace
}  // namespace tri::testing
