// Reductions over a set of dims (sum, mean, amax, argmax, ...). A ReducePlan
// splits self's dims into kept and reduced ones and gives out's shape; the
// kernel then visits each out element and walks the reduced elements behind
// it (row mode), or, when out's innermost dim is contiguous in self too,
// reduces whole blocks of out elements at once (column mode).
#pragma once

#include <cstdint>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/kernel/kernel_args.h"
#include "cpp/runtime/platform/parallel.h"

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
  int32_t red_dim[kTensorDimLimit] = {};       // which dim of self it is
  int64_t reduce_numel = 1;
  int64_t out_sizes[kTensorDimLimit] = {};
  int32_t out_dim = 0;
  bool all_dims = false;  // no dim was named (None or [])
};

// `mask[d]` marks the reduced dims of self (a rank-0 self reduces to itself).
// keepdim keeps them as size 1 in out's shape.
void make_reduce_plan(const Tensor& self, const bool mask[kTensorDimLimit], bool keepdim,
                      ReducePlan* plan);

// Reads an `int[1]? dim` argument: None or [] reduce every dim.
Error reduce_mask_from_dims(const EValue& dims, int32_t rank, bool mask[kTensorDimLimit]);

// The plan for an `int[1]? dim` / `int[1] dim` argument (None or []: all dims).
Error plan_over_dims(const Tensor& self, const EValue& dims, bool keepdim, ReducePlan* plan);
// The plan for an `int? dim` argument (None: all dims).
Error plan_over_dim(const Tensor& self, Optional<int64_t> dim, bool keepdim, ReducePlan* plan);

// ATen's rule for reductions without an identity (amax, argmax, max.dim):
// "amax(): Expected reduction dim 1 to have non-zero size." / "...to be
// specified for input.numel() == 0".
Error check_nonempty_reduction(const ReducePlan& plan, const char* op);

// Reads (self, int[1]? dim, bool keepdim, *, ScalarType? dtype, out) as sum
// and mean take them: out's dtype must equal dtype when given; the plan is
// checked and out resized.
struct DimsDtypeArgs {
  Tensor* self = nullptr;
  Optional<ScalarType> dtype;
  Tensor* out = nullptr;
  ReducePlan plan;
};
// `has_dims` false: the overload has no dim/keepdim (sum.out: self, dtype,
// out). `floating_op` (mean) requires dtype, or else self, to be floating.
Error read_dims_dtype_args(KernelArgs& args, bool has_dims, uint32_t out_types,
                           const char* floating_op, DimsDtypeArgs* a);

// Calls fn(char* a_element, char* b_element, const char* first_input_element)
// for each out element, in out's logical order; `a` and `b` (two outs, or
// the same one twice) have the plan's shape.
template <typename Fn>
void for_each_reduction2(const ReducePlan& p, const TensorView& a, const TensorView& b,
                         Fn&& fn) {
  int64_t a_strides[kTensorDimLimit];
  int64_t b_strides[kTensorDimLimit];
  const int64_t aes = static_cast<int64_t>(a.element_size());
  const int64_t bes = static_cast<int64_t>(b.element_size());
  for (int32_t k = 0; k < p.n_kept; ++k) {
    a_strides[k] = a.strides[p.kept_out_dim[k]] * aes;
    b_strides[k] = b.strides[p.kept_out_dim[k]] * bes;
  }
  int64_t index[kTensorDimLimit] = {};
  char* oa = static_cast<char*>(a.data);
  char* ob = static_cast<char*>(b.data);
  const char* in = static_cast<const char*>(p.in.data);
  int64_t total = 1;
  for (int32_t d = 0; d < p.n_kept; ++d) total *= p.kept_sizes[d];
  for (int64_t i = 0; i < total; ++i) {
    fn(oa, ob, in);
    for (int32_t d = p.n_kept - 1; d >= 0; --d) {
      oa += a_strides[d];
      ob += b_strides[d];
      in += p.kept_strides[d];
      if (++index[d] < p.kept_sizes[d]) break;
      oa -= a_strides[d] * p.kept_sizes[d];
      ob -= b_strides[d] * p.kept_sizes[d];
      in -= p.kept_strides[d] * p.kept_sizes[d];
      index[d] = 0;
    }
  }
}

// Calls fn(char* out_element, const char* first_input_element) for each out
// element, in out's logical order; `out` has the plan's shape.
template <typename Fn>
void for_each_reduction(const ReducePlan& p, const TensorView& out, Fn&& fn) {
  for_each_reduction2(p, out, out, [&](char* o, char*, const char* in) { fn(o, in); });
}

// for_each_reduction with ranges of out elements spread over the thread pool
// when the whole reduction reads enough elements; fn must only write its own
// out element.
template <typename Fn>
void for_each_reduction_parallel(const ReducePlan& p, const TensorView& out, Fn&& fn) {
  int64_t total = 1;
  for (int32_t d = 0; d < p.n_kept; ++d) total *= p.kept_sizes[d];
  constexpr int64_t kParallelReads = int64_t{1} << 15;
  if (total < 2 || total * p.reduce_numel < kParallelReads || parallel_threads() <= 1) {
    for_each_reduction(p, out, fn);
    return;
  }
  int64_t out_strides[kTensorDimLimit];
  const int64_t oes = static_cast<int64_t>(out.element_size());
  for (int32_t k = 0; k < p.n_kept; ++k) out_strides[k] = out.strides[p.kept_out_dim[k]] * oes;
  const size_t min_outputs = static_cast<size_t>(kParallelReads / 2 / (p.reduce_numel + 1) + 1);
  parallel_for(static_cast<size_t>(total), min_outputs, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      // Out element i in logical order: the last kept dim fastest.
      int64_t rest = static_cast<int64_t>(i);
      char* o = static_cast<char*>(out.data);
      const char* in = static_cast<const char*>(p.in.data);
      for (int32_t d = p.n_kept - 1; d >= 0; --d) {
        const int64_t at = rest % p.kept_sizes[d];
        rest /= p.kept_sizes[d];
        o += at * out_strides[d];
        in += at * p.kept_strides[d];
      }
      fn(o, in);
    }
  });
}

// Calls fn(const char* element, int64_t n, int64_t stride_bytes) for each
// innermost run of reduced elements behind `base` (reduced dims in self's
// order; the last is the run). Nothing is visited when a reduced dim is
// empty (an outer empty dim must not let the inner run be read).
template <typename Fn>
void walk_reduced(const ReducePlan& p, const char* base, Fn&& fn) {
  if (p.n_red == 0) {
    fn(base, 1, 0);
    return;
  }
  if (p.reduce_numel == 0) {
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

// Calls fn(double) for each reduced element behind `base`, converted from
// self's dtype in chunks (for reductions computed in double: var, std,
// logsumexp).
template <typename Fn>
void for_each_reduced_double(const ReducePlan& p, const char* base, Fn&& fn) {
  walk_reduced(p, base, [&](const char* ptr, int64_t n, int64_t stride) {
    constexpr int64_t kChunk = 256;
    double buf[kChunk];
    for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
      const int64_t m = n - i0 < kChunk ? n - i0 : kChunk;
      load_row<double>(p.in.type, ptr + i0 * stride, stride, m, buf);
      for (int64_t i = 0; i < m; ++i) fn(buf[i]);
    }
  });
}

// Column mode applies when out's last kept dim is unit-stride in self and in
// out and something is reduced: then a block of consecutive out elements is
// the sum (max, ...) of contiguous input rows, which vectorizes.
bool column_mode_applies(const ReducePlan& p, const TensorView& out);

// Calls fn(char* out_block, const char* in_block, int64_t m) for blocks of up
// to `block` consecutive out elements along the last kept dim; the kernel
// then walks the reduced dims from in_block (walk_reduced) reading m
// contiguous elements at each.
template <typename Fn>
void for_each_column_block(const ReducePlan& p, const TensorView& out, int64_t block, Fn&& fn) {
  ReducePlan outer = p;
  const int32_t last = p.n_kept - 1;
  const int64_t k = p.kept_sizes[last];
  outer.kept_sizes[last] = 1;
  const int64_t ies = static_cast<int64_t>(p.in.element_size());
  const int64_t oes = static_cast<int64_t>(out.element_size());
  for_each_reduction(outer, out, [&](char* o, const char* in) {
    for (int64_t j = 0; j < k; j += block) {
      fn(o + j * oes, in + j * ies, k - j < block ? k - j : block);
    }
  });
}

}  // namespace tri
