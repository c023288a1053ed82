#include "cpp/kernels/util/sort_row.h"

#include <cinttypes>
#include <cstddef>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/reduce.h"
#include "cpp/kernels/util/scratch_size.h"

namespace tri {
namespace {

// Does a go strictly before b?
template <typename C>
inline bool before(C a, C b, bool descending) {
  const bool a_nan = a != a;
  const bool b_nan = b != b;
  if (a_nan || b_nan) return descending ? (a_nan && !b_nan) : (b_nan && !a_nan);
  return descending ? a > b : a < b;
}

}  // namespace

template <typename C>
void sort_pairs(C* values, int64_t* indices, int64_t n, bool descending, C* tmp_values,
                int64_t* tmp_indices) {
  // Insertion sort on runs of 16, then bottom-up merges between the two
  // buffers (stable throughout).
  constexpr int64_t kRun = 16;
  for (int64_t lo = 0; lo < n; lo += kRun) {
    const int64_t hi = lo + kRun < n ? lo + kRun : n;
    for (int64_t i = lo + 1; i < hi; ++i) {
      const C v = values[i];
      const int64_t x = indices[i];
      int64_t j = i;
      for (; j > lo && before(v, values[j - 1], descending); --j) {
        values[j] = values[j - 1];
        indices[j] = indices[j - 1];
      }
      values[j] = v;
      indices[j] = x;
    }
  }
  C* src_v = values;
  int64_t* src_i = indices;
  C* dst_v = tmp_values;
  int64_t* dst_i = tmp_indices;
  for (int64_t width = kRun; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      const int64_t mid = lo + width < n ? lo + width : n;
      const int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi) {
        const bool take_b = before(src_v[b], src_v[a], descending);
        const int64_t s = take_b ? b++ : a++;
        dst_v[k] = src_v[s];
        dst_i[k++] = src_i[s];
      }
      for (; a < mid; ++a, ++k) {
        dst_v[k] = src_v[a];
        dst_i[k] = src_i[a];
      }
      for (; b < hi; ++b, ++k) {
        dst_v[k] = src_v[b];
        dst_i[k] = src_i[b];
      }
    }
    C* tv = src_v; src_v = dst_v; dst_v = tv;
    int64_t* ti = src_i; src_i = dst_i; dst_i = ti;
  }
  if (src_v != values) {
    for (int64_t i = 0; i < n; ++i) {
      values[i] = src_v[i];
      indices[i] = src_i[i];
    }
  }
}

template <typename C>
Error SortScratch<C>::init(MemoryAllocator* temp, int64_t n, const char* op) {
  if (n <= kInline) {
    values = inline_values;
    indices = inline_indices;
    return Error::Ok;
  }
  if (temp != nullptr && static_cast<uint64_t>(n) < SIZE_MAX / 64) {
    values = temp->allocate_array<C>(static_cast<size_t>(2 * n));
    indices = temp->allocate_array<int64_t>(static_cast<size_t>(2 * n));
  }
  TRI_CHECK(values != nullptr && indices != nullptr, Error::MemoryAllocationFailed,
            "%s: rows of %" PRId64 " elements need %" PRId64 " bytes of temp memory", op, n,
            static_cast<int64_t>(2 * n * (sizeof(C) + sizeof(int64_t))));
  return Error::Ok;
}

namespace {

template <typename C>
Error sort_rows_in(MemoryAllocator* temp, const Tensor& self, int32_t d, int64_t k,
                   bool descending, Tensor& values, Tensor& indices, const char* op) {
  const bool scalar = self.dim() == 0;
  const int64_t n = scalar ? 1 : self.size(d);
  SortScratch<C> scratch;
  TRI_TRY(scratch.init(temp, n, op));
  bool mask[kTensorDimLimit] = {};
  mask[d] = true;
  ReducePlan plan;
  make_reduce_plan(self, mask, /*keepdim=*/true, &plan);
  const int64_t in_stride = scalar ? 0 : self.strides()[d] * int64_t(self.element_size());
  const int64_t v_stride = scalar ? 0 : values.strides()[d] * int64_t(values.element_size());
  const int64_t i_stride = scalar ? 0 : indices.strides()[d] * int64_t(sizeof(int64_t));
  const ScalarType type = self.scalar_type();
  C* row = scratch.values;
  int64_t* idx = scratch.indices;
  for_each_reduction2(plan, TensorView::of(values), TensorView::of(indices),
                      [&](char* vo, char* io, const char* in) {
    load_row<C>(type, in, in_stride, n, row);
    for (int64_t i = 0; i < n; ++i) idx[i] = i;
    sort_pairs<C>(row, idx, n, descending, row + n, idx + n);
    store_row<C>(type, row, vo, v_stride, k);
    store_row<int64_t>(ScalarType::Long, idx, io, i_stride, k);
  });
  return Error::Ok;
}

}  // namespace

namespace {

template <typename C>
size_t sort_scratch_in(int64_t n) {
  if (n <= SortScratch<C>::kInline) return 0;
  ScratchSize size;
  size.add<C>(2 * n);
  size.add<int64_t>(2 * n);
  return size.bytes();
}

}  // namespace

size_t sort_rows_scratch(const Tensor& self, int64_t dim) {
  const int64_t rank = self.dim();
  const int64_t d = dim < 0 ? dim + rank : dim;
  if (rank > 0 && (d < 0 || d >= rank)) return 0;
  const int64_t n = rank == 0 ? 1 : self.size(static_cast<int32_t>(d));
  switch (compute_kind(self.scalar_type())) {
    case ComputeKind::Int: return sort_scratch_in<int64_t>(n);
    case ComputeKind::Float: return sort_scratch_in<float>(n);
    default: return sort_scratch_in<double>(n);
  }
}

Error sort_rows_into(MemoryAllocator* temp, const Tensor& self, int32_t d, int64_t k,
                     bool descending, Tensor& values, Tensor& indices, const char* op) {
  if (self.numel() == 0 || k == 0) {
    return Error::Ok;
  }
  switch (compute_kind(self.scalar_type())) {
    case ComputeKind::Int:
      return sort_rows_in<int64_t>(temp, self, d, k, descending, values, indices, op);
    case ComputeKind::Float:
      return sort_rows_in<float>(temp, self, d, k, descending, values, indices, op);
    default:
      return sort_rows_in<double>(temp, self, d, k, descending, values, indices, op);
  }
}

template void sort_pairs<int64_t>(int64_t*, int64_t*, int64_t, bool, int64_t*, int64_t*);
template void sort_pairs<float>(float*, int64_t*, int64_t, bool, float*, int64_t*);
template void sort_pairs<double>(double*, int64_t*, int64_t, bool, double*, int64_t*);
template struct SortScratch<int64_t>;
template struct SortScratch<float>;
template struct SortScratch<double>;

}  // namespace tri
