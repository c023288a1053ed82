// Stable sorting of one row of (value, index) pairs, behind sort and topk.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

// Sorts values[0..n) with their indices: ascending with NaN last, or
// descending with NaN first (ATen's order); equal values keep their order.
// tmp_* hold n items each. C: int64_t, float, double.
template <typename C>
void sort_pairs(C* values, int64_t* indices, int64_t n, bool descending, C* tmp_values,
                int64_t* tmp_indices);

// Scratch for sorting rows of n elements in compute type C: from `temp`, or
// from the small built-in buffer when rows are short. Fails with
// MemoryAllocationFailed naming `op` when neither fits.
template <typename C>
struct SortScratch {
  static constexpr int64_t kInline = 256;
  C inline_values[2 * kInline];
  int64_t inline_indices[2 * kInline];
  C* values = nullptr;  // 2n: the row, then the merge buffer
  int64_t* indices = nullptr;

  Error init(MemoryAllocator* temp, int64_t n, const char* op);
};

// Sorts each row of self along dim d (checked) and writes its first k
// elements and their indices into values and indices (already resized).
// The row is sorted in self's compute type; temp as for SortScratch.
Error sort_rows_into(MemoryAllocator* temp, const Tensor& self, int32_t d, int64_t k,
                     bool descending, Tensor& values, Tensor& indices, const char* op);

// The temp sort_rows_into takes to sort self's rows along `dim` (not yet
// normalized; a bad dim takes nothing, and the kernel reports it).
size_t sort_rows_scratch(const Tensor& self, int64_t dim);

extern template void sort_pairs<int64_t>(int64_t*, int64_t*, int64_t, bool, int64_t*, int64_t*);
extern template void sort_pairs<float>(float*, int64_t*, int64_t, bool, float*, int64_t*);
extern template void sort_pairs<double>(double*, int64_t*, int64_t, bool, double*, int64_t*);
extern template struct SortScratch<int64_t>;
extern template struct SortScratch<float>;
extern template struct SortScratch<double>;

}  // namespace tri
