// Reductions over a set of dims (sum, mean, argmax, ...). A ReducePlan splits
// self's dims into kept and reduced ones and gives out's shape; the kernel
// then visits each out element and walks the reduced elements behind it.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

struct ReducePlan {
  TensorView in;
  int32_t n_kept = 0;
  int64_t kept_sizes[kTensorDimLimit] = {};
  int64_t kept_strides[kTensorDimLimit] = {};  // bytes in self
  int32_t kept_out_dim[kTensorDimLimit] = {};  // which dim of out it is
  int32_t n_red = 0;
  int64_t red_sizes[kTensorDimLimit] = {};
  int64_t red_strides[kTensorDimLimit] = {};   // bytes in self
  int64_t reduce_numel = 1;
  int64_t out_sizes[kTensorDimLimit] = {};
  int32_t out_dim = 0;
};

// `mask[d]` marks the reduced dims of self (a rank-0 self reduces to itself).
// keepdim keeps them as size 1 in out's shape.
void make_reduce_plan(const Tensor& self, const bool mask[kTensorDimLimit], bool keepdim,
                      ReducePlan* plan);

// Reads an `int[1]? dim` argument: None or [] reduce every dim.
Error reduce_mask_from_dims(const EValue& dims, int32_t rank, bool mask[kTensorDimLimit]);

// Calls fn(char* out_element, const char* first_input_element) for each out
// element, in out's logical order; `out` has the plan's shape.
template <typename Fn>
void for_each_reduction(const ReducePlan& p, const TensorView& out, Fn&& fn) {
  int64_t out_strides[kTensorDimLimit];
  const int64_t es = static_cast<int64_t>(out.element_size());
  for (int32_t k = 0; k < p.n_kept; ++k) {
    out_strides[k] = out.strides[p.kept_out_dim[k]] * es;
  }
  int64_t index[kTensorDimLimit] = {};
  char* o = static_cast<char*>(out.data);
  const char* in = static_cast<const char*>(p.in.data);
  int64_t total = 1;
  for (int32_t d = 0; d < p.n_kept; ++d) total *= p.kept_sizes[d];
  for (int64_t i = 0; i < total; ++i) {
    fn(o, in);
    for (int32_t d = p.n_kept - 1; d >= 0; --d) {
      o += out_strides[d];
      in += p.kept_strides[d];
      if (++index[d] < p.kept_sizes[d]) break;
      o -= out_strides[d] * p.kept_sizes[d];
      in -= p.kept_strides[d] * p.kept_sizes[d];
      index[d] = 0;
    }
  }
}

// Calls fn(const char* element, int64_t n, int64_t stride_bytes) for each
// innermost run of reduced elements behind `base` (reduced dims in self's
// order; the last is the run).
template <typename Fn>
void walk_reduced(const ReducePlan& p, const char* base, Fn&& fn) {
  if (p.n_red == 0) {
    fn(base, 1, 0);
    return;
  }
  const int32_t inner = p.n_red - 1;
  int64_t index[kTensorDimLimit] = {};
  const char* ptr = base;
  while (true) {
    fn(ptr, p.red_sizes[inner], p.red_strides[inner]);
    int32_t d = inner - 1;
    for (; d >= 0; --d) {
      ptr += p.red_strides[d];
      if (++index[d] < p.red_sizes[d]) break;
      ptr -= p.red_strides[d] * p.red_sizes[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace tri
