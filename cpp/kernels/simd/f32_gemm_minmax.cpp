#include "cpp/kernels/simd/f32_gemm_minmax.h"

#include <cmath>
#include <cstring>

#include "cpp/kernels/util/gemm_f4.h"
#include "cpp/kernels/util/simd.h"

namespace tri {
namespace {

constexpr size_t kMr = kF32GemmMr;
constexpr size_t kNr = kF32GemmNr;
constexpr size_t kPackNr = kF32GemmPackNr;
// Rows of c one pass over a 16-column weight strip covers before moving to
// the next strip: the strip's weights stay in cache across the row pairs.
constexpr size_t kRowBlock = 64;

float clamp_scalar(float v, float lo, float hi) { return f4_lane_min(f4_lane_max(v, lo), hi); }

// What a tile needs only after its k loop, passed by pointer so that the
// loop keeps its integer registers (V8 spills otherwise).
struct TileOut {
  float* c;
  size_t c_stride;
  size_t mr;  // 1 or 2 rows stored
  size_t nc;  // 1..16 columns stored
  bool accumulate;  // c += result (later K blocks of the panel path)
  float lo, hi;
  // The panel path's epilogue, at the tile's first row (all null without):
  // c + bias, then shift + c * scale, before the clamp.
  const float* bias;
  const float* scale;
  const float* shift;
};

inline F4 load_columns(const float* row, size_t nc, size_t j) {
  if (j + 4 <= nc) return f4_load(row + j);
  return f4_load_partial(row + j, j < nc ? nc - j : 0);
}

inline void store_columns(float* row, size_t nc, size_t j, F4 v) {
  if (j + 4 <= nc) {
    f4_store(row + j, v);
  } else if (j < nc) {
    f4_store_partial(row + j, nc - j, v);
  }
}

// Adds c when accumulating, applies the epilogue, clamps and stores the rows
// and columns in range. Out of line, the accumulators handed over in memory
// (8 stores and 8 loads per tile of k steps): inlined into the tiles, its
// branches and values made V8 keep the k loop's registers worse, and the
// panel tile ran at 37.6 GFLOP/s over L1 data where it now runs at 42.6
// (with the loop below; 40.5 from this alone).
__attribute__((noinline)) void finish_tile(const TileOut* out, const F4* acc) {
  F4 c00 = acc[0], c01 = acc[1], c02 = acc[2], c03 = acc[3];
  F4 c10 = acc[4], c11 = acc[5], c12 = acc[6], c13 = acc[7];
  float* c0 = out->c;
  // One row: the second row's sums are of a repeated row, never stored.
  float* c1 = out->mr > 1 ? c0 + out->c_stride : c0;
  const size_t nc = out->nc;
  if (out->accumulate) {
    c00 = f4_add(c00, load_columns(c0, nc, 0));
    c01 = f4_add(c01, load_columns(c0, nc, 4));
    c02 = f4_add(c02, load_columns(c0, nc, 8));
    c03 = f4_add(c03, load_columns(c0, nc, 12));
    c10 = f4_add(c10, load_columns(c1, nc, 0));
    c11 = f4_add(c11, load_columns(c1, nc, 4));
    c12 = f4_add(c12, load_columns(c1, nc, 8));
    c13 = f4_add(c13, load_columns(c1, nc, 12));
  }
  // A lone row's second accumulators are its own copy: use its values.
  const size_t r1 = out->mr > 1 ? 1 : 0;
  if (out->bias != nullptr) {
    const F4 b0 = f4_load_splat(out->bias), b1 = f4_load_splat(out->bias + r1);
    c00 = f4_add(c00, b0);
    c01 = f4_add(c01, b0);
    c02 = f4_add(c02, b0);
    c03 = f4_add(c03, b0);
    c10 = f4_add(c10, b1);
    c11 = f4_add(c11, b1);
    c12 = f4_add(c12, b1);
    c13 = f4_add(c13, b1);
  }
  if (out->scale != nullptr) {
    const F4 s0 = f4_load_splat(out->scale), t0 = f4_load_splat(out->shift);
    const F4 s1 = f4_load_splat(out->scale + r1), t1 = f4_load_splat(out->shift + r1);
    c00 = f4_madd(t0, c00, s0);
    c01 = f4_madd(t0, c01, s0);
    c02 = f4_madd(t0, c02, s0);
    c03 = f4_madd(t0, c03, s0);
    c10 = f4_madd(t1, c10, s1);
    c11 = f4_madd(t1, c11, s1);
    c12 = f4_madd(t1, c12, s1);
    c13 = f4_madd(t1, c13, s1);
  }
  const F4 lo = f4_splat(out->lo);
  const F4 hi = f4_splat(out->hi);
  if (out->mr > 1) {
    store_columns(c1, nc, 0, f4_clamp(c10, lo, hi));
    store_columns(c1, nc, 4, f4_clamp(c11, lo, hi));
    store_columns(c1, nc, 8, f4_clamp(c12, lo, hi));
    store_columns(c1, nc, 12, f4_clamp(c13, lo, hi));
  }
  store_columns(c0, nc, 0, f4_clamp(c00, lo, hi));
  store_columns(c0, nc, 4, f4_clamp(c01, lo, hi));
  store_columns(c0, nc, 8, f4_clamp(c02, lo, hi));
  store_columns(c0, nc, 12, f4_clamp(c03, lo, hi));
}

// The accumulators handed to finish_tile in memory.
__attribute__((always_inline)) inline void finish(const TileOut* out, F4 c00, F4 c01, F4 c02,
                                                  F4 c03, F4 c10, F4 c11, F4 c12, F4 c13) {
  alignas(16) F4 acc[8] = {c00, c01, c02, c03, c10, c11, c12, c13};
  finish_tile(out, acc);
}

// k steps of the 2x16 tile: per step both A values broadcast from memory,
// the step's 16 weights (16 floats per step, in load-time packed blocks and
// run-time panels alike), 8 mul+add. All six loads come before the
// arithmetic, the order V8 keeps and this CPU runs fastest. The loop runs on
// pointers, ended by w's last step, with no index: a[p] costs V8 an add per
// load (wasm addresses are 32-bit sums it must form). Unrolled (x2, x4) it
// ran a quarter slower (spills). The weights' offsets are constants: with
// the packed blocks 8 columns wide and the two halves at a distance known
// only at run time, the tile lost another 5%. Inlined into the tiles, so
// the accumulators never leave registers.
__attribute__((always_inline)) inline void k_steps(size_t k, const float* a0, const float* a1,
                                                   const float*& w, F4& c00, F4& c01, F4& c02,
                                                   F4& c03, F4& c10, F4& c11, F4& c12, F4& c13) {
  const float* const end = w + kNr * k;
  for (; w != end; ++a0, ++a1, w += kNr) {
    const F4 x0 = f4_load_splat(a0);
    const F4 x1 = f4_load_splat(a1);
    const F4 b0 = f4_load(w);
    const F4 b1 = f4_load(w + 4);
    const F4 b2 = f4_load(w + 8);
    const F4 b3 = f4_load(w + 12);
    c00 = f4_madd(c00, x0, b0);
    c01 = f4_madd(c01, x0, b1);
    c02 = f4_madd(c02, x0, b2);
    c03 = f4_madd(c03, x0, b3);
    c10 = f4_madd(c10, x1, b0);
    c11 = f4_madd(c11, x1, b1);
    c12 = f4_madd(c12, x1, b2);
    c13 = f4_madd(c13, x1, b3);
  }
}

// 2 rows x 16 columns: w starts at the 16 starting values (bias or zeros),
// the k steps follow.
void tile_2x16(size_t k, const float* a0, const float* a1, const float* w, const TileOut* out) {
  F4 c00 = f4_load(w), c01 = f4_load(w + 4), c02 = f4_load(w + 8), c03 = f4_load(w + 12);
  F4 c10 = c00, c11 = c01, c12 = c02, c13 = c03;
  w += kNr;
  k_steps(k, a0, a1, w, c00, c01, c02, c03, c10, c11, c12, c13);
  finish(out, c00, c01, c02, c03, c10, c11, c12, c13);
}

// The indirect form: for each of ks taps the two rows come from a[2s] and
// a[2s + 1], kc floats each; the weights run on across the taps.
void itile_2x16(size_t kc, size_t ks, const float* const* a, const float* w, const TileOut* out) {
  F4 c00 = f4_load(w), c01 = f4_load(w + 4), c02 = f4_load(w + 8), c03 = f4_load(w + 12);
  F4 c10 = c00, c11 = c01, c12 = c02, c13 = c03;
  w += kNr;
  for (size_t s = 0; s < ks; ++s) {
    k_steps(kc, a[2 * s], a[2 * s + 1], w, c00, c01, c02, c03, c10, c11, c12, c13);
  }
  finish(out, c00, c01, c02, c03, c10, c11, c12, c13);
}

// 4 k steps of the dot tile; only the first n (1..3) when not kFull.
template <bool kFull>
__attribute__((always_inline)) inline void dot_steps(const float* a0, const float* a1,
                                                     const float* b, size_t kc, size_t n, F4& s00,
                                                     F4& s01, F4& s02, F4& s03, F4& s10,
                                                     F4& s11, F4& s12, F4& s13) {
  const auto load = [n](const float* p) { return kFull ? f4_load(p) : f4_load_partial(p, n); };
  const F4 x0 = load(a0);
  const F4 x1 = load(a1);
  const F4 w0 = load(b);
  const F4 w1 = load(b + kc);
  const F4 w2 = load(b + 2 * kc);
  const F4 w3 = load(b + 3 * kc);
  s00 = f4_madd(s00, x0, w0);
  s01 = f4_madd(s01, x0, w1);
  s02 = f4_madd(s02, x0, w2);
  s03 = f4_madd(s03, x0, w3);
  s10 = f4_madd(s10, x1, w0);
  s11 = f4_madd(s11, x1, w1);
  s12 = f4_madd(s12, x1, w2);
  s13 = f4_madd(s13, x1, w3);
}

// 2 rows x 4 narrow columns as dot products along k: lane l of s_rj sums
// the products at k = l, l + 4, ..., then the four lanes are added. Per 4
// k steps: 2 row loads, 4 column loads, 8 mul+add, the 2x16 tile's ratio,
// where that tile would compute 16 columns to store at most 4 (a 7x7
// map's 49 positions leave 1 past three 16-column panels, 14x14's 196
// leave 4).
void dot_tile_2x4(size_t kc, const float* a0, const float* a1, const float* cols,
                  const TileOut* out) {
  F4 s00 = f4_zero(), s01 = f4_zero(), s02 = f4_zero(), s03 = f4_zero();
  F4 s10 = f4_zero(), s11 = f4_zero(), s12 = f4_zero(), s13 = f4_zero();
  size_t p = 0;
  for (; p + 4 <= kc; p += 4) {
    dot_steps<true>(a0 + p, a1 + p, cols + p, kc, 4, s00, s01, s02, s03, s10, s11, s12, s13);
  }
  // The lanes past the end add 0 * 0, which leaves a sum from +0 as it is.
  if (p < kc) {
    dot_steps<false>(a0 + p, a1 + p, cols + p, kc, kc - p, s00, s01, s02, s03, s10, s11, s12,
                     s13);
  }
  const F4 z = f4_zero();
  finish(out, f4_sum_lanes4(s00, s01, s02, s03), z, z, z, f4_sum_lanes4(s10, s11, s12, s13), z,
         z, z);
}

// Called through pointers the optimizer cannot see through: binaryen
// (wasm-opt, run by emcc at -O3) inlines a function with one call site
// whatever `noinline` says, and then the hot loop sits in a driver V8
// enters once per GEMM and never tiers up (ENVIRONMENT.md).
using PackedTile = void (*)(size_t, const float*, const float*, const float*, const TileOut*);
using IndirectTile = void (*)(size_t, size_t, const float* const*, const float*, const TileOut*);
PackedTile volatile g_packed_tile = &tile_2x16;
IndirectTile volatile g_indirect_tile = &itile_2x16;
using NarrowTile = void (*)(size_t, const float*, const float*, const float*, const TileOut*);
NarrowTile volatile g_narrow_tile = &dot_tile_2x4;

size_t block_floats(size_t k) { return kPackNr * (k + 1); }

}  // namespace

size_t f32_gemm_packed_floats(size_t nc, size_t k) {
  return (nc + kPackNr - 1) / kPackNr * block_floats(k);
}

void f32_gemm_pack_block(const float* b, size_t rs, size_t cs, size_t k, size_t nc,
                         const float* start, float* block) {
  for (size_t j = 0; j < kNr; j += 4) f4_store(block + j, f4_zero());
  if (start != nullptr) {
    for (size_t j = 0; j < nc; ++j) block[j] = start[j];
  }
  float* dst = block + kNr;
  if (cs != 1) {
    for (size_t j = 0; j < kNr; ++j) {
      const float* src = b + j * cs;
      if (j < nc) {
        for (size_t p = 0; p < k; ++p) dst[p * kNr + j] = src[p * rs];
      } else {
        for (size_t p = 0; p < k; ++p) dst[p * kNr + j] = 0.0f;
      }
    }
    return;
  }
  if (nc == kNr) {
    for (size_t p = 0; p < k; ++p, dst += kNr) {
      const float* src = b + p * rs;
      for (size_t j = 0; j < kNr; j += 4) f4_store(dst + j, f4_load(src + j));
    }
    return;
  }
  for (size_t p = 0; p < k; ++p, dst += kNr) {
    const float* src = b + p * rs;
    size_t j = 0;
    for (; j < nc; ++j) dst[j] = src[j];
    for (; j < kNr; ++j) dst[j] = 0.0f;
  }
}

void f32_gemm_pack(size_t nc, size_t k, const float* weights, size_t n_stride, size_t k_stride,
                   const float* bias, float* packed) {
  const size_t block = block_floats(k);
  for (size_t j0 = 0; j0 < nc; j0 += kPackNr, packed += block) {
    f32_gemm_pack_block(weights + j0 * n_stride, k_stride, n_stride, k,
                        nc - j0 < kPackNr ? nc - j0 : kPackNr,
                        bias != nullptr ? bias + j0 : nullptr, packed);
  }
}

void f32_gemm_minmax_2x16(size_t m, size_t nc, size_t k, const float* a, size_t a_stride,
                          const float* packed, float* c, size_t c_stride, float min, float max) {
  const PackedTile tile = g_packed_tile;
  const size_t block = block_floats(k);
  for (size_t i0 = 0; i0 < m; i0 += kRowBlock) {
    const size_t i1 = m - i0 < kRowBlock ? m : i0 + kRowBlock;
    for (size_t j = 0; j < nc; j += kNr) {
      const size_t n = nc - j < kNr ? nc - j : kNr;
      const float* w = packed + (j / kPackNr) * block;
      for (size_t i = i0; i < i1; i += kMr) {
        const size_t mr = i1 - i < kMr ? i1 - i : kMr;
        const float* a0 = a + i * a_stride;
        const TileOut out = {c + i * c_stride + j, c_stride, mr, n, false, min, max,
                             nullptr, nullptr, nullptr};
        tile(k, a0, mr > 1 ? a0 + a_stride : a0, w, &out);
      }
    }
  }
}

void f32_igemm_minmax_2x16(size_t m, size_t nc, size_t kc, size_t ks, const float* const* a,
                           const float* packed, float* c, size_t c_stride, float min, float max) {
  const IndirectTile tile = g_indirect_tile;
  const size_t block = block_floats(ks * kc);
  for (size_t j = 0; j < nc; j += kNr) {
    const size_t n = nc - j < kNr ? nc - j : kNr;
    const float* w = packed + (j / kPackNr) * block;
    for (size_t i = 0; i < m; i += kMr) {
      const size_t mr = m - i < kMr ? m - i : kMr;
      const TileOut out = {c + i * c_stride + j, c_stride, mr, n, false, min, max,
                           nullptr, nullptr, nullptr};
      tile(kc, ks, a + (i / kMr) * ks * kMr, w, &out);
    }
  }
}

namespace {

// The panel paths' loop: tile(a0, a1, out) for each pair of rows, the
// epilogue's values from the pair's first row.
template <typename Tile>
void over_row_pairs(size_t m, size_t nc, const float* a, size_t a_stride, float* c,
                    size_t c_stride, bool accumulate, const RowEpilogue* epilogue,
                    const Tile& tile) {
  const RowEpilogue none;
  const RowEpilogue& e = epilogue != nullptr ? *epilogue : none;
  const bool affine = e.affine.active();
  for (size_t i = 0; i < m; i += kMr) {
    const size_t mr = m - i < kMr ? m - i : kMr;
    const float* a0 = a + i * a_stride;
    const TileOut out = {c + i * c_stride,
                         c_stride,
                         mr,
                         nc,
                         accumulate,
                         affine ? e.affine.lo : -INFINITY,
                         affine ? e.affine.hi : INFINITY,
                         e.bias != nullptr ? e.bias + i : nullptr,
                         affine ? e.affine.scale + i : nullptr,
                         affine ? e.affine.shift + i : nullptr};
    tile(a0, mr > 1 ? a0 + a_stride : a0, &out);
  }
}

}  // namespace

void f32_gemm_panel_2x16(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                         const float* panel, float* c, size_t c_stride, bool accumulate,
                         const RowEpilogue* epilogue) {
  const PackedTile tile = g_packed_tile;
  over_row_pairs(m, nc, a, a_stride, c, c_stride, accumulate, epilogue,
                 [&](const float* a0, const float* a1, const TileOut* out) {
                   tile(kc, a0, a1, panel, out);
                 });
}

void f32_gemm_narrow_2x4(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                         const float* cols, float* c, size_t c_stride, bool accumulate,
                         const RowEpilogue* epilogue) {
  const NarrowTile tile = g_narrow_tile;
  over_row_pairs(m, nc, a, a_stride, c, c_stride, accumulate, epilogue,
                 [&](const float* a0, const float* a1, const TileOut* out) {
                   tile(kc, a0, a1, cols, out);
                 });
}

void f32_gemm_narrow_reference(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                               const float* cols, float* c, size_t c_stride, bool accumulate,
                               const RowEpilogue* epilogue) {
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < nc; ++j) {
      float lane[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (size_t p = 0; p < kc; ++p) lane[p % 4] += a[i * a_stride + p] * cols[j * kc + p];
      const float acc = (lane[0] + lane[2]) + (lane[1] + lane[3]);
      c[i * c_stride + j] = accumulate ? acc + c[i * c_stride + j] : acc;
    }
    if (epilogue != nullptr) finish_row(*epilogue, i, c + i * c_stride, nc);
  }
}

void f32_igemm_minmax_reference(size_t m, size_t nc, size_t kc, size_t ks,
                                const float* const* a, const float* packed, float* c,
                                size_t c_stride, float min, float max) {
  const size_t block = block_floats(ks * kc);
  for (size_t i = 0; i < m; ++i) {
    const float* const* pair = a + (i / kMr) * ks * kMr;
    for (size_t j = 0; j < nc; ++j) {
      const float* w = packed + (j / kPackNr) * block;
      const size_t lane = j % kPackNr;
      float acc = w[lane];
      w += kPackNr;
      for (size_t s = 0; s < ks; ++s) {
        const float* row = pair[s * kMr + i % kMr];
        for (size_t p = 0; p < kc; ++p) {
          acc += row[p] * w[(s * kc + p) * kPackNr + lane];
        }
      }
      c[i * c_stride + j] = clamp_scalar(acc, min, max);
    }
  }
}

void f32_gemm_minmax_reference(size_t m, size_t nc, size_t k, const float* a, size_t a_stride,
                               const float* packed, float* c, size_t c_stride, float min,
                               float max) {
  const size_t block = block_floats(k);
  for (size_t i = 0; i < m; ++i) {
    const float* row = a + i * a_stride;
    for (size_t j = 0; j < nc; ++j) {
      const float* w = packed + (j / kPackNr) * block;
      const size_t lane = j % kPackNr;
      float acc = w[lane];
      for (size_t p = 0; p < k; ++p) acc += row[p] * w[(p + 1) * kPackNr + lane];
      c[i * c_stride + j] = clamp_scalar(acc, min, max);
    }
  }
}

void f32_gemm_panel_reference(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                              const float* panel, float* c, size_t c_stride, bool accumulate,
                              const RowEpilogue* epilogue) {
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < nc; ++j) {
      float acc = panel[j];
      for (size_t p = 0; p < kc; ++p) acc += a[i * a_stride + p] * panel[(p + 1) * kNr + j];
      c[i * c_stride + j] = accumulate ? acc + c[i * c_stride + j] : acc;
    }
    if (epilogue != nullptr) finish_row(*epilogue, i, c + i * c_stride, nc);
  }
}

void f32_gemm_minmax(size_t m, size_t nc, size_t k, const float* a, size_t a_stride,
                     const float* packed, float* c, size_t c_stride, float min, float max) {
  if (simd_enabled()) {
    f32_gemm_minmax_2x16(m, nc, k, a, a_stride, packed, c, c_stride, min, max);
  } else {
    f32_gemm_minmax_reference(m, nc, k, a, a_stride, packed, c, c_stride, min, max);
  }
}

void f32_igemm_minmax(size_t m, size_t nc, size_t kc, size_t ks, const float* const* a,
                      const float* packed, float* c, size_t c_stride, float min, float max) {
  if (simd_enabled()) {
    f32_igemm_minmax_2x16(m, nc, kc, ks, a, packed, c, c_stride, min, max);
  } else {
    f32_igemm_minmax_reference(m, nc, kc, ks, a, packed, c, c_stride, min, max);
  }
}

void f32_gemm_panel(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                    const float* panel, float* c, size_t c_stride, bool accumulate,
                    const RowEpilogue* epilogue) {
  if (simd_enabled()) {
    f32_gemm_panel_2x16(m, nc, kc, a, a_stride, panel, c, c_stride, accumulate, epilogue);
  } else {
    f32_gemm_panel_reference(m, nc, kc, a, a_stride, panel, c, c_stride, accumulate, epilogue);
  }
}

void f32_gemm_narrow(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                     const float* cols, float* c, size_t c_stride, bool accumulate,
                     const RowEpilogue* epilogue) {
  if (simd_enabled()) {
    f32_gemm_narrow_2x4(m, nc, kc, a, a_stride, cols, c, c_stride, accumulate, epilogue);
  } else {
    f32_gemm_narrow_reference(m, nc, kc, a, a_stride, cols, c, c_stride, accumulate, epilogue);
  }
}

}  // namespace tri
