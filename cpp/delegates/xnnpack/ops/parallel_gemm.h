// The float gemm microkernel spread over the thread pool: the operator level
// (XNNPACK's split) decides the tiles, the microkernel stays serial.
#pragma once

#include <cstddef>

namespace tri::xnnpack {

// f32_gemm_minmax over blocks of rows (and of 16 columns when the rows are
// few), in parallel when the pool has threads and the product is large
// enough.
void parallel_f32_gemm_minmax(size_t m, size_t nc, size_t k, const float* a, size_t a_stride,
                              const float* packed, float* c, size_t c_stride, float min,
                              float max);

// Parallel pieces that each need their own scratch (window pointers) take
// one slot each: a few per thread, so a descheduled thread holds back
// little, and never more than this many.
constexpr size_t kMaxScratchSlots = 64;

// Slots to plan at load, for as many threads as the pool can ever run.
size_t parallel_scratch_slots();
// Slots a run wants, for the threads this run may use (at most the plan's).
size_t run_scratch_slots();

}  // namespace tri::xnnpack
