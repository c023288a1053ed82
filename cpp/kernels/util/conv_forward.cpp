#include "cpp/kernels/util/conv_forward.h"

#include <algorithm>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/conv_depthwise.h"
#include "cpp/kernels/util/conv_im2col.h"
#include "cpp/kernels/util/conv_winograd.h"
#include "cpp/kernels/util/gemm.h"
#include "cpp/kernels/simd/f32_gemm_minmax.h"
#include "cpp/kernels/util/scratch_size.h"
#include "cpp/kernels/util/simd.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri {
namespace {

// The gemm's column panel: position blocks that threads or chunks take
// are whole panels, so that none but the last is packed part empty.
constexpr int64_t kPanel = static_cast<int64_t>(kF32GemmNr);

// The storage of the compute type: int64 is computed as wrapping uint64.
template <typename G>
using LoadType = typename std::conditional<std::is_same<G, uint64_t>::value, int64_t, G>::type;

// dst (row-major over sizes[5]) = t's elements at element strides st, converted.
template <typename G>
void gather5(const Tensor& t, const int64_t* sizes, const int64_t* st, G* dst) {
  const int64_t es = static_cast<int64_t>(t.element_size());
  const char* base = static_cast<const char*>(t.mutable_data());
  for (int64_t a = 0; a < sizes[0]; ++a)
    for (int64_t b = 0; b < sizes[1]; ++b)
      for (int64_t c = 0; c < sizes[2]; ++c)
        for (int64_t d = 0; d < sizes[3]; ++d) {
          const int64_t off = a * st[0] + b * st[1] + c * st[2] + d * st[3];
          load_row<LoadType<G>>(t.scalar_type(), base + off * es, st[4] * es, sizes[4],
                                reinterpret_cast<LoadType<G>*>(dst));
          dst += sizes[4];
        }
}

// out(c, positions l0 .. l0 + lc) = src (+ bias), through out's strides.
template <typename G>
void store_positions(const ConvProblem& p, G* src, int64_t lc, int64_t l0, int64_t n, int64_t c,
                     const G* bias, const WindowGeom& g) {
  if (bias != nullptr) {
    for (int64_t j = 0; j < lc; ++j) src[j] += bias[c];
  }
  const int64_t es = static_cast<int64_t>(p.out->element_size());
  char* base = static_cast<char*>(p.out->mutable_data()) + (n * p.out_st[0] + c * p.out_st[1]) * es;
  const int64_t* st = p.out_st + 2;
  int64_t l = l0;
  while (l < l0 + lc) {
    const int64_t w0 = l % g.grid[2];
    const int64_t h = (l / g.grid[2]) % g.grid[1];
    const int64_t d = l / (g.grid[2] * g.grid[1]);
    const int64_t count = g.grid[2] - w0 < l0 + lc - l ? g.grid[2] - w0 : l0 + lc - l;
    store_row<LoadType<G>>(p.out->scalar_type(), reinterpret_cast<LoadType<G>*>(src + (l - l0)),
                           base + (d * st[0] + h * st[1] + w0 * st[2]) * es, st[2] * es, count);
    l += count;
  }
}

Error too_small(int64_t bytes) {
  TRI_CHECK(false, Error::MemoryAllocationFailed,
            "convolution: temp memory too small (%lld more bytes needed)",
            static_cast<long long>(bytes));
  return Error::Ok;
}

// Whether the three spatial dims (element strides st[2..4] of a 5-dim
// [N, C, D, H, W] layout) are row-major, so position l is element l.
bool spatially_contiguous(const int64_t* st, const int64_t* sizes) {
  return (sizes[2] == 1 || st[4] == 1) && (sizes[1] == 1 || st[3] == sizes[2]) &&
         (sizes[0] == 1 || st[2] == sizes[1] * sizes[2]);
}

// What run<G>() takes from temp: `fixed` bytes whatever the tiling (a
// converted weight, input or bias, the transposed accumulator), and
// `per_pos` bytes for each window position of a column tile.
struct ConvTemp {
  bool w_native = false;
  bool native = false;
  int64_t in_numel = 0;
  int64_t wsize = 0;
  int64_t fixed = 0;
  int64_t per_pos = 0;
};

template <typename G>
ConvTemp conv_temp(const ConvProblem& p) {
  const WindowGeom& g = p.g;
  const int64_t ks = g.taps();
  const int64_t icg = p.in_ch / p.groups;
  const int64_t ocg = p.out_ch / p.groups;
  ConvTemp t;
  t.wsize = p.w_size[0] * p.w_size[1] * ks;
  // Input in G: in place when it already holds G, else converted (contiguous).
  t.in_numel = p.batch * p.in_ch * (p.transposed ? g.grid_size() : g.img_size());
  t.native = p.input->scalar_type() == compute_dtype(p.input->scalar_type());
  // A contiguous weight already stored as G is used in place: copying it
  // would need temp the size of the weight (9.4 MB for resnet18's last
  // 3x3 convs).
  t.w_native =
      p.weight->scalar_type() == compute_dtype(p.out->scalar_type()) && p.weight->is_contiguous();
  t.fixed = ((t.w_native ? 0 : t.wsize) + p.out_ch + (t.native ? 0 : t.in_numel) +
             (p.transposed ? ocg * g.img_size() : 0)) * static_cast<int64_t>(sizeof(G));
  // Per window position: forward needs K + ocg values, transposed icg + ocg * K.
  t.per_pos = (p.transposed ? icg + ocg * ks : icg * ks + ocg) * static_cast<int64_t>(sizeof(G));
  return t;
}

template <typename G>
size_t conv_scratch(const ConvProblem& p) {
  const ConvTemp t = conv_temp<G>(p);
  const int64_t positions = p.g.grid_size();
  const int64_t lc = conv_tile_positions(kConvTileBytes, t.per_pos, positions);
  const int64_t ocg = p.out_ch / p.groups;
  ScratchSize size;
  if (!t.w_native) size.add<G>(t.wsize);
  size.add<G>(p.out_ch);
  if (!t.native) size.add<G>(t.in_numel);
  if (p.transposed) size.add<G>(ocg * p.g.img_size());
  const int64_t per_pos = t.per_pos / static_cast<int64_t>(sizeof(G));
  const int64_t b_rows = p.transposed ? p.in_ch / p.groups : (p.in_ch / p.groups) * p.g.taps();
  size.add<G>(b_rows * lc);
  size.add<G>((per_pos - b_rows) * lc);
  return size.bytes() + kTempSlack;
}

// Channels from which im2col splits its rows by channel over threads
// rather than its columns by position: for resnet18's 3x3 layers (64 to
// 512 channels) the position split was slower, 3.26 -> 3.59 ms a layer on
// 2 threads.
constexpr int64_t kIm2colChannelSplit = 16;

// Positions each thread must get before the fused path below pays: with
// fewer (small maps, many channels, e.g. 512 at 7x7) the gemm splits its
// rows as well, and reads the weights once per K block for all positions.
constexpr int64_t kFusedMinPositions = 256;

// A float32 tile's im2col and gemm in one parallel pass: each thread fills
// the columns of its own positions, a cache-sized chunk at a time, and
// multiplies them while they are in its core's cache. Filled whole and
// then multiplied, the columns went to memory and back (see
// kConvChunkBytes), and on two threads half of them were written by the
// other core (im2col splits by channel, the gemm by position).
void columns_times_weights(const float* img, const int64_t* img_st, const WindowGeom& g,
                           int64_t icg, int64_t ocg, int64_t l0, int64_t len, float* cols,
                           MatView<float> w, float* c, int64_t ldc, const RowEpilogue& e) {
  const int64_t k = icg * g.taps();
  const size_t panels = static_cast<size_t>((len + kPanel - 1) / kPanel);
  // At least 4 panels a task: 64 positions of a 32-channel layer's gemm
  // take about 30 us.
  parallel_for(panels, 4, [&](size_t b0, size_t b1) {
    const int64_t j0 = static_cast<int64_t>(b0) * kPanel;
    const int64_t j1 = std::min(static_cast<int64_t>(b1) * kPanel, len);
    const int64_t step = conv_chunk_positions(j1 - j0, k * static_cast<int64_t>(sizeof(float)));
    for (int64_t s0 = j0; s0 < j1; s0 += step) {
      const int64_t n = std::min(step, j1 - s0);
      // Each chunk's columns contiguous (rows of n, not of the tile's len),
      // all of a task's chunks in the same place (the start of the part of
      // the buffer its positions' columns would take), which stays in
      // cache: a new place per chunk cost 8.80 against 7.9 ms (32 -> 32
      // channels at 112x112, one thread).
      float* chunk = cols + k * j0;
      im2col_chunk<float>(img, img_st, g, icg, l0 + s0, n, chunk, n);
      gemm_blocked_epilogue(ocg, n, k, w, MatView<float>{chunk, n, 1}, c + s0, ldc, e);
    }
  });
}

template <typename G>
Error run(KernelContext& ctx, const ConvProblem& p) {
  const WindowGeom& g = p.g;
  const int64_t ks = g.taps();
  const int64_t icg = p.in_ch / p.groups;
  const int64_t ocg = p.out_ch / p.groups;
  const ConvTemp t = conv_temp<G>(p);
  const int64_t wsize = t.wsize;
  const int64_t in_numel = t.in_numel;
  const bool native = t.native;
  const bool w_native = t.w_native;
  const int64_t in_sp[3] = {p.transposed ? g.grid[0] : g.img[0], p.transposed ? g.grid[1] : g.img[1],
                            p.transposed ? g.grid[2] : g.img[2]};
  const int64_t fixed = t.fixed;
  const int64_t per_pos = t.per_pos;
  const int64_t positions = g.grid_size();
  const int64_t left = static_cast<int64_t>(temp_left(ctx.temp));
  if (left < fixed + per_pos) return too_small(fixed + per_pos - left);
  const int64_t lc = conv_tile_positions(left - fixed, per_pos, positions);
  if (p.out_over_input && (p.transposed || p.batch * p.groups != 1 || lc < positions)) {
    return Error::NotSupported;
  }
  G* w = w_native ? static_cast<G*>(p.weight->mutable_data())
                  : ctx.temp->allocate_array<G>(static_cast<size_t>(wsize));
  G* bias = ctx.temp->allocate_array<G>(static_cast<size_t>(p.out_ch));
  G* in_conv = native ? nullptr : ctx.temp->allocate_array<G>(static_cast<size_t>(in_numel));
  G* acc = p.transposed ? ctx.temp->allocate_array<G>(static_cast<size_t>(ocg * g.img_size())) : nullptr;
  G* bcols = ctx.temp->allocate_array<G>(static_cast<size_t>((p.transposed ? icg : icg * ks) * lc));
  G* ccols = ctx.temp->allocate_array<G>(static_cast<size_t>((p.transposed ? ocg * ks : ocg) * lc));
  if (w == nullptr || bias == nullptr || (!native && in_conv == nullptr) ||
      (p.transposed && acc == nullptr) || bcols == nullptr || ccols == nullptr) {
    return too_small(per_pos);
  }
  if (!w_native) {
    const int64_t ws[5] = {p.w_size[0], p.w_size[1], p.w_size[2], p.w_size[3], p.w_size[4]};
    gather5<G>(*p.weight, ws, p.w_st, w);
  }
  if (p.bias != nullptr) {
    load_row<LoadType<G>>(p.bias->scalar_type(), p.bias->mutable_data(),
                          p.bias->strides()[0] * static_cast<int64_t>(p.bias->element_size()),
                          p.out_ch, reinterpret_cast<LoadType<G>*>(bias));
  } else {
    for (int64_t c = 0; c < p.out_ch; ++c) bias[c] = G(0);
  }
  const G* in = static_cast<const G*>(p.input->mutable_data());
  int64_t in_st[5];
  for (int i = 0; i < 5; ++i) in_st[i] = p.in_st[i];
  if (!native) {
    const int64_t sizes[5] = {p.batch, p.in_ch, in_sp[0], in_sp[1], in_sp[2]};
    gather5<G>(*p.input, sizes, p.in_st, in_conv);
    in = in_conv;
    in_st[4] = 1;
    in_st[3] = in_sp[2];
    in_st[2] = in_sp[1] * in_sp[2];
    in_st[1] = in_sp[0] * in_st[2];
    in_st[0] = p.in_ch * in_st[1];
  }
  // Plain convolution skips copies where the layout allows: a 1x1 window
  // with stride 1 and no padding reads its columns straight from a
  // spatially contiguous input (they are the image rows), and a spatially
  // contiguous out of the compute type takes the gemm's rows in place.
  // An out over the input takes the copy (a 1x1's im2col), so that the
  // gemm reads only the column buffer.
  const bool direct_b = !p.out_over_input && !p.transposed && g.taps() == 1 && g.s[0] == 1 &&
                        g.s[1] == 1 && g.s[2] == 1 && g.p[0] == 0 && g.p[1] == 0 && g.p[2] == 0 &&
                        spatially_contiguous(in_st, g.img);
  const bool direct_c = !p.transposed && p.out->scalar_type() == dtype_of<G>() &&
                        spatially_contiguous(p.out_st, g.grid);
  // im2col's columns and the gemm in one pass (columns_times_weights): an
  // out over the input must have all of the input read first.
  const bool fused = !p.transposed && !direct_b && direct_c && !p.out_over_input;
  G* out_data = static_cast<G*>(p.out->mutable_data());
  // The input's own positions as a trivial window grid (transposed B gather).
  WindowGeom flat;
  for (int i = 0; i < 3; ++i) flat.img[i] = flat.grid[i] = g.grid[i];
  const int64_t acc_st[4] = {g.img_size(), g.img[1] * g.img[2], g.img[2], 1};
  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t gr = 0; gr < p.groups; ++gr) {
      const G* img = in + n * in_st[0] + gr * icg * in_st[1];
      if (p.transposed) {
        for (int64_t c = 0; c < ocg; ++c) {
          for (int64_t i = 0; i < g.img_size(); ++i) acc[c * g.img_size() + i] = G(0);
        }
      }
      for (int64_t l0 = 0; l0 < positions; l0 += lc) {
        const int64_t len = positions - l0 < lc ? positions - l0 : lc;
        if constexpr (std::is_same<G, float>::value) {
          if (fused && len >= kFusedMinPositions * static_cast<int64_t>(parallel_threads())) {
            RowEpilogue e;
            e.bias = p.bias != nullptr ? bias + gr * ocg : nullptr;
            e.affine = p.affine.from(static_cast<size_t>(gr * ocg));
            columns_times_weights(img, in_st + 1, g, icg, ocg, l0, len, bcols,
                                  MatView<G>{w + gr * ocg * icg * ks, icg * ks, 1},
                                  out_data + n * p.out_st[0] + gr * ocg * p.out_st[1] + l0,
                                  p.out_st[1], e);
            continue;
          }
        }
        if (!p.transposed) {
          if (!direct_b) {
            if (icg >= kIm2colChannelSplit) {
              // Rows are (channel, tap): channel ranges fill disjoint rows.
              const int64_t rows_per_channel = ks * len;
              const size_t min_channels = static_cast<size_t>(16384 / rows_per_channel + 1);
              parallel_for(static_cast<size_t>(icg), min_channels, [&](size_t c0, size_t c1) {
                im2col_chunk<G>(img + static_cast<int64_t>(c0) * in_st[1], in_st + 1, g,
                                static_cast<int64_t>(c1 - c0), l0, len,
                                bcols + static_cast<int64_t>(c0) * rows_per_channel, len);
              });
            } else {
              // Few channels (a network's first layer has 3): split by
              // channel, two threads ran at 1 : 2. Threads fill blocks of 16
              // positions (the gemm's column panels) instead, every row.
              const int64_t blocks = (len + kPanel - 1) / kPanel;
              const size_t min_blocks = static_cast<size_t>(16384 / (icg * ks * kPanel) + 1);
              parallel_for(static_cast<size_t>(blocks), min_blocks, [&](size_t b0, size_t b1) {
                const int64_t j0 = static_cast<int64_t>(b0) * kPanel;
                const int64_t j1 = std::min(static_cast<int64_t>(b1) * kPanel, len);
                im2col_chunk<G>(img, in_st + 1, g, icg, l0 + j0, j1 - j0, bcols + j0, len);
              });
            }
          }
          const MatView<G> b = direct_b ? MatView<G>{img + l0, in_st[1], 1} : MatView<G>{bcols, len, 1};
          G* c0 = direct_c ? out_data + n * p.out_st[0] + gr * ocg * p.out_st[1] + l0 : ccols;
          const int64_t ldc = direct_c ? p.out_st[1] : len;
          const MatView<G> a{w + gr * ocg * icg * ks, icg * ks, 1};
          if constexpr (std::is_same<G, float>::value) {
            // Bias and the fused tail inside the gemm, on its cached tiles.
            RowEpilogue e;
            e.bias = p.bias != nullptr ? bias + gr * ocg : nullptr;
            e.affine = p.affine.from(static_cast<size_t>(gr * ocg));
            gemm_blocked_epilogue(ocg, len, icg * ks, a, b, c0, ldc, e);
            if (!direct_c) {
              for (int64_t c = 0; c < ocg; ++c) {
                store_positions<G>(p, ccols + c * len, len, l0, n, gr * ocg + c, nullptr, g);
              }
            }
            continue;
          }
          gemm_blocked<G>(ocg, len, icg * ks, a, b, c0, ldc);
          for (int64_t c = 0; c < ocg; ++c) {
            if (!direct_c) {
              store_positions<G>(p, ccols + c * len, len, l0, n, gr * ocg + c, bias, g);
              continue;
            }
            const G bc = bias[gr * ocg + c];
            if (bc == G(0)) continue;
            G* row = c0 + c * ldc;
            for (int64_t j = 0; j < len; ++j) row[j] += bc;
          }
        } else {
          im2col_chunk<G>(img, in_st + 1, flat, icg, l0, len, bcols, len);
          gemm_blocked<G>(ocg * ks, len, icg, MatView<G>{w + gr * icg * ocg * ks, 1, ocg * ks},
                          MatView<G>{bcols, len, 1}, ccols, len);
          col2im_chunk<G>(ccols, g, ocg, l0, len, acc, acc_st);
        }
      }
      if (p.transposed) {
        WindowGeom og;
        for (int i = 0; i < 3; ++i) og.grid[i] = g.img[i];
        for (int64_t c = 0; c < ocg; ++c) {
          store_positions<G>(p, acc + c * g.img_size(), g.img_size(), 0, n, gr * ocg + c, bias, og);
        }
      }
    }
  }
  return Error::Ok;
}

}  // namespace

int64_t conv_tile_positions(int64_t bytes, int64_t per_pos, int64_t positions) {
  int64_t lc = bytes / per_pos;
  if (lc > kConvTileBytes / per_pos) lc = kConvTileBytes / per_pos;
  if (lc > positions) lc = positions;
  return lc < 1 ? 1 : lc;
}

int64_t conv_chunk_positions(int64_t span, int64_t row_bytes) {
  int64_t target = row_bytes > 0 ? kConvChunkBytes / row_bytes : span;
  if (target < 4 * kPanel) target = 4 * kPanel;
  if (target >= span) return span;
  // Even chunks of whole panels: 784 positions by a target of 227 go as
  // 4 x 196 -> 208, 208, 208, 160 rather than 224, 224, 224, 112.
  const int64_t chunks = (span + target - 1) / target;
  const int64_t even = (span + chunks - 1) / chunks;
  return (even + kPanel - 1) / kPanel * kPanel;
}

size_t temp_left(const MemoryAllocator* temp) {
  if (temp == nullptr) return 0;
  return temp->capacity() > temp->used() + kTempSlack ? temp->capacity() - temp->used() - kTempSlack
                                                       : 0;
}

template <typename G>
const G* conv_operand(KernelContext& context, const Tensor& t, const int64_t* sizes, int64_t* st) {
  if (t.scalar_type() == dtype_of<G>()) return static_cast<const G*>(t.mutable_data());
  int64_t n = 1;
  for (int i = 0; i < 5; ++i) n *= sizes[i];
  G* dst = context.temp != nullptr ? context.temp->allocate_array<G>(static_cast<size_t>(n)) : nullptr;
  if (dst == nullptr) return nullptr;
  gather5<G>(t, sizes, st, dst);
  int64_t step = 1;
  for (int i = 4; i >= 0; --i) {
    st[i] = step;
    step *= sizes[i];
  }
  return dst;
}

template const float* conv_operand<float>(KernelContext&, const Tensor&, const int64_t*, int64_t*);
template const double* conv_operand<double>(KernelContext&, const Tensor&, const int64_t*,
                                            int64_t*);

size_t convolution_scratch(const ConvProblem& p) {
  if (p.out == nullptr || p.groups < 1) return 0;
  if (depthwise3x3_applies(p)) return ScratchSize().add<float>(10 * p.in_ch).bytes();
  switch (compute_kind(p.out->scalar_type())) {
    case ComputeKind::Float:
      // With both, the im2col path still runs if temp ever falls short.
      return winograd3x3_applies(p) ? std::max(winograd3x3_scratch(p), conv_scratch<float>(p))
                                    : conv_scratch<float>(p);
    case ComputeKind::Double: return conv_scratch<double>(p);
    default: return conv_scratch<uint64_t>(p);
  }
}

Error run_convolution(KernelContext& context, const ConvProblem& p) {
  TRI_CHECK(!p.affine.active() || (!p.transposed && p.out->scalar_type() == ScalarType::Float),
            Error::InvalidArgument,
            "convolution: a fused channel affine needs a float32, non-transposed convolution");
  if (depthwise3x3_applies(p)) {
    // Its rows read input rows that earlier rows' writes would cover: only
    // the same-size case saves them as it goes.
    if (p.out_over_input && !depthwise3x3_in_place_applies(p)) return Error::NotSupported;
    depthwise3x3(context, p, simd_enabled());
    return Error::Ok;
  }
  if (winograd3x3_applies(p) && winograd3x3(context, p)) return Error::Ok;
  switch (compute_kind(p.out->scalar_type())) {
    case ComputeKind::Float: return run<float>(context, p);
    case ComputeKind::Double: return run<double>(context, p);
    default: return run<uint64_t>(context, p);
  }
}

}  // namespace tri
