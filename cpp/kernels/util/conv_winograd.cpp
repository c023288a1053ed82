#include "cpp/kernels/util/conv_winograd.h"

#include <cstdint>

#include "cpp/kernels/util/channel_affine.h"
#include "cpp/kernels/util/gemm.h"
#include "cpp/kernels/util/gemm_f4.h"
#include "cpp/kernels/util/scratch_size.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri {
namespace {

// Points of the transform domain: a 4x4 tile.
constexpr int64_t kPoints = 16;

// Outside these the im2col path is as fast. With fewer channels the 16
// gemms are too thin (k = in_ch) to make up for the transformed planes'
// memory traffic: 32 -> 32 channels at 112x112 ran 6.87 ms either way,
// where 64 -> 64 at 56x56 went 6.5 -> 3.75 ms. The filter transform, made
// on every run, grows as in x out: at 256 -> 256 (14x14) it ate the gain.
constexpr int64_t kMinChannels = 64;
constexpr int64_t kMaxChannelProduct = 128 * 128;
constexpr int64_t kMinTiles = 64;
// The transformed planes are whole (not tiled like im2col's columns): past
// this the im2col path, whose tiles stop at 8 MiB, runs instead, so a large
// image or batch never asks for more scratch than it did before.
constexpr size_t kMaxScratchBytes = size_t{16} << 20;

struct Shape {
  int64_t in_ch, out_ch;
  int64_t h, w, oh, ow, ph, pw;
  int64_t tiles_h, tiles_w;
  int64_t tiles;  // over the whole batch: the gemms' n
};

Shape shape_of(const ConvProblem& p) {
  Shape s;
  s.in_ch = p.in_ch;
  s.out_ch = p.out_ch;
  s.h = p.g.img[1];
  s.w = p.g.img[2];
  s.oh = p.g.grid[1];
  s.ow = p.g.grid[2];
  s.ph = p.g.p[1];
  s.pw = p.g.p[2];
  s.tiles_h = (s.oh + 1) / 2;
  s.tiles_w = (s.ow + 1) / 2;
  s.tiles = p.batch * s.tiles_h * s.tiles_w;
  return s;
}

bool is_float(const Tensor* t) { return t != nullptr && t->scalar_type() == ScalarType::Float; }

// The filter's rows: G g for the 3 values g[0], g[s], g[2s].
inline void filter_rows(const float* g, int64_t s, float* out, int64_t os) {
  out[0] = g[0];
  out[os] = 0.5f * (g[0] + g[s] + g[2 * s]);
  out[2 * os] = 0.5f * (g[0] - g[s] + g[2 * s]);
  out[3 * os] = g[2 * s];
}

// Up to 4 lanes: f4_load_partial and f4_store_partial take at most 3.
inline F4 load_lanes(const float* p, size_t n) { return n >= 4 ? f4_load(p) : f4_load_partial(p, n); }
inline void store_lanes(float* p, size_t n, F4 v) {
  if (n >= 4) {
    f4_store(p, v);
  } else {
    f4_store_partial(p, n, v);
  }
}

// Tiles one pass of the input transform takes along a row: its padded rows
// live on the stack.
constexpr int64_t kStripTiles = 32;
constexpr int64_t kStripFloats = 2 * kStripTiles + 4;

// U[point][o][c] = G g G^T for every filter, output channels [o0, o1).
void transform_filters(const ConvProblem& p, const Shape& s, float* u, size_t o0, size_t o1) {
  const float* w = static_cast<const float*>(p.weight->mutable_data());
  const int64_t plane = s.out_ch * s.in_ch;
  for (int64_t o = static_cast<int64_t>(o0); o < static_cast<int64_t>(o1); ++o) {
    for (int64_t c = 0; c < s.in_ch; ++c) {
      float g[9];
      const float* src = w + o * p.w_st[0] + c * p.w_st[1];
      for (int64_t kh = 0; kh < 3; ++kh) {
        for (int64_t kw = 0; kw < 3; ++kw) g[kh * 3 + kw] = src[kh * p.w_st[3] + kw * p.w_st[4]];
      }
      float gg[12];  // G g: 4 rows of 3
      for (int64_t kw = 0; kw < 3; ++kw) filter_rows(g + kw, 3, gg + kw, 3);
      float t[16];  // (G g) G^T: 4 x 4
      for (int64_t i = 0; i < 4; ++i) filter_rows(gg + i * 3, 1, t + i * 4, 1);
      for (int64_t x = 0; x < kPoints; ++x) u[x * plane + o * s.in_ch + c] = t[x];
    }
  }
}

// V[point][c][tile] = B^T d B for each 4x4 input tile d of planes
// [q0, q1) (q = image * in_ch + channel); zeros outside the image. Four
// tiles a step, one per lane: B^T d along the rows for a strip of columns
// at once, then B along each tile's columns, which lie 2 apart from one
// tile to the next (even and odd lanes of two loads).
void transform_inputs(const ConvProblem& p, const Shape& s, float* v, size_t q0, size_t q1) {
  const float* in = static_cast<const float*>(p.input->mutable_data());
  const int64_t per_image = s.tiles_h * s.tiles_w;
  const int64_t plane = s.in_ch * s.tiles;
  alignas(16) float rows[4][kStripFloats];
  for (int64_t q = static_cast<int64_t>(q0); q < static_cast<int64_t>(q1); ++q) {
    const int64_t n = q / s.in_ch;
    const int64_t c = q % s.in_ch;
    const float* src = in + n * p.in_st[0] + c * p.in_st[1];
    float* dst = v + c * s.tiles + n * per_image;
    for (int64_t ty = 0; ty < s.tiles_h; ++ty) {
      const int64_t y0 = 2 * ty - s.ph;
      for (int64_t tx0 = 0; tx0 < s.tiles_w; tx0 += kStripTiles) {
        const int64_t strip = s.tiles_w - tx0 < kStripTiles ? s.tiles_w - tx0 : kStripTiles;
        // Columns x0 .. x0 + 2 * ceil4(strip) + 2 of the padded image.
        const int64_t x0 = 2 * tx0 - s.pw;
        const int64_t width = 2 * ((strip + 3) / 4 * 4) + 4;
        for (int64_t col = 0; col < width; ++col) {
          float d[4];
          const int64_t x = x0 + col;
          for (int64_t i = 0; i < 4; ++i) {
            const int64_t y = y0 + i;
            d[i] = y >= 0 && y < s.h && x >= 0 && x < s.w ? src[y * p.in_st[3] + x * p.in_st[4]] : 0.0f;
          }
          rows[0][col] = d[0] - d[2];
          rows[1][col] = d[1] + d[2];
          rows[2][col] = d[2] - d[1];
          rows[3][col] = d[1] - d[3];
        }
        for (int64_t t = 0; t < strip; t += 4) {
          const size_t lanes = static_cast<size_t>(strip - t < 4 ? strip - t : 4);
          float* out = dst + ty * s.tiles_w + tx0 + t;
          for (int64_t i = 0; i < 4; ++i) {
            const float* r = rows[i] + 2 * t;
            const F4 c0 = f4_even(f4_load(r), f4_load(r + 4));
            const F4 c1 = f4_odd(f4_load(r), f4_load(r + 4));
            const F4 c2 = f4_even(f4_load(r + 2), f4_load(r + 6));
            const F4 c3 = f4_odd(f4_load(r + 2), f4_load(r + 6));
            store_lanes(out + (4 * i + 0) * plane, lanes, f4_sub(c0, c2));
            store_lanes(out + (4 * i + 1) * plane, lanes, f4_add(c1, c2));
            store_lanes(out + (4 * i + 2) * plane, lanes, f4_sub(c2, c1));
            store_lanes(out + (4 * i + 3) * plane, lanes, f4_sub(c1, c3));
          }
        }
      }
    }
  }
}

// out = A^T m A for each tile of output planes [q0, q1) (q = image *
// out_ch + channel), four tiles a step, then the bias and fused tail, row
// by row.
void transform_outputs(const ConvProblem& p, const Shape& s, const float* m,
                       const RowEpilogue& e, size_t q0, size_t q1) {
  float* out = static_cast<float*>(p.out->mutable_data());
  const int64_t per_image = s.tiles_h * s.tiles_w;
  const int64_t plane = s.out_ch * s.tiles;
  for (int64_t q = static_cast<int64_t>(q0); q < static_cast<int64_t>(q1); ++q) {
    const int64_t n = q / s.out_ch;
    const int64_t o = q % s.out_ch;
    float* dst = out + n * p.out_st[0] + o * p.out_st[1];
    const float* src = m + o * s.tiles + n * per_image;
    for (int64_t ty = 0; ty < s.tiles_h; ++ty) {
      for (int64_t tx = 0; tx < s.tiles_w; tx += 4) {
        const size_t lanes = static_cast<size_t>(s.tiles_w - tx < 4 ? s.tiles_w - tx : 4);
        const float* t = src + ty * s.tiles_w + tx;
        F4 top[4], bottom[4];  // A^T m: its two rows, per column j
        for (int64_t j = 0; j < 4; ++j) {
          const F4 m0 = load_lanes(t + j * plane, lanes);
          const F4 m1 = load_lanes(t + (4 + j) * plane, lanes);
          const F4 m2 = load_lanes(t + (8 + j) * plane, lanes);
          const F4 m3 = load_lanes(t + (12 + j) * plane, lanes);
          top[j] = f4_add(f4_add(m0, m1), m2);
          bottom[j] = f4_sub(f4_sub(m1, m2), m3);
        }
        const int64_t cols = s.ow - 2 * tx < 8 ? s.ow - 2 * tx : 8;
        for (int64_t i = 0; i < 2 && 2 * ty + i < s.oh; ++i) {
          const F4* r = i == 0 ? top : bottom;
          const F4 left = f4_add(f4_add(r[0], r[1]), r[2]);
          const F4 right = f4_sub(f4_sub(r[1], r[2]), r[3]);
          float* row = dst + (2 * ty + i) * p.out_st[3] + 2 * tx;
          store_lanes(row, static_cast<size_t>(cols), f4_zip_lo(left, right));
          if (cols > 4) store_lanes(row + 4, static_cast<size_t>(cols - 4), f4_zip_hi(left, right));
        }
      }
    }
    if (!e.active()) continue;
    for (int64_t r = 0; r < s.oh; ++r) {
      finish_row(e, static_cast<size_t>(o), dst + r * p.out_st[3], static_cast<size_t>(s.ow));
    }
  }
}

// The temp blocks, in the order winograd3x3 takes them.
struct Blocks {
  int64_t filters, inputs, products, bias;
};

Blocks blocks_of(const Shape& s) {
  return {kPoints * s.out_ch * s.in_ch, kPoints * s.in_ch * s.tiles, kPoints * s.out_ch * s.tiles,
          s.out_ch};
}

}  // namespace

bool winograd3x3_applies(const ConvProblem& p) {
  const WindowGeom& g = p.g;
  // An out over the input is fine: every input value is in the transformed
  // tiles before the first output is written.
  if (p.transposed || p.groups != 1 || !is_float(p.input) ||
      !is_float(p.weight) || !is_float(p.out) || (p.bias != nullptr && !is_float(p.bias))) {
    return false;
  }
  if (g.k[0] != 1 || g.img[0] != 1 || g.k[1] != 3 || g.k[2] != 3 || g.s[1] != 1 || g.s[2] != 1 ||
      g.d[1] != 1 || g.d[2] != 1 || p.out_st[4] != 1) {
    return false;
  }
  if (p.in_ch < kMinChannels || p.out_ch < kMinChannels ||
      p.in_ch * p.out_ch > kMaxChannelProduct) {
    return false;
  }
  return shape_of(p).tiles >= kMinTiles && winograd3x3_scratch(p) <= kMaxScratchBytes;
}

namespace {

size_t blocks_bytes(const ConvProblem& p) {
  const Blocks b = blocks_of(shape_of(p));
  return ScratchSize()
      .add<float>(b.filters)
      .add<float>(b.inputs)
      .add<float>(b.products)
      .add<float>(b.bias)
      .bytes();
}

}  // namespace

// With the slack temp_left() keeps back, as the im2col path's scratch. It
// had none: a method whose largest need was a Winograd layer's (one of
// 128 channels at 28x28, where im2col takes less) ran that layer by im2col.
size_t winograd3x3_scratch(const ConvProblem& p) { return blocks_bytes(p) + kTempSlack; }

bool winograd3x3(KernelContext& ctx, const ConvProblem& p) {
  if (ctx.temp == nullptr || temp_left(ctx.temp) < blocks_bytes(p)) return false;
  const Shape s = shape_of(p);
  const Blocks b = blocks_of(s);
  float* u = ctx.temp->allocate_array<float>(static_cast<size_t>(b.filters));
  float* v = ctx.temp->allocate_array<float>(static_cast<size_t>(b.inputs));
  float* m = ctx.temp->allocate_array<float>(static_cast<size_t>(b.products));
  float* bias = ctx.temp->allocate_array<float>(static_cast<size_t>(b.bias));
  // temp_left keeps kTempSlack back for alignment, so these cannot fail
  // after the check above; a null here is a bug, not a full arena.
  if (u == nullptr || v == nullptr || m == nullptr || bias == nullptr) return false;

  parallel_for(static_cast<size_t>(s.out_ch), 4, [&](size_t o0, size_t o1) {
    transform_filters(p, s, u, o0, o1);
  });
  parallel_for(static_cast<size_t>(p.batch * s.in_ch), 1, [&](size_t q0, size_t q1) {
    transform_inputs(p, s, v, q0, q1);
  });
  // One gemm per point, each on one thread: 16 of them share out evenly
  // over 2 or 4 threads, in one parallel region rather than 16.
  parallel_for(static_cast<size_t>(kPoints), 1, [&](size_t x0, size_t x1) {
    for (size_t x = x0; x < x1; ++x) {
      const MatView<float> a{u + static_cast<int64_t>(x) * s.out_ch * s.in_ch, s.in_ch, 1};
      const MatView<float> bv{v + static_cast<int64_t>(x) * s.in_ch * s.tiles, s.tiles, 1};
      gemm_blocked_epilogue(s.out_ch, s.tiles, s.in_ch, a, bv,
                            m + static_cast<int64_t>(x) * s.out_ch * s.tiles, s.tiles, RowEpilogue());
    }
  });

  RowEpilogue e;
  if (p.bias != nullptr) {
    const float* src = static_cast<const float*>(p.bias->mutable_data());
    const int64_t st = p.bias->strides()[0];
    for (int64_t o = 0; o < s.out_ch; ++o) bias[o] = src[o * st];
    e.bias = bias;
  }
  e.affine = p.affine;
  parallel_for(static_cast<size_t>(p.batch * s.out_ch), 1, [&](size_t q0, size_t q1) {
    transform_outputs(p, s, m, e, q0, q1);
  });
  return true;
}

}  // namespace tri
