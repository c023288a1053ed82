#include "cpp/kernels/util/gemm_f32.h"

#include <cstddef>

#include "cpp/kernels/simd/f32_gemm_minmax.h"
#include "cpp/kernels/util/gemm_f4.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri {
namespace {

constexpr size_t kNr = kF32GemmNr;
constexpr size_t kKc = kF32PanelKc;

// panel: a zero row (the tile's starting values), then panel[(p + 1) * 16 + j]
// = b(p, j) for j < nc, 0 beyond.
void pack_panel(const float* b, size_t ldb, size_t kc, size_t nc, float* panel) {
  for (size_t j = 0; j < kNr; j += 4) f4_store(panel + j, f4_zero());
  float* dst = panel + kNr;
  if (nc == kNr) {
    for (size_t p = 0; p < kc; ++p, dst += kNr) {
      const float* src = b + p * ldb;
      for (size_t j = 0; j < kNr; j += 4) f4_store(dst + j, f4_load(src + j));
    }
    return;
  }
  for (size_t p = 0; p < kc; ++p, dst += kNr) {
    const float* src = b + p * ldb;
    size_t j = 0;
    for (; j < nc; ++j) dst[j] = src[j];
    for (; j < kNr; ++j) dst[j] = 0.0f;
  }
}

// One task: columns [j0, j0 + nc) of rows [i0, i1), over all of k.
struct GemmTask {
  size_t m, n, k, ldc, ldb, m_blocks, rows_per_block;
  MatView<float> a, b;
  float* c;
  const RowEpilogue* epilogue;
};


// One K block (rows p0..p0+kc of B) of one task.
void run_gemm_tile(const GemmTask& t, size_t index, size_t p0) {
  const size_t j0 = (index / t.m_blocks) * kNr;
  const size_t i0 = (index % t.m_blocks) * t.rows_per_block;
  const size_t i1 = t.m - i0 < t.rows_per_block ? t.m : i0 + t.rows_per_block;
  const size_t nc = t.n - j0 < kNr ? t.n - j0 : kNr;
  alignas(16) float panel[kNr * (kKc + 1)];
  // The tile reads rows of A as contiguous runs: a strided A is copied,
  // two rows at a time, per panel.
  const bool a_rows_contiguous = t.a.cs == 1;
  alignas(16) float a_rows[kF32GemmMr * kKc];
  const size_t lda = static_cast<size_t>(t.a.rs);
  const size_t kc = t.k - p0 < kKc ? t.k - p0 : kKc;
  // The epilogue goes with the last K block, into the microkernel.
  const bool last = p0 + kc == t.k && t.epilogue != nullptr;
  pack_panel(t.b.data + p0 * t.ldb + j0, t.ldb, kc, nc, panel);
  if (a_rows_contiguous) {
    const RowEpilogue e = last ? t.epilogue->from(i0) : RowEpilogue();
    f32_gemm_panel(i1 - i0, nc, kc, t.a.data + i0 * lda + p0, lda, panel, t.c + i0 * t.ldc + j0,
                   t.ldc, p0 > 0, last ? &e : nullptr);
  } else {
    for (size_t i = i0; i < i1; i += kF32GemmMr) {
      const size_t rows = i1 - i < kF32GemmMr ? i1 - i : kF32GemmMr;
      for (size_t r = 0; r < rows; ++r) {
        for (size_t p = 0; p < kc; ++p) {
          a_rows[r * kKc + p] = t.a.data[static_cast<int64_t>(i + r) * t.a.rs +
                                         static_cast<int64_t>(p0 + p) * t.a.cs];
        }
      }
      const RowEpilogue e = last ? t.epilogue->from(i) : RowEpilogue();
      f32_gemm_panel(rows, nc, kc, a_rows, kKc, panel, t.c + i * t.ldc + j0, t.ldc, p0 > 0,
                     last ? &e : nullptr);
    }
  }
}

// Below this many multiply-adds a gemm stays on one thread: waking the
// pool costs more than it saves.
constexpr size_t kParallelMacs = size_t{1} << 16;

}  // namespace

void gemm_f32_packed(int64_t m64, int64_t n64, int64_t k64, MatView<float> a, MatView<float> b,
                     float* c, int64_t ldc64, const RowEpilogue* epilogue) {
  // size_t indices: int64 arithmetic is slower in wasm32's loops.
  const size_t m = static_cast<size_t>(m64), n = static_cast<size_t>(n64);
  const size_t k = static_cast<size_t>(k64), ldc = static_cast<size_t>(ldc64);
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) c[i * ldc + j] = 0.0f;
      if (epilogue != nullptr) finish_row(*epilogue, i, c + i * ldc, n);
    }
    return;
  }
  if (epilogue != nullptr && !epilogue->active()) epilogue = nullptr;
  GemmTask task{m, n, k, ldc, static_cast<size_t>(b.rs), 1, m, a, b, c, epilogue};
  const size_t panels = (n + kNr - 1) / kNr;
  const size_t threads = parallel_threads();
  const bool parallel = threads > 1 && m * n * k >= kParallelMacs;
  if (parallel && panels < 4 * threads) {
    // Few column panels (small images): split the rows as well, in blocks
    // of whole tiles.
    size_t blocks = (4 * threads + panels - 1) / panels;
    size_t rows = (m + blocks - 1) / blocks;
    rows = (rows + kF32GemmMr - 1) / kF32GemmMr * kF32GemmMr;
    if (rows < 8) rows = 8;
    task.rows_per_block = rows;
    task.m_blocks = (m + rows - 1) / rows;
  }
  const size_t tasks = panels * task.m_blocks;
  // K blocks outermost, as on one thread: the A slab of one block (m x 256)
  // stays in cache across every panel; re-reading all of A per panel made
  // resnet18's large-K convolutions memory bound. One barrier per K block.
  for (size_t p0 = 0; p0 < k; p0 += kKc) {
    parallel_for(tasks, parallel ? 1 : tasks, [&task, p0](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) run_gemm_tile(task, i, p0);
    });
  }
}

}  // namespace tri
