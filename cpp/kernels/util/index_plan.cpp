#include "cpp/kernels/util/index_plan.h"

#include <cinttypes>

#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/index_walk.h"
#include "cpp/kernels/util/scratch_size.h"
#include "cpp/runtime/core/memory_allocator.h"

namespace tri {
namespace {

// The coordinates of the nonzero elements of `mask` (row-major), as `k`
// Long vectors interleaved in one buffer from temp.
Error expand_mask(KernelContext& ctx, const Tensor& mask, int32_t first_dim, IndexPlan* plan) {
  const TensorView m = TensorView::of(mask);
  const int32_t k = m.dim;
  int64_t nnz = 0;
  const int64_t total = m.numel();
  int64_t pos[kTensorDimLimit] = {};
  auto walk = [&](auto&& visit) {
    int64_t off = 0;
    for (int64_t i = 0; i < total; ++i) {
      if (static_cast<const uint8_t*>(m.data)[off] != 0) visit(pos);
      for (int32_t d = k - 1; d >= 0; --d) {
        off += m.strides[d];
        if (++pos[d] < m.sizes[d]) break;
        off -= m.strides[d] * m.sizes[d];
        pos[d] = 0;
      }
    }
  };
  walk([&](const int64_t*) { ++nnz; });
  int64_t* coords = nullptr;
  if (nnz > 0 && k > 0) {
    TRI_CHECK(ctx.temp != nullptr, Error::MemoryAllocationFailed,
              "a boolean mask index needs temp memory");
    coords = ctx.temp->allocate_array<int64_t>(static_cast<size_t>(nnz * k));
    TRI_CHECK(coords != nullptr, Error::MemoryAllocationFailed,
              "temp memory too small for %" PRId64 " mask coordinates", nnz * k);
    int64_t row = 0;
    walk([&](const int64_t* p) {
      for (int32_t j = 0; j < k; ++j) coords[row * k + j] = p[j];
      ++row;
    });
  }
  for (int32_t j = 0; j < k; ++j) {
    IndexPlan::Operand& op = plan->ops[plan->n_ops++];
    op.view = TensorView();
    op.view.data = coords ? coords + j : nullptr;
    op.view.type = ScalarType::Long;
    op.view.dim = 1;
    op.view.sizes[0] = nnz;
    op.view.strides[0] = k;
    op.self_dim = first_dim + j;
  }
  return Error::Ok;
}

}  // namespace

size_t index_plan_scratch(Span<Tensor* const> indices) {
  ScratchSize size;
  for (const Tensor* t : indices) {
    const bool is_mask = t != nullptr && (t->scalar_type() == ScalarType::Bool ||
                                          t->scalar_type() == ScalarType::Byte);
    if (is_mask && t->dim() > 0) size.add<int64_t>(static_cast<int64_t>(t->numel()) * t->dim());
  }
  return size.bytes();
}

Error make_index_plan(KernelContext& ctx, const TensorView& self, Span<Tensor* const> indices,
                      IndexPlan* plan) {
  const int32_t rank = self.dim;
  bool indexed[kTensorDimLimit] = {};
  int32_t sd = 0;  // the self dim the next list entry applies to
  plan->n_ops = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    const Tensor* t = indices[i];
    const bool is_mask = t != nullptr && (t->scalar_type() == ScalarType::Bool ||
                                          t->scalar_type() == ScalarType::Byte);
    const int32_t span = is_mask ? t->dim() : 1;
    TRI_CHECK(sd + span <= rank, Error::InvalidArgument,
              "too many indices for tensor of dimension %d (got %zu)", rank, indices.size());
    if (t == nullptr) {
      ++sd;
      continue;
    }
    if (is_mask) {
      for (int32_t j = 0; j < t->dim(); ++j) {
        TRI_CHECK(t->size(j) == self.sizes[sd + j], Error::InvalidArgument,
                  "the shape of the mask at index %zu (size %d at dim %d) does not match "
                  "the indexed tensor (size %" PRId64 " at dim %d)",
                  i, t->size(j), j, self.sizes[sd + j], sd + j);
      }
      TRI_TRY(expand_mask(ctx, *t, sd, plan));
      for (int32_t j = 0; j < t->dim(); ++j) indexed[sd + j] = true;
      sd += t->dim();
      continue;
    }
    TRI_CHECK(dtype_in(t->scalar_type(), kIndexTypes), Error::InvalidType,
              "indices[%zu]: tensors used as indices must be long, int, byte or bool "
              "tensors, got %s", i, scalar_type_name(t->scalar_type()));
    plan->ops[plan->n_ops].view = TensorView::of(*t);
    plan->ops[plan->n_ops].self_dim = sd;
    ++plan->n_ops;
    indexed[sd] = true;
    ++sd;
  }
  // Broadcast the index tensors to B.
  int64_t bshape[kTensorDimLimit];
  int32_t bdim = 0;
  for (int32_t k = 0; k < plan->n_ops; ++k) {
    const TensorView& v = plan->ops[k].view;
    const int32_t nd = v.dim > bdim ? v.dim : bdim;
    int64_t next[kTensorDimLimit];
    for (int32_t i = 0; i < nd; ++i) {
      const int64_t a = i < bdim ? bshape[bdim - 1 - i] : 1;
      const int64_t b = i < v.dim ? v.sizes[v.dim - 1 - i] : 1;
      TRI_CHECK(a == b || a == 1 || b == 1, Error::InvalidArgument,
                "shape mismatch: indexing tensors could not be broadcast together "
                "(%" PRId64 " vs %" PRId64 ")", a, b);
      next[nd - 1 - i] = a == 1 ? b : a;
    }
    bdim = nd;
    for (int32_t i = 0; i < nd; ++i) bshape[i] = next[i];
  }
  for (int32_t k = 0; k < plan->n_ops; ++k) {
    const int32_t d = plan->ops[k].self_dim;
    TRI_TRY_CONTEXT(check_index_values(plan->ops[k].view, self.sizes[d], d,
                                       /*allow_negative=*/true), "index");
  }
  int32_t first = -1;
  int32_t last = -1;
  for (int32_t d = 0; d < rank; ++d) {
    if (indexed[d]) {
      if (first < 0) first = d;
      last = d;
    }
  }
  bool adjacent = true;
  for (int32_t d = first; d >= 0 && d <= last; ++d) adjacent = adjacent && indexed[d];
  int32_t odim = 0;
  const int32_t insert_at = adjacent && first >= 0 ? first : 0;
  for (int32_t d = 0; d <= rank; ++d) {
    if (d == insert_at) {
      for (int32_t j = 0; j < bdim; ++j) {
        TRI_CHECK(odim < static_cast<int32_t>(kTensorDimLimit), Error::NotSupported,
                  "the result would exceed the rank limit");
        plan->source[odim] = -1 - j;
        plan->shape[odim++] = bshape[j];
      }
    }
    if (d < rank && !indexed[d]) {
      TRI_CHECK(odim < static_cast<int32_t>(kTensorDimLimit), Error::NotSupported,
                "the result would exceed the rank limit");
      plan->source[odim] = d;
      plan->shape[odim++] = self.sizes[d];
    }
  }
  plan->dim = odim;
  plan->bdim = bdim;
  return Error::Ok;
}

void walk_index_plan(const IndexPlan& plan, const TensorView& base, const TensorView& other,
                     void (*fn)(void* ctx, int64_t base_off, int64_t other_off), void* ctx) {
  const int32_t odim = plan.dim;
  int64_t total = 1;
  for (int32_t o = 0; o < odim; ++o) total *= plan.shape[o];
  if (total == 0) return;
  // Strides per result dim: base (slice dims), other (right-aligned,
  // broadcast = 0), each index operand (B dims, right-aligned, broadcast = 0).
  int64_t base_str[kTensorDimLimit];
  int64_t other_str[kTensorDimLimit];
  int64_t op_str[kTensorDimLimit][kTensorDimLimit];
  for (int32_t o = 0; o < odim; ++o) {
    const int32_t src = plan.source[o];
    base_str[o] = src >= 0 ? base.strides[src] : 0;
    const int32_t od = o - (odim - other.dim);
    other_str[o] = od < 0 || other.sizes[od] == 1 ? 0 : other.strides[od];
    for (int32_t k = 0; k < plan.n_ops; ++k) {
      const TensorView& v = plan.ops[k].view;
      const int32_t j = src < 0 ? -1 - src : -1;
      const int32_t vd = j - (plan.bdim - v.dim);
      op_str[k][o] = (j < 0 || vd < 0 || v.sizes[vd] == 1) ? 0 : v.strides[vd];
    }
  }
  int64_t pos[kTensorDimLimit] = {};
  int64_t bo = 0;
  int64_t oo = 0;
  int64_t io[kTensorDimLimit] = {};
  for (int64_t i = 0; i < total; ++i) {
    int64_t at = bo;
    for (int32_t k = 0; k < plan.n_ops; ++k) {
      const int32_t d = plan.ops[k].self_dim;
      int64_t v = read_index(plan.ops[k].view, io[k]);
      if (v < 0) v += base.sizes[d];
      at += v * base.strides[d];
    }
    fn(ctx, at, oo);
    for (int32_t o = odim - 1; o >= 0; --o) {
      bo += base_str[o];
      oo += other_str[o];
      for (int32_t k = 0; k < plan.n_ops; ++k) io[k] += op_str[k][o];
      if (++pos[o] < plan.shape[o]) break;
      bo -= base_str[o] * plan.shape[o];
      oo -= other_str[o] * plan.shape[o];
      for (int32_t k = 0; k < plan.n_ops; ++k) io[k] -= op_str[k][o] * plan.shape[o];
      pos[o] = 0;
    }
  }
}

}  // namespace tri
