// NdIter walks a shape over several strided operands at once, one innermost
// row at a time. It is what every elementwise and copy kernel runs on:
// - operands are right-aligned to the shape; a missing or size-1 dim of an
//   operand broadcasts (stride 0);
// - dims are visited in the memory order of operand 0 (the out), so a
//   channels-last out is written sequentially;
// - adjacent dims that are contiguous in every operand are merged, so the
//   contiguous same-shape case is a single row (the fast path);
// - rows are cut into chunks of at most kRowChunk elements, so the function
//   doing the work is called many times (V8 tiers wasm up per function, not
//   per loop).
#pragma once

#include <cstdint>
#include <type_traits>

#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

constexpr int kMaxIterOperands = 4;
constexpr int64_t kRowChunk = 4096;

class NdIter {
 public:
  // `shape` is the iteration shape (usually the out's); every operand must
  // broadcast to it (the caller checked). ops[0] decides the dim order.
  NdIter(const int64_t* shape, int32_t dim, const TensorView* const* ops, int nops);

  int64_t numel() const { return numel_; }

  // The walk's dims after ordering and merging (outermost first), operand
  // k's byte stride along each and its first element: for a kernel that
  // walks them another way (copy.cpp's tiled transpose).
  int ndim() const { return ndim_; }
  int64_t size(int d) const { return sizes_[d]; }
  int64_t stride(int k, int d) const { return strides_[k][d]; }
  char* base(int k) const { return base_[k]; }

  // Calls fn(char* const* ptrs, const int64_t* strides, int64_t n) for each
  // row chunk; ptrs[k] is operand k's first element, strides[k] its stride in
  // bytes along the row. The walk itself is compiled once (walk_rows); only
  // the small thunk calling fn is instantiated per caller.
  template <typename Fn>
  void for_each_row(Fn&& fn) const {
    using F = std::remove_reference_t<Fn>;
    walk_rows(&call_row<F>, const_cast<void*>(static_cast<const void*>(&fn)));
  }

  using RowFn = void (*)(void* ctx, char* const* ptrs, const int64_t* strides, int64_t n);
  void walk_rows(RowFn fn, void* ctx) const;

  // for_each_row, with the row chunks spread over the thread pool
  // (parallel.h). For elementwise work only: fn must be safe to call
  // concurrently on different chunks, in any order.
  template <typename Fn>
  void for_each_row_parallel(Fn&& fn) const {
    using F = std::remove_reference_t<Fn>;
    walk_rows_parallel(&call_row<F>, const_cast<void*>(static_cast<const void*>(&fn)));
  }
  void walk_rows_parallel(RowFn fn, void* ctx) const;

 private:
  template <typename F>
  static void call_row(void* ctx, char* const* p, const int64_t* s, int64_t n) {
    (*static_cast<F*>(ctx))(p, s, n);
  }

  // Chunks [first, last) of the walk: row r = chunk / chunks_per_row.
  void walk_chunks(RowFn fn, void* ctx, int64_t first, int64_t last) const;

  int nops_ = 0;
  int ndim_ = 1;
  int64_t numel_ = 0;
  int64_t sizes_[kTensorDimLimit] = {};
  int64_t strides_[kMaxIterOperands][kTensorDimLimit] = {};  // bytes
  char* base_[kMaxIterOperands] = {};
};

}  // namespace tri
