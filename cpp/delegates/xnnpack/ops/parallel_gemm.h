// The float gemm microkernel spread over the thread pool: the operator level
// (XNNPACK's split) decides the tiles, the microkernel stays serial.
#pragma once

#include <cstddef>

namespace tri::xnnpack {

// f32_gemm_minmax over blocks of rows and of 16 columns, in parallel when
// the pool has threads and the product is large enough.
void parallel_f32_gemm_minmax(size_t m, size_t nc, size_t k, const float* a, size_t a_stride,
                              const float* packed, float* c, size_t c_stride, float min,
                              float max);

// How many scratch slots an operator should plan for parallel pieces that
// each need their own scratch (window pointers): a few per thread the pool
// can run, so a descheduled thread holds back little.
size_t parallel_scratch_slots();

}  // namespace tri::xnnpack
