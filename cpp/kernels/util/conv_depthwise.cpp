#include "cpp/kernels/util/conv_depthwise.h"

#include "cpp/kernels/util/channel_affine.h"
#include "cpp/kernels/util/gemm_f4.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri {
namespace {

struct Plane {
  const float* in;  // (n, c) plane
  float* out;
  size_t c;  // its channel
  int64_t ish, isw, osh, osw;  // element strides
  float w[9];
  float bias;
};

// The three input rows output row oh reads (kh = 0, 1, 2), and which of
// them lie inside the image.
struct TapRows {
  const float* row[3];
  bool valid[3];
};

TapRows tap_rows(const ConvProblem& p, const Plane& pl, int64_t oh) {
  const WindowGeom& g = p.g;
  TapRows r;
  for (int64_t kh = 0; kh < 3; ++kh) {
    const int64_t ih = oh * g.s[1] - g.p[1] + kh;
    r.valid[kh] = ih >= 0 && ih < g.img[1];
    r.row[kh] = pl.in + (r.valid[kh] ? ih : 0) * pl.ish;
  }
  return r;
}

// One output row, scalar: taps in (kh, kw) order, as the vector paths do.
void row_scalar(const ConvProblem& p, const Plane& pl, int64_t oh, const TapRows& rows) {
  const WindowGeom& g = p.g;
  float* o = pl.out + oh * pl.osh;
  for (int64_t ow = 0; ow < g.grid[2]; ++ow) {
    float acc = pl.bias;
    for (int64_t kh = 0; kh < 3; ++kh) {
      if (!rows.valid[kh]) continue;
      for (int64_t kw = 0; kw < 3; ++kw) {
        const int64_t iw = ow * g.s[2] - g.p[2] + kw;
        if (iw < 0 || iw >= g.img[2]) continue;
        acc += pl.w[kh * 3 + kw] * rows.row[kh][iw * pl.isw];
      }
    }
    o[ow * pl.osw] = acc;
  }
}

// The columns of output row oh outside [lo, hi), which the vector blocks
// left (their taps reach past the image), scalar, taps in (kh, kw) order.
template <int64_t kStride>
void planar_edges(const ConvProblem& p, const Plane& pl, int64_t oh, const TapRows& taps,
                  int64_t lo, int64_t hi) {
  const WindowGeom& g = p.g;
  const int64_t pw = g.p[2];
  const int64_t width = g.img[2];
  float* o = pl.out + oh * pl.osh;
  // From the left edge straight to the right one: a loop that visited and
  // skipped the middle columns took about 40% of mobilenet_v2's depthwise
  // time.
  const int64_t left = lo < g.grid[2] ? lo : g.grid[2];
  const int64_t right = hi > left ? hi : left;
  for (int64_t c = 0; c < g.grid[2]; ++c) {
    if (c == left) {
      c = right;
      if (c >= g.grid[2]) break;
    }
    float acc = pl.bias;
    for (int64_t kh = 0; kh < 3; ++kh) {
      if (!taps.valid[kh]) continue;
      for (int64_t kw = 0; kw < 3; ++kw) {
        const int64_t iw = c * kStride - pw + kw;
        if (iw < 0 || iw >= width) continue;
        acc += pl.w[kh * 3 + kw] * taps.row[kh][iw];
      }
    }
    o[c] = acc;
  }
}

// Planar row with unit column strides, stride 1 or 2: the columns whose
// taps are all inside the image go 4 at a time; the edges take a scalar
// loop over the same rows. Stride 2 reads 8 neighbours per tap row and
// takes the even lanes (taps 0 and 2) and odd lanes (tap 1). Taps in
// (kh, kw) order, as row_scalar, so all paths agree bit for bit.
template <int64_t kStride>
void row_planar(const ConvProblem& p, const Plane& pl, int64_t oh, const TapRows& taps) {
  const WindowGeom& g = p.g;
  const int64_t pw = g.p[2];
  const int64_t width = g.img[2];
  // First ow whose leftmost tap is inside: ow * s - pw >= 0.
  const int64_t lo = (pw + kStride - 1) / kStride;
  // Columns [ow, ow + 4) are in range when the last value the block loads
  // is: stride 1 reads up to ow - pw + 5, stride 2 up to 2 ow - pw + 9.
  const int64_t last_read = kStride == 1 ? 5 : 9;
  float* o = pl.out + oh * pl.osh;
  const float* const* rows = taps.row;
  const bool* valid = taps.valid;
  int64_t ow = lo;
  for (; ow + 3 < g.grid[2] && ow * kStride - pw + last_read < width; ow += 4) {
    F4 acc = f4_splat(pl.bias);
    for (int64_t kh = 0; kh < 3; ++kh) {
      if (!valid[kh]) continue;
      const float* src = rows[kh] + (ow * kStride - pw);
      if constexpr (kStride == 1) {
        for (int64_t kw = 0; kw < 3; ++kw) {
          acc = f4_madd(acc, f4_splat(pl.w[kh * 3 + kw]), f4_load(src + kw));
        }
      } else {
        const F4 x0 = f4_load(src), x1 = f4_load(src + 4);
        const F4 x2 = f4_load(src + 2), x3 = f4_load(src + 6);
        acc = f4_madd(acc, f4_splat(pl.w[kh * 3 + 0]), f4_even(x0, x1));
        acc = f4_madd(acc, f4_splat(pl.w[kh * 3 + 1]), f4_odd(x0, x1));
        acc = f4_madd(acc, f4_splat(pl.w[kh * 3 + 2]), f4_even(x2, x3));
      }
    }
    f4_store(o + ow, acc);
  }
  planar_edges<kStride>(p, pl, oh, taps, lo, ow);
}

// acc + w0 x[0..4) + w1 x[1..5) + w2 x[2..6), in that order. Inlined: the
// loads of a row both output rows read are the same loads.
__attribute__((always_inline)) inline F4 three_taps(F4 acc, F4 w0, F4 w1, F4 w2,
                                                    const float* x) {
  acc = f4_madd(acc, w0, f4_load(x));
  acc = f4_madd(acc, w1, f4_load(x + 1));
  return f4_madd(acc, w2, f4_load(x + 2));
}

// Two output rows (oh, oh + 1) of a stride-1 plane: they share two of their
// four input rows, so a block of 4 columns reads 12 vectors for 8 outputs
// where two single rows read 18 (clang merges three_taps' repeated loads),
// and each weight splat serves twice. Each row's sum still takes its taps
// in (kh, kw) order: the same bits.
// rows/valid: input rows oh - 1 .. oh + 2.
void rows2_planar_s1(const ConvProblem& p, const Plane& pl, int64_t oh, const TapRows& top,
                     const TapRows& bottom) {
  const WindowGeom& g = p.g;
  const int64_t pw = g.p[2];
  const int64_t width = g.img[2];
  const float* const r0 = top.row[0];
  const float* const r1 = top.row[1];
  const float* const r2 = top.row[2];
  const float* const r3 = bottom.row[2];
  const bool v0 = top.valid[0], v1 = top.valid[1], v2 = top.valid[2], v3 = bottom.valid[2];
  float* o0 = pl.out + oh * pl.osh;
  float* o1 = o0 + pl.osh;
  const F4 w0 = f4_splat(pl.w[0]), w1 = f4_splat(pl.w[1]), w2 = f4_splat(pl.w[2]);
  const F4 w3 = f4_splat(pl.w[3]), w4 = f4_splat(pl.w[4]), w5 = f4_splat(pl.w[5]);
  const F4 w6 = f4_splat(pl.w[6]), w7 = f4_splat(pl.w[7]), w8 = f4_splat(pl.w[8]);
  const int64_t lo = pw;
  int64_t ow = lo;
  for (; ow + 3 < g.grid[2] && ow - pw + 5 < width; ow += 4) {
    const int64_t at = ow - pw;
    F4 a0 = f4_splat(pl.bias);
    F4 a1 = a0;
    // Input row r is tap row r of the top output row, r - 1 of the bottom.
    if (v0) a0 = three_taps(a0, w0, w1, w2, r0 + at);
    if (v1) {
      a0 = three_taps(a0, w3, w4, w5, r1 + at);
      a1 = three_taps(a1, w0, w1, w2, r1 + at);
    }
    if (v2) {
      a0 = three_taps(a0, w6, w7, w8, r2 + at);
      a1 = three_taps(a1, w3, w4, w5, r2 + at);
    }
    if (v3) a1 = three_taps(a1, w6, w7, w8, r3 + at);
    f4_store(o0 + ow, a0);
    f4_store(o1 + ow, a1);
  }
  planar_edges<1>(p, pl, oh, top, lo, ow);
  planar_edges<1>(p, pl, oh + 1, bottom, lo, ow);
}

// Channels-last output row (n, oh): lanes are channels; wt is [9][C], bias [C].
void row_channels_last(const ConvProblem& p, const float* in, float* out, int64_t oh,
                       const float* wt, const float* bias) {
  const WindowGeom& g = p.g;
  const int64_t ch = p.in_ch;
  const int64_t ish = p.in_st[3], isw = p.in_st[4], osw = p.out_st[4];
  float* o = out + oh * p.out_st[3];
  for (int64_t ow = 0; ow < g.grid[2]; ++ow) {
    float* dst = o + ow * osw;
    int64_t c = 0;
    for (; c + 4 <= ch; c += 4) {
      F4 acc = f4_load(bias + c);
      for (int64_t kh = 0; kh < 3; ++kh) {
        const int64_t ih = oh * g.s[1] - g.p[1] + kh;
        if (ih < 0 || ih >= g.img[1]) continue;
        for (int64_t kw = 0; kw < 3; ++kw) {
          const int64_t iw = ow * g.s[2] - g.p[2] + kw;
          if (iw < 0 || iw >= g.img[2]) continue;
          acc = f4_madd(acc, f4_load(wt + (kh * 3 + kw) * ch + c), f4_load(in + ih * ish + iw * isw + c));
        }
      }
      f4_store(dst + c, acc);
    }
    for (; c < ch; ++c) {
      float acc = bias[c];
      for (int64_t kh = 0; kh < 3; ++kh) {
        const int64_t ih = oh * g.s[1] - g.p[1] + kh;
        if (ih < 0 || ih >= g.img[1]) continue;
        for (int64_t kw = 0; kw < 3; ++kw) {
          const int64_t iw = ow * g.s[2] - g.p[2] + kw;
          if (iw < 0 || iw >= g.img[2]) continue;
          acc += wt[(kh * 3 + kw) * ch + c] * in[ih * ish + iw * isw + c];
        }
      }
      dst[c] = acc;
    }
  }
}

// The fused tail over output row oh of a plane, while the row is in cache.
void finish_plane_row(const ConvProblem& p, const Plane& pl, int64_t oh) {
  float* o = pl.out + oh * pl.osh;
  const size_t width = static_cast<size_t>(p.g.grid[2]);
  if (pl.osw == 1) {
    affine_clamp_run(p.affine, pl.c, o, width);
    return;
  }
  for (size_t ow = 0; ow < width; ++ow) affine_clamp_run(p.affine, pl.c, o + ow * pl.osw, 1);
}

}  // namespace

bool depthwise3x3_applies(const ConvProblem& p) {
  const WindowGeom& g = p.g;
  return !p.transposed && p.input->scalar_type() == ScalarType::Float && p.groups == p.in_ch &&
         p.out_ch == p.in_ch && g.k[0] == 1 && g.img[0] == 1 && g.k[1] == 3 && g.k[2] == 3 &&
         g.d[1] == 1 && g.d[2] == 1;
}

void depthwise3x3(KernelContext& ctx, const ConvProblem& p, bool vector) {
  const WindowGeom& g = p.g;
  const float* in = static_cast<const float*>(p.input->mutable_data());
  float* out = static_cast<float*>(p.out->mutable_data());
  const float* w = static_cast<const float*>(p.weight->mutable_data());
  const float* b = p.bias != nullptr ? static_cast<const float*>(p.bias->mutable_data()) : nullptr;
  const int64_t bst = p.bias != nullptr ? p.bias->strides()[0] : 0;
  const int64_t ch = p.in_ch;
  if (vector && !p.out_over_input && p.in_st[1] == 1 && p.out_st[1] == 1 && ch >= 4 &&
      ctx.temp != nullptr) {
    float* wt = ctx.temp->allocate_array<float>(static_cast<size_t>(10 * ch));
    if (wt != nullptr) {
      float* bias = wt + 9 * ch;
      for (int64_t c = 0; c < ch; ++c) {
        for (int64_t t = 0; t < 9; ++t) {
          wt[t * ch + c] = w[c * p.w_st[0] + (t / 3) * p.w_st[3] + (t % 3) * p.w_st[4]];
        }
        bias[c] = b != nullptr ? b[c * bst] : 0.0f;
      }
      const size_t rows = static_cast<size_t>(p.batch * g.grid[1]);
      const size_t min_rows = static_cast<size_t>(2048 / (ch * g.grid[2] + 1) + 1);
      parallel_for(rows, min_rows, [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
          const int64_t n = static_cast<int64_t>(r) / g.grid[1];
          const int64_t oh = static_cast<int64_t>(r) % g.grid[1];
          float* o = out + n * p.out_st[0];
          row_channels_last(p, in + n * p.in_st[0], o, oh, wt, bias);
          if (!p.affine.active()) continue;
          for (int64_t ow = 0; ow < g.grid[2]; ++ow) {
            affine_clamp_pixel(p.affine, o + oh * p.out_st[3] + ow * p.out_st[4],
                               static_cast<size_t>(ch));
          }
        }
      });
      return;
    }
  }
  const bool planar = vector && p.in_st[4] == 1 && p.out_st[4] == 1 && g.s[1] == g.s[2] &&
                      (g.s[2] == 1 || g.s[2] == 2);
  const bool in_place = p.out_over_input;
  const size_t planes = static_cast<size_t>(p.batch * ch);
  const size_t min_planes = static_cast<size_t>(2048 / (g.grid_size() + 1) + 1);
  parallel_for(planes, min_planes, [&](size_t begin, size_t end) {
    // In place, output row oh overwrites input row oh, which row oh + 1
    // still reads: each input row is saved (in a ring of 3, for the two-row
    // steps) before its output is written, and read from there.
    float saved[3][kInPlaceMaxWidth];
    for (size_t plane = begin; plane < end; ++plane) {
      const int64_t n = static_cast<int64_t>(plane) / ch;
      const int64_t c = static_cast<int64_t>(plane) % ch;
      Plane pl;
      pl.in = in + n * p.in_st[0] + c * p.in_st[1];
      pl.out = out + n * p.out_st[0] + c * p.out_st[1];
      pl.c = static_cast<size_t>(c);
      pl.ish = p.in_st[3];
      pl.isw = p.in_st[4];
      pl.osh = p.out_st[3];
      pl.osw = p.out_st[4];
      for (int64_t t = 0; t < 9; ++t) {
        pl.w[t] = w[c * p.w_st[0] + (t / 3) * p.w_st[3] + (t % 3) * p.w_st[4]];
      }
      pl.bias = b != nullptr ? b[c * bst] : 0.0f;
      // In place: the saved copy of input row ih (its own row is being
      // overwritten), saved first if `save`.
      auto saved_row = [&](int64_t ih, bool save) {
        float* keep = saved[ih % 3];
        if (save) {
          const float* src = pl.in + ih * pl.ish;
          for (int64_t iw = 0; iw < g.img[2]; ++iw) keep[iw] = src[iw];
        }
        return keep;
      };
      int64_t oh = 0;
      while (oh < g.grid[1]) {
        TapRows rows = tap_rows(p, pl, oh);
        if (planar && g.s[2] == 1 && oh + 1 < g.grid[1]) {
          TapRows next = tap_rows(p, pl, oh + 1);
          if (in_place) {
            // Rows oh and oh + 1 are overwritten in this step; oh - 1 was.
            float* row_oh = saved_row(oh, true);
            float* row_next = saved_row(oh + 1, true);
            rows.row[0] = saved_row(oh + 2, false);  // (oh - 1) % 3
            rows.row[1] = next.row[0] = row_oh;
            rows.row[2] = next.row[1] = row_next;
          }
          rows2_planar_s1(p, pl, oh, rows, next);
          if (p.affine.active()) {
            finish_plane_row(p, pl, oh);
            finish_plane_row(p, pl, oh + 1);
          }
          oh += 2;
          continue;
        }
        if (in_place) {
          rows.row[1] = saved_row(oh, true);
          rows.row[0] = saved_row(oh + 2, false);  // (oh - 1) % 3
        }
        if (planar && g.s[2] == 1) {
          row_planar<1>(p, pl, oh, rows);
        } else if (planar) {
          row_planar<2>(p, pl, oh, rows);
        } else {
          row_scalar(p, pl, oh, rows);
        }
        if (p.affine.active()) finish_plane_row(p, pl, oh);
        ++oh;
      }
    }
  });
}

bool depthwise3x3_in_place_applies(const ConvProblem& p) {
  // The same tensor in and out: stride 1 with padding 1 keeps the size, and
  // a plane's rows are written in the order they are read.
  const WindowGeom& g = p.g;
  if (!depthwise3x3_applies(p) || p.input->mutable_data() != p.out->mutable_data()) return false;
  if (g.s[1] != 1 || g.s[2] != 1 || g.p[1] != 1 || g.p[2] != 1 || g.img[2] > kInPlaceMaxWidth) {
    return false;
  }
  for (int i = 0; i < 5; ++i) {
    if (p.in_st[i] != p.out_st[i]) return false;
  }
  // Planes must not share rows (channels-last tensors interleave them).
  return p.in_st[4] == 1 && p.in_st[3] >= g.img[2] && p.in_st[1] >= g.img[1] * p.in_st[3] &&
         (p.batch == 1 || p.in_st[0] >= p.in_ch * p.in_st[1]);
}

}  // namespace tri
