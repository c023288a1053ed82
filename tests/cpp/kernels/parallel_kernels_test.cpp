// Kernels that split their work over the thread pool give the same bits as
// on one thread: each output element is computed by one thread, in the same
// order as serially.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "cpp/host/thread_pool.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/tensor_view.h"
#include "cpp/kernels/util/gemm.h"
#include "cpp/kernels/util/gemm_f32.h"
#include "cpp/runtime/platform/parallel.h"
#include "tests/cpp/kernels/kernel_test.h"

namespace tri::testing {
namespace {

using ST = ScalarType;

class ParallelKernels : public KernelTest {
 protected:

  // Runs `op` serially, then on a 3-thread pool; returns both outputs.
  template <typename Op>
  void expect_same_bits(const Op& op) {
    set_parallel_runner(nullptr);
    const std::vector<double> serial = op();
    host::ThreadPool pool(3);
    set_parallel_runner(&pool.runner());
    const std::vector<double> parallel = op();
    set_parallel_runner(nullptr);
    ASSERT_EQ(serial.size(), parallel.size());
    for (size_t i = 0; i < serial.size(); ++i) ASSERT_EQ(serial[i], parallel[i]) << "element " << i;
  }

  std::vector<double> conv(std::vector<SizesType> x_size, std::vector<SizesType> w_size, int64_t stride,
                           int64_t pad, int64_t groups) {
    const size_t xn = numel(x_size), wn = numel(w_size);
    Tensor* x = tf.make(ST::Float, x_size, random_values(xn, 1));
    Tensor* w = tf.make(ST::Float, w_size, random_values(wn, 2));
    Tensor* bias = tf.make(ST::Float, {w_size[0]}, random_values(static_cast<size_t>(w_size[0]), 3));
    const SizesType oh = (x_size[2] + 2 * pad - w_size[2]) / stride + 1;
    const SizesType ow = (x_size[3] + 2 * pad - w_size[3]) / stride + 1;
    Tensor* out = tf.zeros(ST::Float, {x_size[0], w_size[0], oh, ow});
    EXPECT_EQ(call_out("aten::convolution.out",
                       {t(x), t(w), t(bias), il({stride, stride}), il({pad, pad}), il({1, 1}), b(false),
                        il({0, 0}), i(groups)},
                       out),
              Error::Ok)
        << last_error_message();
    return TensorFactory::values(*out);
  }

  static size_t numel(const std::vector<SizesType>& sizes) {
    size_t n = 1;
    for (SizesType s : sizes) n *= static_cast<size_t>(s);
    return n;
  }
};

TEST_F(ParallelKernels, GemmPanelsAndRowBlocks) {
  // Wide (many column panels) and narrow (few panels: rows split too, row
  // block by row block when the last panel is narrow, i.e. n % 16 in 1..4),
  // with a strided A; K blocks with a tail of 8 and of 1.
  for (const std::tuple<int64_t, int64_t, int64_t>& size :
       {std::tuple<int64_t, int64_t, int64_t>{67, 150, 300}, {301, 20, 70}, {9, 49, 600},
        {40, 36, 520}, {161, 20, 257}, {30, 200, 513}}) {
    // Plain variables: clang 14 cannot capture structured bindings.
    const int64_t m = std::get<0>(size), n = std::get<1>(size), k = std::get<2>(size);
    const std::vector<double> av = random_values(static_cast<size_t>(m * k), 4);
    const std::vector<double> bv = random_values(static_cast<size_t>(k * n), 5);
    std::vector<float> a(av.begin(), av.end()), bm(bv.begin(), bv.end());
    for (bool transposed_a : {false, true}) {
      expect_same_bits([&] {
        std::vector<float> c(static_cast<size_t>(m * n), 42.f);
        const MatView<float> av_view = transposed_a ? MatView<float>{a.data(), 1, m} : MatView<float>{a.data(), k, 1};
        gemm_f32_packed(m, n, k, av_view, {bm.data(), n, 1}, c.data(), n);
        return std::vector<double>(c.begin(), c.end());
      });
    }
    // And against the reference, so the split covers every element.
    std::vector<float> c(static_cast<size_t>(m * n)), ref(static_cast<size_t>(m * n));
    host::ThreadPool pool(3);
    set_parallel_runner(&pool.runner());
    gemm_f32_packed(m, n, k, {a.data(), k, 1}, {bm.data(), n, 1}, c.data(), n);
    set_parallel_runner(nullptr);
    gemm_reference<float>(m, n, k, {a.data(), k, 1}, {bm.data(), n, 1}, ref.data(), n);
    for (size_t i = 0; i < c.size(); ++i) ASSERT_NEAR(c[i], ref[i], 1e-4 * (1 + std::abs(ref[i])));
  }
}

// The epilogue (bias, then the fused affine and clamp) runs once per row,
// after the last K block, on whichever thread computed the tile: the result
// is the plain gemm's, finished value by value.
TEST_F(ParallelKernels, GemmEpilogueFinishesEachValueOnce) {
  for (const std::tuple<int64_t, int64_t, int64_t>& size :
       {std::tuple<int64_t, int64_t, int64_t>{67, 150, 300}, {301, 20, 70}, {9, 49, 600},
        {5, 7, 0}, {3, 33, 1}, {40, 36, 520}, {161, 20, 257}}) {
    const int64_t m = std::get<0>(size), n = std::get<1>(size), k = std::get<2>(size);
    const std::vector<double> av = random_values(static_cast<size_t>(m * k), 6);
    const std::vector<double> bv = random_values(static_cast<size_t>(k * n), 7);
    const std::vector<double> sv = random_values(static_cast<size_t>(3 * m), 8);
    std::vector<float> a(av.begin(), av.end()), bm(bv.begin(), bv.end());
    std::vector<float> bias(sv.begin(), sv.begin() + m), scale(sv.begin() + m, sv.begin() + 2 * m),
        shift(sv.begin() + 2 * m, sv.end());
    const int64_t ldc = n + 2;  // columns past n stay untouched
    std::vector<float> plain(static_cast<size_t>(m * ldc), 42.f);
    gemm_f32_packed(m, n, k, {a.data(), k, 1}, {bm.data(), n, 1}, plain.data(), ldc);
    for (int variant = 0; variant < 3; ++variant) {
      SCOPED_TRACE(::testing::Message() << m << "x" << n << "x" << k << " variant " << variant);
      RowEpilogue e;
      if (variant != 1) e.bias = bias.data();
      if (variant != 0) {
        e.affine.scale = scale.data();
        e.affine.shift = shift.data();
        e.affine.lo = -0.5f;
        e.affine.hi = 0.75f;
      }
      std::vector<float> want = plain;
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          float y = want[static_cast<size_t>(i * ldc + j)];
          if (e.bias != nullptr) y += bias[static_cast<size_t>(i)];
          if (e.affine.active()) {
            y = shift[static_cast<size_t>(i)] + y * scale[static_cast<size_t>(i)];
            y = std::min(std::max(y, e.affine.lo), e.affine.hi);
          }
          want[static_cast<size_t>(i * ldc + j)] = y;
        }
      }
      for (bool threads : {false, true}) {
        host::ThreadPool pool(3);
        set_parallel_runner(threads ? &pool.runner() : nullptr);
        std::vector<float> c(static_cast<size_t>(m * ldc), 42.f);
        gemm_f32_packed(m, n, k, {a.data(), k, 1}, {bm.data(), n, 1}, c.data(), ldc, &e);
        set_parallel_runner(nullptr);
        for (size_t x = 0; x < c.size(); ++x) ASSERT_EQ(c[x], want[x]) << "element " << x;
      }
    }
  }
}

TEST_F(ParallelKernels, Convolution3x3Winograd) {
  expect_same_bits([&] { return conv({2, 64, 15, 13}, {64, 64, 3, 3}, 1, 1, 1); });
  expect_same_bits([&] { return conv({1, 64, 20, 21}, {72, 64, 3, 3}, 1, 0, 1); });
  // 10 x 10 tiles: the gemms' last panel has 4 columns.
  expect_same_bits([&] { return conv({1, 64, 20, 20}, {64, 64, 3, 3}, 1, 1, 1); });
}

TEST_F(ParallelKernels, Convolution3x3Im2col) {
  // 24 input channels: below what Winograd takes.
  expect_same_bits([&] { return conv({2, 24, 15, 13}, {16, 24, 3, 3}, 1, 1, 1); });
  expect_same_bits([&] { return conv({1, 8, 30, 30}, {32, 8, 3, 3}, 2, 1, 1); });
  // A network's first layer: 3 channels, threads split the positions.
  expect_same_bits([&] { return conv({1, 3, 97, 95}, {8, 3, 3, 3}, 2, 1, 1); });
  // Enough positions for each of 3 threads to fill and multiply its own
  // columns (columns_times_weights), against one thread doing it all in
  // chunks (1296 rows: chunks of 101 -> 112 positions); a 7x7 stride-2
  // first layer, batch 2.
  expect_same_bits([&] { return conv({1, 144, 44, 41}, {18, 144, 3, 3}, 1, 1, 1); });
  expect_same_bits([&] { return conv({2, 3, 99, 90}, {16, 3, 7, 7}, 2, 3, 1); });
}

TEST_F(ParallelKernels, ConvolutionPointwise) {
  expect_same_bits([&] { return conv({1, 64, 14, 14}, {96, 64, 1, 1}, 1, 0, 1); });
}

TEST_F(ParallelKernels, DepthwiseConvolution) {
  expect_same_bits([&] { return conv({2, 32, 28, 28}, {32, 1, 3, 3}, 1, 1, 32); });
  expect_same_bits([&] { return conv({1, 48, 29, 29}, {48, 1, 3, 3}, 2, 1, 48); });
}

TEST_F(ParallelKernels, MaxPoolWithIndices) {
  expect_same_bits([&] {
    Tensor* x = tf.make(ST::Float, {2, 16, 40, 40}, random_values(2 * 16 * 40 * 40, 6));
    Tensor* out = tf.zeros(ST::Float, {2, 16, 20, 20});
    Tensor* idx = tf.zeros(ST::Long, {2, 16, 20, 20});
    EXPECT_EQ(call("aten::max_pool2d_with_indices.out",
                   {t(x), il({3, 3}), il({2, 2}), il({1, 1}), il({1, 1}), b(false), t(out), t(idx),
                    tf.tensor_list({out, idx})}),
              Error::Ok)
        << last_error_message();
    std::vector<double> both = TensorFactory::values(*out);
    const std::vector<double> indices = TensorFactory::values(*idx);
    both.insert(both.end(), indices.begin(), indices.end());
    return both;
  });
}

TEST_F(ParallelKernels, ElementwiseWithBroadcastAndStrides) {
  // Rows shorter than a chunk, a broadcast operand, and a channels-last out.
  expect_same_bits([&] {
    Tensor* a = tf.make(ST::Float, {3, 64, 30, 17}, random_values(3 * 64 * 30 * 17, 7));
    Tensor* b = tf.make(ST::Float, {64, 1, 17}, random_values(64 * 17, 8));
    Tensor* out = tf.zeros(ST::Float, {3, 64, 30, 17}, {0, 2, 3, 1});
    EXPECT_EQ(call_out("aten::add.out", {t(a), t(b), i(1)}, out), Error::Ok) << last_error_message();
    return TensorFactory::values(*out);
  });
  // One long contiguous row: several chunks of it.
  expect_same_bits([&] {
    Tensor* a = tf.make(ST::Float, {100000}, random_values(100000, 9));
    Tensor* out = tf.zeros(ST::Float, {100000});
    EXPECT_EQ(call_out("aten::mul.out", {t(a), t(a)}, out), Error::Ok) << last_error_message();
    return TensorFactory::values(*out);
  });
}

TEST_F(ParallelKernels, SumOverInnerAndOuterDims) {
  for (std::vector<int64_t> dims : {std::vector<int64_t>{2, 3}, {0}, {1, 3}}) {
    expect_same_bits([&] {
      Tensor* x = tf.make(ST::Float, {4, 48, 20, 20}, random_values(4 * 48 * 20 * 20, 10));
      std::vector<SizesType> out_size = {4, 48, 20, 20};
      for (int64_t d : dims) out_size[static_cast<size_t>(d)] = 1;
      Tensor* out = tf.zeros(ST::Float, out_size);
      EXPECT_EQ(call_out("aten::sum.IntList_out", {t(x), il(dims), b(true), none()}, out), Error::Ok)
          << last_error_message();
      return TensorFactory::values(*out);
    });
  }
}

TEST_F(ParallelKernels, CopyViewDisjointGathersAPermutedWindow) {
  // NCHW -> NHWC of a window [1:3) x [5:101) x [2:98) of a [2, 4, 110, 100]
  // input: strided rows, several chunks; each element checked by index.
  const std::vector<double> xv = random_values(2 * 4 * 110 * 100, 11);
  const std::vector<float> x(xv.begin(), xv.end());
  expect_same_bits([&] {
    TensorView src;
    src.data = const_cast<float*>(x.data());
    src.type = ScalarType::Float;
    src.dim = 4;
    const int64_t full[4] = {2, 4, 110, 100};
    int64_t strides[4];
    row_major_strides(full, 4, strides);
    src.data = const_cast<float*>(x.data()) + 1 * strides[1] + 5 * strides[2] + 2 * strides[3];
    // Output dims (n, h, w, c) walk input dims (0, 2, 3, 1).
    const int64_t sizes[4] = {2, 96, 96, 2};
    const int perm[4] = {0, 2, 3, 1};
    for (int d = 0; d < 4; ++d) {
      src.sizes[d] = sizes[d];
      src.strides[d] = strides[perm[d]];
    }
    std::vector<float> y(2 * 96 * 96 * 2, -1.f);
    TensorView dst = src;
    dst.data = y.data();
    row_major_strides(dst.sizes, 4, dst.strides);
    copy_view_disjoint(src, dst);
    size_t at = 0;
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t h = 0; h < 96; ++h)
        for (int64_t w = 0; w < 96; ++w)
          for (int64_t c = 0; c < 2; ++c, ++at) {
            const float want = x[static_cast<size_t>(n * strides[0] + (c + 1) * strides[1] +
                                                     (h + 5) * strides[2] + (w + 2) * strides[3])];
            EXPECT_EQ(y[at], want) << n << " " << h << " " << w << " " << c;
          }
    return std::vector<double>(y.begin(), y.end());
  });
}

// copy_view and copy_view_disjoint of a permuted view into a row-major out:
// every element checked by index. An input contiguous along 16 or more
// elements takes the tiled transpose (partial tiles at 37, 42, 50, 33, and
// 3-column ones); element widths 1, 2, 4 and 8 bytes.
template <typename T>
void expect_permuted_copy(std::vector<int64_t> shape, std::vector<int> perm, bool disjoint) {
  const int rank = static_cast<int>(shape.size());
  int64_t in_strides[kTensorDimLimit];
  row_major_strides(shape.data(), rank, in_strides);
  size_t count = 1;
  for (int64_t s : shape) count *= static_cast<size_t>(s);
  std::vector<T> x(count);
  for (size_t i = 0; i < count; ++i) x[i] = static_cast<T>(i * 7 + 3);
  TensorView src;
  src.data = x.data();
  src.type = sizeof(T) == 1 ? ScalarType::Byte
             : sizeof(T) == 2 ? ScalarType::Short
             : sizeof(T) == 4 ? ScalarType::Int
                              : ScalarType::Long;
  src.dim = rank;
  for (int d = 0; d < rank; ++d) {
    src.sizes[d] = shape[static_cast<size_t>(perm[static_cast<size_t>(d)])];
    src.strides[d] = in_strides[perm[static_cast<size_t>(d)]];
  }
  std::vector<T> y(count, T(0));
  TensorView dst = src;
  dst.data = y.data();
  row_major_strides(dst.sizes, rank, dst.strides);
  if (disjoint) {
    copy_view_disjoint(src, dst);
  } else {
    copy_view(src, dst);
  }
  int64_t index[kTensorDimLimit] = {};
  for (size_t at = 0; at < count; ++at) {
    int64_t in_off = 0;
    for (int d = 0; d < rank; ++d) in_off += index[d] * src.strides[d];
    ASSERT_EQ(y[at], x[static_cast<size_t>(in_off)]) << "out element " << at;
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < dst.sizes[d]) break;
      index[d] = 0;
    }
  }
}

TEST_F(ParallelKernels, PermutedCopiesTransposeInTiles) {
  host::ThreadPool pool(3);
  for (bool threads : {false, true}) {
    set_parallel_runner(threads ? &pool.runner() : nullptr);
    for (bool disjoint : {false, true}) {
      expect_permuted_copy<float>({2, 37, 6, 7}, {0, 2, 3, 1}, disjoint);  // NCHW -> NHWC
      expect_permuted_copy<float>({2, 6, 7, 37}, {0, 3, 1, 2}, disjoint);  // NHWC -> NCHW
      expect_permuted_copy<float>({3, 17, 50}, {2, 0, 1}, disjoint);       // planes between
      expect_permuted_copy<float>({144, 56 * 56}, {1, 0}, disjoint);      // several chunks
      expect_permuted_copy<uint8_t>({33, 20}, {1, 0}, disjoint);
      expect_permuted_copy<int16_t>({20, 33}, {1, 0}, disjoint);
      expect_permuted_copy<int64_t>({4, 33, 16}, {0, 2, 1}, disjoint);
      expect_permuted_copy<float>({1, 3, 20, 22}, {0, 2, 3, 1}, disjoint);  // an image's 3 channels
      expect_permuted_copy<float>({1, 20, 22, 3}, {0, 3, 1, 2}, disjoint);  // and back: rows
      expect_permuted_copy<float>({5, 15}, {1, 0}, disjoint);
      // Empty outs whose input rows are long enough for tiles (a fuzzed
      // XNNPACK transpose divided by the zero columns).
      expect_permuted_copy<uint8_t>({0, 20}, {1, 0}, disjoint);
      expect_permuted_copy<float>({0, 5, 20}, {0, 2, 1}, disjoint);
    }
  }
  set_parallel_runner(nullptr);
}

}  // namespace
}  // namespace tri::testing
