// Elementwise walks for the Cortex-M ops: operands broadcast NumPy-style
// (right-aligned, size-1 dims repeat) over out's shape, visited with NdIter.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/nd_iter.h"
#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {
namespace cortex_m {

// Resizes out to the broadcast shape of a and b (out keeps its dim order).
Error resize_broadcast(const Tensor& a, const Tensor& b, Tensor& out);

// fn(out_ptr, in_ptrs...) for every element; ops[0] is out.
template <int N, typename Fn>
void for_each_element(const Tensor& out, const Tensor* const (&in)[N], const Fn& fn) {
  TensorView views[N + 1];
  const TensorView* ops[N + 1];
  views[0] = TensorView::of(out);
  ops[0] = &views[0];
  for (int k = 0; k < N; ++k) {
    views[k + 1] = TensorView::of(*in[k]);
    ops[k + 1] = &views[k + 1];
  }
  const NdIter it(views[0].sizes, views[0].dim, ops, N + 1);
  it.for_each_row([&](char* const* p, const int64_t* st, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      char* q[N + 1];
      for (int k = 0; k <= N; ++k) q[k] = p[k] + i * st[k];
      fn(q);
    }
  });
}

}  // namespace cortex_m
}  // namespace tri
