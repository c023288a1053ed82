// The NHWC microkernels of cpp/kernels/simd against their scalar references,
// at sizes at, below, above and at multiples of their tiles (2x16 for the
// gemms, over 64-row blocks, 2x4 and every K tail for the narrow panel, 4 channels for depthwise, 4 lanes for binary rows). Natively the
// f32x4 type is emulated, so this runs the tile logic itself; mul then add
// in both, so results are bit-identical.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "cpp/kernels/simd/f32_dwconv_minmax.h"
#include "cpp/kernels/simd/f32_gemm_minmax.h"
#include "cpp/kernels/simd/f32_vbinary_minmax.h"
#include "cpp/kernels/simd/qs8_dot.h"

namespace tri {
namespace {

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

void expect_same(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << " element " << i;
    } else {
      EXPECT_EQ(got[i], want[i]) << what << " element " << i;
    }
  }
}

TEST(SimdMicrokernels, GemmTilesMatchTheReferenceAtEveryEdge) {
  for (size_t m : {1, 2, 3, 5, 64, 67}) {
    for (size_t nc : {1, 3, 7, 8, 9, 15, 16, 17, 24, 33}) {
      for (size_t k : {0, 1, 2, 5, 8, 33}) {
        SCOPED_TRACE(testing::Message() << "m " << m << " nc " << nc << " k " << k);
        const std::vector<float> w = random_floats(nc * k, 1 + static_cast<uint32_t>(nc * 31 + k));
        const std::vector<float> bias = random_floats(nc, 7);
        std::vector<float> packed(f32_gemm_packed_floats(nc, k));
        f32_gemm_pack(nc, k, w.data(), k, 1, bias.data(), packed.data());
        const size_t stride = k + 3;  // rows further apart than k
        const std::vector<float> a = random_floats(m * stride + 1, 3);
        const size_t c_stride = nc + 2;
        std::vector<float> got(m * c_stride, -7.0f), want(m * c_stride, -7.0f);
        f32_gemm_minmax_2x16(m, nc, k, a.data(), stride, packed.data(), got.data(), c_stride, -1.5f, 2.0f);
        f32_gemm_minmax_reference(m, nc, k, a.data(), stride, packed.data(), want.data(), c_stride,
                                  -1.5f, 2.0f);
        expect_same(got, want, "gemm");
        // Columns past nc are untouched.
        for (size_t r = 0; r < m; ++r) {
          for (size_t j = nc; j < c_stride; ++j) EXPECT_EQ(got[r * c_stride + j], -7.0f);
        }
      }
    }
  }
}

using PanelPath = void (*)(size_t, size_t, size_t, const float*, size_t, const float*, float*,
                          size_t, bool, const RowEpilogue*);

// A tile path against its reference for every row count, column count and
// K block size given, plain, accumulating and with each epilogue. `operand`
// builds the B operand in the layout the path reads.
template <typename MakeOperand>
void expect_panel_path_matches(PanelPath tiles, PanelPath reference,
                               std::initializer_list<size_t> ms, std::initializer_list<size_t> ncs,
                               std::initializer_list<size_t> kcs, MakeOperand operand) {
  for (size_t m : ms) {
    for (size_t nc : ncs) {
      for (size_t kc : kcs) {
        SCOPED_TRACE(testing::Message() << "m " << m << " nc " << nc << " kc " << kc);
        const std::vector<float> b = operand(nc, kc);
        const size_t a_stride = kc + 1;
        const std::vector<float> a = random_floats(m * a_stride + 1, 17);
        const size_t c_stride = nc + 1;
        for (const bool accumulate : {false, true}) {
          std::vector<float> got = random_floats(m * c_stride, 23), want = got;
          tiles(m, nc, kc, a.data(), a_stride, b.data(), got.data(), c_stride, accumulate, nullptr);
          reference(m, nc, kc, a.data(), a_stride, b.data(), want.data(), c_stride, accumulate,
                    nullptr);
          expect_same(got, want, accumulate ? "accumulating" : "plain");
          // With an epilogue (bias, affine and a clamp that bites), per row.
          const std::vector<float> rows = random_floats(3 * m, 29);
          RowEpilogue e;
          e.bias = rows.data();
          e.affine.scale = rows.data() + m;
          e.affine.shift = rows.data() + 2 * m;
          e.affine.lo = -0.25f;
          e.affine.hi = 0.5f;
          for (int variant = 0; variant < 3; ++variant) {
            RowEpilogue ev = e;
            if (variant == 1) ev.bias = nullptr;
            if (variant == 2) ev.affine = ChannelAffine();
            std::vector<float> got_e = random_floats(m * c_stride, 31), want_e = got_e;
            tiles(m, nc, kc, a.data(), a_stride, b.data(), got_e.data(), c_stride, accumulate, &ev);
            reference(m, nc, kc, a.data(), a_stride, b.data(), want_e.data(), c_stride, accumulate,
                      &ev);
            expect_same(got_e, want_e, "with an epilogue");
          }
        }
      }
    }
  }
}

TEST(SimdMicrokernels, PanelTilesMatchTheReferenceAndAccumulate) {
  // A run-time panel: zero row, then kc rows of 16 with zeros past nc.
  expect_panel_path_matches(f32_gemm_panel_2x16, f32_gemm_panel_reference, {1, 2, 5}, {1, 4, 9, 16},
                            {0, 1, 7, 40}, [](size_t nc, size_t kc) {
                              std::vector<float> panel = random_floats(f32_gemm_panel_floats(kc), 5);
                              for (size_t j = 0; j < kF32GemmNr; ++j) panel[j] = 0.0f;
                              for (size_t p = 0; p < kc; ++p) {
                                for (size_t j = nc; j < kF32GemmNr; ++j) {
                                  panel[(p + 1) * kF32GemmNr + j] = 0.0f;
                                }
                              }
                              return panel;
                            });
}

TEST(SimdMicrokernels, NarrowTilesMatchTheReferenceAndAccumulate) {
  // Every K tail (kc % 4), a full K block, and each narrow column count.
  expect_panel_path_matches(f32_gemm_narrow_2x4, f32_gemm_narrow_reference, {1, 2, 5, 8},
                            {1, 2, 3, 4}, {0, 1, 2, 3, 4, 7, 40, 256}, [](size_t nc, size_t kc) {
                              std::vector<float> cols = random_floats(kF32NarrowNr * kc + 1, 5);
                              for (size_t p = nc * kc; p < kF32NarrowNr * kc; ++p) cols[p] = 0.0f;
                              return cols;
                            });
}

TEST(SimdMicrokernels, NarrowSumsAddTheFourLanesInTheirOrder) {
  // One row, one column, k = 4: lanes hold 1e8, 1, -1e8, 1; (1e8 + -1e8) +
  // (1 + 1) = 2, where summing in k order would give 1e8 + 1 - 1e8 + 1 = 1.
  const float a[4] = {1e8f, 1.0f, -1e8f, 1.0f};
  float cols[kF32NarrowNr * 4] = {1.0f, 1.0f, 1.0f, 1.0f};
  float got = 0.0f, want = 0.0f;
  f32_gemm_narrow_2x4(1, 1, 4, a, 4, cols, &got, 1, false);
  f32_gemm_narrow_reference(1, 1, 4, a, 4, cols, &want, 1, false);
  EXPECT_EQ(got, 2.0f);
  EXPECT_EQ(want, 2.0f);
}

TEST(SimdMicrokernels, PackingFromBothLayoutsAgrees) {
  const size_t nc = 11, k = 5;
  const std::vector<float> w = random_floats(nc * k, 9);  // [nc][k]
  std::vector<float> wt(k * nc);                           // [k][nc]
  for (size_t j = 0; j < nc; ++j) {
    for (size_t p = 0; p < k; ++p) wt[p * nc + j] = w[j * k + p];
  }
  std::vector<float> a(f32_gemm_packed_floats(nc, k)), b(a.size());
  f32_gemm_pack(nc, k, w.data(), k, 1, nullptr, a.data());
  f32_gemm_pack(nc, k, wt.data(), 1, nc, nullptr, b.data());
  EXPECT_EQ(a, b);
}

TEST(SimdMicrokernels, IgemmTilesMatchTheReferenceWithZeroRows) {
  const std::vector<float> zero(64, 0.0f);
  for (size_t m : {1, 2, 3, 6}) {
    for (size_t nc : {1, 8, 13, 16, 21}) {
      for (size_t ks : {1, 4, 9}) {
        for (size_t kc : {1, 3, 8}) {
          SCOPED_TRACE(testing::Message() << "m " << m << " nc " << nc << " ks " << ks << " kc " << kc);
          const std::vector<float> w = random_floats(nc * ks * kc, 11);
          std::vector<float> packed(f32_gemm_packed_floats(nc, ks * kc));
          f32_gemm_pack(nc, ks * kc, w.data(), ks * kc, 1, nullptr, packed.data());
          const size_t pairs = (m + kF32GemmMr - 1) / kF32GemmMr;
          const std::vector<float> input = random_floats(pairs * kF32GemmMr * ks * kc, 13);
          // Pair q, tap s, row r at ptrs[(q * ks + s) * 2 + r].
          std::vector<const float*> ptrs(pairs * ks * kF32GemmMr);
          for (size_t q = 0; q < pairs; ++q) {
            for (size_t s = 0; s < ks; ++s) {
              for (size_t r = 0; r < kF32GemmMr; ++r) {
                const size_t row = q * kF32GemmMr + r;
                // Every third tap reads the zero row (padding).
                ptrs[(q * ks + s) * kF32GemmMr + r] =
                    (s + row) % 3 == 2 ? zero.data() : input.data() + (row * ks + s) * kc;
              }
            }
          }
          std::vector<float> got(m * nc), want(m * nc);
          f32_igemm_minmax_2x16(m, nc, kc, ks, ptrs.data(), packed.data(), got.data(), nc,
                                -INFINITY, INFINITY);
          f32_igemm_minmax_reference(m, nc, kc, ks, ptrs.data(), packed.data(), want.data(), nc,
                                     -INFINITY, INFINITY);
          expect_same(got, want, "igemm");
        }
      }
    }
  }
}

TEST(SimdMicrokernels, DepthwiseMatchesTheReferenceForAnyChannelCount) {
  for (size_t channels : {1, 3, 4, 5, 8, 9, 12, 17}) {
    for (size_t ks : {1, 9, 25}) {
      SCOPED_TRACE(testing::Message() << "channels " << channels << " ks " << ks);
      const std::vector<float> w = random_floats(ks * channels, 21);
      const std::vector<float> bias = random_floats(channels, 22);
      std::vector<float> packed(f32_dwconv_packed_floats(channels, ks));
      f32_dwconv_pack(channels, ks, w.data(), bias.data(), packed.data());
      const size_t width = 3;
      const std::vector<float> input = random_floats(width * ks * channels, 23);
      std::vector<const float*> ptrs(width * ks);
      for (size_t i = 0; i < ptrs.size(); ++i) ptrs[i] = input.data() + i * channels;
      std::vector<float> got(width * (channels + 1), 5.0f), want(got);
      f32_dwconv_minmax_4c(channels, width, ks, ptrs.data(), packed.data(), got.data(), channels + 1,
                           0.0f, 6.0f);
      f32_dwconv_minmax_reference(channels, width, ks, ptrs.data(), packed.data(), want.data(),
                                  channels + 1, 0.0f, 6.0f);
      expect_same(got, want, "dwconv");
    }
  }
}

TEST(SimdMicrokernels, BinaryRowsMatchTheReferenceForEveryStride) {
  const F32BinaryOp ops[] = {F32BinaryOp::Add, F32BinaryOp::Sub, F32BinaryOp::Mul, F32BinaryOp::Div,
                             F32BinaryOp::Min, F32BinaryOp::Max, F32BinaryOp::PRelu};
  for (F32BinaryOp op : ops) {
    for (size_t n : {0, 1, 3, 4, 5, 8, 11}) {
      for (size_t sa : {0, 1}) {
        for (size_t sb : {0, 1}) {
          if (sa == 0 && sb == 0 && n > 1) continue;
          SCOPED_TRACE(testing::Message() << "op " << static_cast<int>(op) << " n " << n << " sa " << sa << " sb " << sb);
          std::vector<float> a = random_floats(n + 1, 31), b = random_floats(n + 1, 32);
          if (n > 2) a[2] = NAN;  // NaN propagates through min/max as in wasm
          std::vector<float> got(n), want(n);
          f32_vbinary_minmax_4x(op, n, a.data(), sa, b.data(), sb, got.data(), -1.0f, 1.5f);
          f32_vbinary_minmax_reference(op, n, a.data(), sa, b.data(), sb, want.data(), -1.0f, 1.5f);
          expect_same(got, want, "binary");
        }
      }
    }
  }
}

TEST(SimdMicrokernels, Int8DotsWrapInsteadOfOverflowing) {
  std::vector<int8_t> a(37), b(4 * 37);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(i * 7 - 100);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>(100 - i * 3);
  int32_t four[4] = {1, 2, 3, 4};
  qs8_dot4(a.data(), b.data(), 37, 37, four);
  for (size_t j = 0; j < 4; ++j) {
    EXPECT_EQ(four[j], static_cast<int32_t>(j + 1) + qs8_dot_reference(a.data(), b.data() + j * 37, 37));
  }
  EXPECT_EQ(qs8_dot(a.data(), b.data(), 37), qs8_dot_reference(a.data(), b.data(), 37));
  EXPECT_EQ(wrap_add(INT32_MAX, 1), INT32_MIN);
  EXPECT_EQ(requantize(1000, NAN, 3, -128, 127), 3);
  EXPECT_EQ(requantize(1000, 1.0f, 3, -128, 127), 127);
}

}  // namespace
}  // namespace tri
