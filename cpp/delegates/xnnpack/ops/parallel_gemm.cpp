#include "cpp/delegates/xnnpack/ops/parallel_gemm.h"

#include "cpp/kernels/simd/f32_gemm_minmax.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri::xnnpack {
namespace {

// Below this many multiply-adds the call stays on one thread.
constexpr size_t kParallelMacs = size_t{1} << 16;
constexpr size_t kPiecesPerThread = 4;
// Row blocks at least this tall when only rows split: the microkernel's
// own row block, so each task still reads a weight strip once per 64 rows.
constexpr size_t kMinRowsPerBlock = 64;

}  // namespace

void parallel_f32_gemm_minmax(size_t m, size_t nc, size_t k, const float* a, size_t a_stride,
                              const float* packed, float* c, size_t c_stride, float min,
                              float max) {
  const size_t threads = parallel_threads();
  if (threads <= 1 || m * nc * k < kParallelMacs) {
    f32_gemm_minmax(m, nc, k, a, a_stride, packed, c, c_stride, min, max);
    return;
  }
  const size_t want = threads * kPiecesPerThread;
  // Tasks are blocks of rows by strips of columns. With rows enough, only
  // rows split: each thread then writes whole pixels (NHWC rows), the
  // pixels the next depthwise convolution's rows read on the same thread
  // (parallel_for keeps each thread on its own share of the range).
  // Column strips of one tile width start on a packed block boundary.
  size_t strip = kF32GemmNr;
  size_t row_blocks = 0;
  if (m >= want * kMinRowsPerBlock) {
    strip = nc;
    row_blocks = want;
  } else {
    const size_t strips = (nc + kF32GemmNr - 1) / kF32GemmNr;
    row_blocks = strips >= want ? 1 : (want + strips - 1) / strips;
  }
  const size_t strips = (nc + strip - 1) / strip;
  size_t rows = (m + row_blocks - 1) / row_blocks;
  rows = (rows + kF32GemmMr - 1) / kF32GemmMr * kF32GemmMr;
  row_blocks = (m + rows - 1) / rows;
  const size_t strip_floats = f32_gemm_packed_floats(strip, k);
  parallel_for(strips * row_blocks, 1, [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const size_t j0 = (t / row_blocks) * strip;
      const size_t i0 = (t % row_blocks) * rows;
      const size_t mc = m - i0 < rows ? m - i0 : rows;
      const size_t ncs = nc - j0 < strip ? nc - j0 : strip;
      f32_gemm_minmax(mc, ncs, k, a + i0 * a_stride, a_stride,
                      packed + (j0 / strip) * strip_floats, c + i0 * c_stride + j0, c_stride,
                      min, max);
    }
  });
}

namespace {

size_t slots_for(size_t threads) {
  const size_t slots = threads * kPiecesPerThread;
  return slots > kMaxScratchSlots ? kMaxScratchSlots : slots;
}

}  // namespace

size_t parallel_scratch_slots() { return slots_for(parallel_max_threads()); }
size_t run_scratch_slots() { return slots_for(parallel_threads()); }

}  // namespace tri::xnnpack
