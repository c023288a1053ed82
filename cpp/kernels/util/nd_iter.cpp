#include "cpp/kernels/util/nd_iter.h"

#include "cpp/runtime/platform/parallel.h"

namespace tri {
namespace {

int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

}  // namespace

NdIter::NdIter(const int64_t* shape, int32_t dim, const TensorView* const* ops,
               int nops)
    : nops_(nops) {
  numel_ = 1;
  for (int32_t d = 0; d < dim; ++d) {
    numel_ *= shape[d];
  }
  // Byte strides per operand, right-aligned; broadcast dims get 0.
  int64_t sizes[kTensorDimLimit];
  int64_t strides[kMaxIterOperands][kTensorDimLimit];
  int n = 0;
  for (int32_t d = 0; d < dim; ++d) {
    if (shape[d] == 1) {
      continue;  // size-1 dims never move a pointer
    }
    sizes[n] = shape[d];
    for (int k = 0; k < nops; ++k) {
      const TensorView& v = *ops[k];
      const int32_t vd = d - (dim - v.dim);
      const bool broadcast = vd < 0 || v.sizes[vd] == 1;
      strides[k][n] = broadcast ? 0 : v.strides[vd] * static_cast<int64_t>(v.element_size());
    }
    ++n;
  }
  // Order dims by operand 0's stride, largest first (stable insertion sort),
  // so the innermost iterated dim is the out's innermost in memory.
  for (int i = 1; i < n; ++i) {
    for (int j = i; j > 0 && abs64(strides[0][j]) > abs64(strides[0][j - 1]); --j) {
      const int64_t ts = sizes[j];
      sizes[j] = sizes[j - 1];
      sizes[j - 1] = ts;
      for (int k = 0; k < nops; ++k) {
        const int64_t t = strides[k][j];
        strides[k][j] = strides[k][j - 1];
        strides[k][j - 1] = t;
      }
    }
  }
  // Merge dim i-1 into dim i when every operand steps through them as one.
  int m = 0;
  for (int i = 0; i < n; ++i) {
    if (m > 0) {
      bool mergeable = true;
      for (int k = 0; k < nops && mergeable; ++k) {
        mergeable = strides[k][i] * sizes[i] == strides_[k][m - 1];
      }
      if (mergeable) {
        sizes_[m - 1] *= sizes[i];
        for (int k = 0; k < nops; ++k) {
          strides_[k][m - 1] = strides[k][i];
        }
        continue;
      }
    }
    sizes_[m] = sizes[i];
    for (int k = 0; k < nops; ++k) {
      strides_[k][m] = strides[k][i];
    }
    ++m;
  }
  if (m == 0) {  // a single element
    sizes_[0] = 1;
    for (int k = 0; k < nops; ++k) {
      strides_[k][0] = 0;
    }
    m = 1;
  }
  ndim_ = m;
  for (int k = 0; k < nops; ++k) {
    base_[k] = static_cast<char*>(ops[k]->data);
  }
}

void NdIter::walk_rows(RowFn fn, void* ctx) const {
  if (numel_ == 0) {
    return;
  }
  const int inner = ndim_ - 1;
  const int64_t n = sizes_[inner];
  int64_t inner_strides[kMaxIterOperands];
  char* ptrs[kMaxIterOperands];
  for (int k = 0; k < nops_; ++k) {
    inner_strides[k] = strides_[k][inner];
    ptrs[k] = base_[k];
  }
  int64_t index[kTensorDimLimit] = {};
  while (true) {
    for (int64_t start = 0; start < n; start += kRowChunk) {
      char* row[kMaxIterOperands];
      for (int k = 0; k < nops_; ++k) {
        row[k] = ptrs[k] + start * inner_strides[k];
      }
      fn(ctx, static_cast<char* const*>(row), static_cast<const int64_t*>(inner_strides),
         n - start < kRowChunk ? n - start : kRowChunk);
    }
    int d = inner - 1;
    for (; d >= 0; --d) {
      ++index[d];
      for (int k = 0; k < nops_; ++k) {
        ptrs[k] += strides_[k][d];
      }
      if (index[d] < sizes_[d]) {
        break;
      }
      for (int k = 0; k < nops_; ++k) {
        ptrs[k] -= strides_[k][d] * sizes_[d];
      }
      index[d] = 0;
    }
    if (d < 0) {
      return;
    }
  }
}

namespace {

// Below this many elements an elementwise op stays on one thread.
constexpr int64_t kParallelElements = int64_t{1} << 15;

}  // namespace

void NdIter::walk_chunks(RowFn fn, void* ctx, int64_t first, int64_t last) const {
  const int inner = ndim_ - 1;
  const int64_t n = sizes_[inner];
  const int64_t per_row = (n + kRowChunk - 1) / kRowChunk;
  int64_t inner_strides[kMaxIterOperands];
  for (int k = 0; k < nops_; ++k) inner_strides[k] = strides_[k][inner];
  for (int64_t chunk = first; chunk < last; ++chunk) {
    // The row's multi-index, innermost outer dim fastest.
    int64_t row = chunk / per_row;
    const int64_t start = (chunk % per_row) * kRowChunk;
    char* ptrs[kMaxIterOperands];
    for (int k = 0; k < nops_; ++k) ptrs[k] = base_[k] + start * inner_strides[k];
    for (int d = inner - 1; d >= 0 && row > 0; --d) {
      const int64_t i = row % sizes_[d];
      row /= sizes_[d];
      for (int k = 0; k < nops_; ++k) ptrs[k] += i * strides_[k][d];
    }
    fn(ctx, static_cast<char* const*>(ptrs), static_cast<const int64_t*>(inner_strides),
       n - start < kRowChunk ? n - start : kRowChunk);
  }
}

void NdIter::walk_rows_parallel(RowFn fn, void* ctx) const {
  if (numel_ < kParallelElements || parallel_threads() <= 1) {
    walk_rows(fn, ctx);
    return;
  }
  const int64_t n = sizes_[ndim_ - 1];
  const int64_t chunks = numel_ / n * ((n + kRowChunk - 1) / kRowChunk);
  // Pieces of at least kParallelElements / 2 elements.
  const int64_t chunk_elements = n < kRowChunk ? n : kRowChunk;
  const size_t min_chunks = static_cast<size_t>(kParallelElements / 2 / chunk_elements + 1);
  parallel_for(static_cast<size_t>(chunks), min_chunks, [&](size_t begin, size_t end) {
    walk_chunks(fn, ctx, static_cast<int64_t>(begin), static_cast<int64_t>(end));
  });
}

}  // namespace tri
