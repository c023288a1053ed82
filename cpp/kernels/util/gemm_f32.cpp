#include "cpp/kernels/util/gemm_f32.h"

#include <cstddef>

#include "cpp/kernels/simd/f32_gemm_minmax.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri {
namespace {

constexpr size_t kNr = kF32GemmNr;
constexpr size_t kKc = kF32PanelKc;

// One task: columns [j0, j0 + nc) of rows [i0, i1), over all of k.
struct GemmTask {
  size_t m, n, k, ldc, b_rs, b_cs, m_blocks, rows_per_block, panels;
  // Tasks run row block by row block (each row block's panels together)
  // rather than panel by panel.
  bool rows_outer;
  MatView<float> a, b;
  float* c;
  const RowEpilogue* epilogue;
  const float* row_start;  // c's starting row (addmm's bias), or null
};


// The narrow panel of f32_gemm_narrow: column j of B's block at
// cols[j * kc], columns nc..3 zeros.
void pack_narrow(const float* b, size_t rs, size_t cs, size_t kc, size_t nc, float* cols) {
  for (size_t j = 0; j < kF32NarrowNr; ++j, cols += kc) {
    for (size_t p = 0; p < kc; ++p) cols[p] = j < nc ? b[p * rs + j * cs] : 0.0f;
  }
}

// One K block (rows p0..p0+kc of B) of one task.
void run_gemm_tile(const GemmTask& t, size_t index, size_t p0) {
  const size_t panel_index = t.rows_outer ? index % t.panels : index / t.m_blocks;
  const size_t block_index = t.rows_outer ? index / t.panels : index % t.m_blocks;
  const size_t j0 = panel_index * kNr;
  const size_t i0 = block_index * t.rows_per_block;
  const size_t i1 = t.m - i0 < t.rows_per_block ? t.m : i0 + t.rows_per_block;
  const size_t nc = t.n - j0 < kNr ? t.n - j0 : kNr;
  // Either a 16-column panel or, for the last 4 columns or fewer, the
  // narrow one (both fit kNr * (kKc + 1) floats).
  alignas(16) float panel[kNr * (kKc + 1)];
  const bool narrow = nc <= kF32NarrowNr;
  // The tile reads rows of A as contiguous runs: a strided A is copied,
  // two rows at a time, per panel.
  const bool a_rows_contiguous = t.a.cs == 1;
  alignas(16) float a_rows[kF32GemmMr * kKc];
  const size_t lda = static_cast<size_t>(t.a.rs);
  const size_t kc = t.k - p0 < kKc ? t.k - p0 : kKc;
  // The epilogue goes with the last K block, into the microkernel.
  const bool last = p0 + kc == t.k && t.epilogue != nullptr;
  // The first K block starts from the starting row, later ones from c.
  const float* start = p0 == 0 && t.row_start != nullptr ? t.row_start + j0 : nullptr;
  const float* b_block = t.b.data + p0 * t.b_rs + j0 * t.b_cs;
  if (narrow) {
    pack_narrow(b_block, t.b_rs, t.b_cs, kc, nc, panel);
  } else {
    f32_gemm_pack_block(b_block, t.b_rs, t.b_cs, kc, nc, start, panel);
  }
  auto rows_times_panel = [&](size_t rows, const float* a, size_t a_stride, size_t i) {
    const RowEpilogue e = last ? t.epilogue->from(i) : RowEpilogue();
    float* c = t.c + i * t.ldc + j0;
    if (narrow) {
      // The narrow tile has no starting row: it adds to c holding it.
      if (start != nullptr) {
        for (size_t r = 0; r < rows; ++r) {
          for (size_t j = 0; j < nc; ++j) c[r * t.ldc + j] = start[j];
        }
      }
      f32_gemm_narrow(rows, nc, kc, a, a_stride, panel, c, t.ldc, p0 > 0 || start != nullptr,
                      last ? &e : nullptr);
    } else {
      f32_gemm_panel(rows, nc, kc, a, a_stride, panel, c, t.ldc, p0 > 0, last ? &e : nullptr);
    }
  };
  if (a_rows_contiguous) {
    rows_times_panel(i1 - i0, t.a.data + i0 * lda + p0, lda, i0);
    return;
  }
  for (size_t i = i0; i < i1; i += kF32GemmMr) {
    const size_t rows = i1 - i < kF32GemmMr ? i1 - i : kF32GemmMr;
    for (size_t r = 0; r < rows; ++r) {
      for (size_t p = 0; p < kc; ++p) {
        a_rows[r * kKc + p] = t.a.data[static_cast<int64_t>(i + r) * t.a.rs +
                                       static_cast<int64_t>(p0 + p) * t.a.cs];
      }
    }
    rows_times_panel(rows, a_rows, kKc, i);
  }
}

// Below this many multiply-adds a gemm stays on one thread: waking the
// pool costs more than it saves.
constexpr size_t kParallelMacs = size_t{1} << 16;

}  // namespace

void gemm_f32_packed(int64_t m64, int64_t n64, int64_t k64, MatView<float> a, MatView<float> b,
                     float* c, int64_t ldc64, const RowEpilogue* epilogue,
                     const float* row_start) {
  // size_t indices: int64 arithmetic is slower in wasm32's loops.
  const size_t m = static_cast<size_t>(m64), n = static_cast<size_t>(n64);
  const size_t k = static_cast<size_t>(k64), ldc = static_cast<size_t>(ldc64);
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) c[i * ldc + j] = row_start != nullptr ? row_start[j] : 0.0f;
      if (epilogue != nullptr) finish_row(*epilogue, i, c + i * ldc, n);
    }
    return;
  }
  if (epilogue != nullptr && !epilogue->active()) epilogue = nullptr;
  const size_t panels = (n + kNr - 1) / kNr;
  // One column: its stride is never used.
  const size_t b_cs = n == 1 ? 1 : static_cast<size_t>(b.cs);
  GemmTask task{m, n, k, ldc, static_cast<size_t>(b.rs), b_cs, 1, m, panels, false, a, b, c,
                epilogue, row_start};
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
    // A narrow last panel costs about a quarter of a full one: panel by
    // panel, the thread owning it had half the work of the other (7x7 maps,
    // 49 = 3 x 16 + 1). Row block by row block, each thread's share holds
    // every panel, and its rows are the channels the next depthwise layer
    // reads on the same thread. mobilenet_v2 on 2 threads: 13.48 -> 13.15 ms.
    task.rows_outer = n % kNr != 0 && n % kNr <= kF32NarrowNr;
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
