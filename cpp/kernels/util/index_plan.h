// Advanced indexing (self[indices] with a Tensor?[] list), shared by
// aten::index.Tensor_out and aten::index_put.out. None keeps a dim whole; a
// Long/Int tensor picks along its dim (negative values wrap); a Bool/Byte
// mask of rank k covers k dims and stands for its nonzero coordinates
// (found into context.temp). The index tensors broadcast together to B. If
// the indexed dims are adjacent, B replaces them in place; otherwise B goes
// first, as in NumPy and ATen.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/span.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri {

struct IndexPlan {
  struct Operand {
    TensorView view;  // Long or Int values
    int32_t self_dim;
  };
  Operand ops[kTensorDimLimit];
  int32_t n_ops = 0;
  // The result: each dim is a self dim (>= 0) or B dim j (-1 - j).
  int32_t dim = 0;
  int64_t shape[kTensorDimLimit] = {};
  int32_t source[kTensorDimLimit] = {};
  int32_t bdim = 0;
};

// Checks the indices against self (kinds, mask shapes, broadcasting, index
// values) and fills `plan`.
// The temp make_index_plan takes: each boolean mask's coordinates, at most
// one per mask element.
size_t index_plan_scratch(Span<Tensor* const> indices);

Error make_index_plan(KernelContext& ctx, const TensorView& self, Span<Tensor* const> indices,
                      IndexPlan* plan);

// For each element of the result (row-major), fn(self_offset, other_offset)
// in elements: `base` has self's shape (self, or an out shaped like it) and
// `other` is right-aligned to the result shape and broadcasts (the out of
// index, the values of index_put).
void walk_index_plan(const IndexPlan& plan, const TensorView& base, const TensorView& other,
                     void (*fn)(void* ctx, int64_t base_off, int64_t other_off), void* ctx);

template <typename Fn>
void for_each_indexed(const IndexPlan& plan, const TensorView& base, const TensorView& other,
                      Fn&& fn) {
  walk_index_plan(plan, base, other,
                  [](void* c, int64_t a, int64_t b) { (*static_cast<Fn*>(c))(a, b); },
                  const_cast<void*>(static_cast<const void*>(&fn)));
}

}  // namespace tri
