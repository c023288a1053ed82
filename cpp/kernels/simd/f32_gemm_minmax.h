// float32 GEMM microkernels, XNNPACK style: c = clamp(a @ w + bias, min, max)
// in register tiles of 2 rows by 16 columns (8 f32x4 accumulators), the A
// values broadcast straight from memory (v128.load32_splat), mul then add.
//
// Why 2x16 (measured in Node 20 against the 12-chain ceiling of
// bench/ceiling, about 95% of it from 256 to 1024, where a 6x8 tile reached
// 50%): V8's x64 code has 15 usable xmm registers and loads every operand of
// a loop iteration before the arithmetic. 8 accumulators + 4 weight vectors
// + 2 broadcasts + 1 product fit; 6x8's 12 + 2 + 6 + 1 spill every
// iteration.
//
// Three entry points share one tile loop:
// - gemm: rows of `a` strided in memory (fully connected layers, 1x1
//   convolutions over NHWC data), weights packed once at load;
// - igemm ("indirect"): each row of `a` is gathered from `ks` pointers of
//   `kc` floats (a convolution's window: one pointer per kernel tap, to an
//   NHWC input pixel, or to a zero row for padding);
// - panel: B packed at run time, 16 columns at a time (mm, addmm, bmm,
//   linear and im2col convolution in the portable kernels).
// A fourth, narrow, has its own 2x4 tile of dot products along k: a
// panel's last 1-4 columns, which the 2x16 tile would compute 16 wide (a
// 7x7 map's gemm spent 4 panels' time on 3 and 1/16; narrow, 3 and 1/4).
// The load-time packed layout, per block of 16 output channels (zero-padded):
// 16 bias values, then for each of the ks*kc reduction steps the 16 weights,
// the run-time panel's layout. A tile reads one block; its two 8-column
// halves sit at a constant distance, which V8's code needs (8-column blocks,
// read in pairs, ran 5% slower). A last block of 8 columns or fewer costs
// the same time as before (the tile computed 16 then too) and twice its
// bytes. Natively the f32x4 type is
// emulated, so the tests run the same tile logic against the references.
#pragma once

#include <cstddef>

#include "cpp/kernels/util/channel_affine.h"

namespace tri {

constexpr size_t kF32GemmMr = 2;    // rows per tile
constexpr size_t kF32GemmNr = 16;   // columns per tile
// Columns per packed weight block: one tile's width.
constexpr size_t kF32GemmPackNr = kF32GemmNr;

// Floats of packed weights for `nc` output channels and `k` reduction steps.
size_t f32_gemm_packed_floats(size_t nc, size_t k);

// One block of the layout above (and a run-time panel, kc steps of it):
// the starting values start[j] for j < nc (zeros without start), then
// block[(p + 1) * 16 + j] = b[p * rs + j * cs] for j < nc, zeros for
// columns nc..15. B is read row-major (cs == 1, vector copies) or in any
// other order (a linear layer's [n, k] weight: rs == 1).
void f32_gemm_pack_block(const float* b, size_t rs, size_t cs, size_t k, size_t nc,
                         const float* start, float* block);

// Packs weights where element (output channel j, reduction step p) is
// weights[j * n_stride + p * k_stride]: [nc][k] row-major (PyTorch linear
// and OHWI convolution filters) is (k, 1); [k][nc] (XNNPACK's transposed
// fully connected filter, one group of a depthwise filter) is (1, row
// length). `bias` may be nullptr (zeros).
void f32_gemm_pack(size_t nc, size_t k, const float* weights, size_t n_stride, size_t k_stride,
                   const float* bias, float* packed);

// All m rows of c (nc columns), row i of a at a + i * a_stride, k long.
// What kernels call: the 2x16 tiles when SIMD is on (simd_enabled()), the
// reference otherwise.
void f32_gemm_minmax(size_t m, size_t nc, size_t k, const float* a, size_t a_stride,
                     const float* packed, float* c, size_t c_stride, float min, float max);

// Indirect rows: m rows in pairs. For pair q (rows 2q, 2q + 1) and tap s,
// the two rows' kc floats start at a[(q * ks + s) * 2 + r]. When m is odd the
// last pair's second pointers must still be readable (e.g. repeat the first
// row's): they are computed, never stored.
void f32_igemm_minmax(size_t m, size_t nc, size_t kc, size_t ks, const float* const* a,
                      const float* packed, float* c, size_t c_stride, float min, float max);

// The B panel of the portable gemm: panel[0, 16) the starting row (zeros),
// then kc rows of 16 columns (columns past nc zero). c = a @ panel for all m
// rows when !accumulate, c += a @ panel otherwise (the later K blocks). With
// an epilogue (the last K block), row i is then finished by its row i, on
// the accumulators before they are stored.
constexpr size_t kF32PanelKc = 256;
inline size_t f32_gemm_panel_floats(size_t kc) { return kF32GemmNr * (kc + 1); }
void f32_gemm_panel(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                    const float* panel, float* c, size_t c_stride, bool accumulate,
                    const RowEpilogue* epilogue = nullptr);

// The narrow panel, for a gemm's last nc <= 4 columns: column j of B is
// cols[j * kc, (j + 1) * kc), columns nc..3 zeros (the tile computes 4).
// Otherwise as f32_gemm_panel, but each sum runs in 4 lanes over k (lane l
// takes k = l, l + 4, ...), added as (l0 + l2) + (l1 + l3).
constexpr size_t kF32NarrowNr = 4;
void f32_gemm_narrow(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                     const float* cols, float* c, size_t c_stride, bool accumulate,
                     const RowEpilogue* epilogue = nullptr);

// The tile paths, whatever simd_enabled() says (for tests).
void f32_gemm_minmax_2x16(size_t m, size_t nc, size_t k, const float* a, size_t a_stride,
                          const float* packed, float* c, size_t c_stride, float min, float max);
void f32_igemm_minmax_2x16(size_t m, size_t nc, size_t kc, size_t ks, const float* const* a,
                           const float* packed, float* c, size_t c_stride, float min, float max);
void f32_gemm_panel_2x16(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                         const float* panel, float* c, size_t c_stride, bool accumulate,
                         const RowEpilogue* epilogue = nullptr);

void f32_gemm_narrow_2x4(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                         const float* cols, float* c, size_t c_stride, bool accumulate,
                         const RowEpilogue* epilogue = nullptr);

// The scalar references the tiles are tested against (same packed weights).
void f32_gemm_minmax_reference(size_t m, size_t nc, size_t k, const float* a, size_t a_stride,
                               const float* packed, float* c, size_t c_stride, float min,
                               float max);
void f32_igemm_minmax_reference(size_t m, size_t nc, size_t kc, size_t ks,
                                const float* const* a, const float* packed, float* c,
                                size_t c_stride, float min, float max);
void f32_gemm_panel_reference(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                              const float* panel, float* c, size_t c_stride, bool accumulate,
                              const RowEpilogue* epilogue = nullptr);
void f32_gemm_narrow_reference(size_t m, size_t nc, size_t kc, const float* a, size_t a_stride,
                               const float* cols, float* c, size_t c_stride, bool accumulate,
                               const RowEpilogue* epilogue = nullptr);

}  // namespace tri
