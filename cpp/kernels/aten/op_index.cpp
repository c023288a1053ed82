// aten::index.Tensor_out: advanced indexing, self[indices]. `indices` is an
// OptionalTensorList: None keeps a dim whole; a Long/Int tensor picks along
// its dim (negative values wrap); a Bool/Byte mask of rank k covers k dims
// and stands for its nonzero coordinates (found into context.temp). The
// index tensors broadcast together to B. If the indexed dims are adjacent, B
// replaces them in place; otherwise B goes first, as in NumPy and ATen.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/index_walk.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

struct IndexOperand {
  TensorView view;  // Long or Int values
  int32_t self_dim;
};

// The coordinates of the nonzero elements of `mask` (row-major), as `k`
// Long vectors interleaved in one buffer from temp.
Error expand_mask(KernelContext& ctx, const Tensor& mask, int32_t first_dim,
                  IndexOperand* ops, int32_t* n_ops) {
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
    IndexOperand& op = ops[(*n_ops)++];
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

Error index_tensor_out(KernelContext& ctx, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* self, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<Tensor* const> indices, args.tensor_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_dtype(self->scalar_type(), kAllTypes, "self"));
  TRI_TRY(check_same_dtype(*out, self->scalar_type(), "out"));
  const int32_t rank = self->dim();
  IndexOperand ops[kTensorDimLimit];
  int32_t n_ops = 0;
  bool indexed[kTensorDimLimit] = {};
  int32_t sd = 0;  // the self dim the next list entry applies to
  for (size_t i = 0; i < indices.size(); ++i) {
    const Tensor* t = indices[i];
    const int32_t span = t && (t->scalar_type() == ScalarType::Bool ||
                               t->scalar_type() == ScalarType::Byte) ? t->dim() : 1;
    TRI_CHECK(sd + span <= rank, Error::InvalidArgument,
              "too many indices for tensor of dimension %d (got %zu)", rank, indices.size());
    if (t == nullptr) {
      ++sd;
      continue;
    }
    if (span != 1 || t->scalar_type() == ScalarType::Bool || t->scalar_type() == ScalarType::Byte) {
      for (int32_t j = 0; j < t->dim(); ++j) {
        TRI_CHECK(t->size(j) == self->size(sd + j), Error::InvalidArgument,
                  "the shape of the mask at index %zu (size %d at dim %d) does not match "
                  "the indexed tensor (size %d at dim %d)",
                  i, t->size(j), j, self->size(sd + j), sd + j);
      }
      TRI_TRY(expand_mask(ctx, *t, sd, ops, &n_ops));
      for (int32_t j = 0; j < t->dim(); ++j) indexed[sd + j] = true;
      sd += t->dim();
      continue;
    }
    TRI_CHECK(dtype_in(t->scalar_type(), kIndexTypes), Error::InvalidType,
              "indices[%zu]: tensors used as indices must be long, int, byte or bool "
              "tensors, got %s", i, scalar_type_name(t->scalar_type()));
    ops[n_ops].view = TensorView::of(*t);
    ops[n_ops].self_dim = sd;
    ++n_ops;
    indexed[sd] = true;
    ++sd;
  }
  if (n_ops == 0) {
    return copy_into(TensorView::of(*self), *out);
  }
  // Broadcast the index tensors to B.
  int64_t bshape[kTensorDimLimit];
  int32_t bdim = 0;
  for (int32_t k = 0; k < n_ops; ++k) {
    const TensorView& v = ops[k].view;
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
  for (int32_t k = 0; k < n_ops; ++k) {
    TRI_TRY_CONTEXT(check_index_values(ops[k].view, self->size(ops[k].self_dim),
                                       ops[k].self_dim, /*allow_negative=*/true),
                    "index");
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
  for (int32_t d = first; d <= last; ++d) adjacent = adjacent && indexed[d];
  // Out dims: each is a self (slice) dim, or B dim (-1 - j).
  int32_t source[kTensorDimLimit];
  int64_t shape[kTensorDimLimit];
  int32_t odim = 0;
  const int32_t insert_at = adjacent ? first : 0;
  for (int32_t d = 0; d <= rank; ++d) {
    if (d == insert_at) {
      for (int32_t j = 0; j < bdim; ++j) {
        TRI_CHECK(odim < static_cast<int32_t>(kTensorDimLimit), Error::NotSupported,
                  "the result would exceed the rank limit");
        source[odim] = -1 - j;
        shape[odim++] = bshape[j];
      }
    }
    if (d < rank && !indexed[d]) {
      TRI_CHECK(odim < static_cast<int32_t>(kTensorDimLimit), Error::NotSupported,
                "the result would exceed the rank limit");
      source[odim] = d;
      shape[odim++] = self->size(d);
    }
  }
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, odim)));
  const int64_t total = out->numel();
  if (total == 0) {
    return Error::Ok;
  }
  // Strides per out dim: self (slice dims), each index operand (B dims,
  // right-aligned, broadcast = 0), and out.
  const TensorView sv = TensorView::of(*self);
  const TensorView ov = TensorView::of(*out);
  int64_t self_str[kTensorDimLimit];
  int64_t op_str[kTensorDimLimit][kTensorDimLimit];
  for (int32_t o = 0; o < odim; ++o) {
    self_str[o] = source[o] >= 0 ? sv.strides[source[o]] : 0;
    for (int32_t k = 0; k < n_ops; ++k) {
      const TensorView& v = ops[k].view;
      const int32_t j = source[o] < 0 ? -1 - source[o] : -1;
      const int32_t vd = j - (bdim - v.dim);
      op_str[k][o] = (j < 0 || vd < 0 || v.sizes[vd] == 1) ? 0 : v.strides[vd];
    }
  }
  const int64_t es = static_cast<int64_t>(self->element_size());
  int64_t pos[kTensorDimLimit] = {};
  int64_t so = 0;
  int64_t oo = 0;
  int64_t io[kTensorDimLimit] = {};
  for (int64_t i = 0; i < total; ++i) {
    int64_t src = so;
    for (int32_t k = 0; k < n_ops; ++k) {
      int64_t v = read_index(ops[k].view, io[k]);
      const int64_t size = sv.sizes[ops[k].self_dim];
      if (v < 0) v += size;
      src += v * sv.strides[ops[k].self_dim];
    }
    std::memcpy(static_cast<char*>(ov.data) + oo * es,
                static_cast<const char*>(sv.data) + src * es, static_cast<size_t>(es));
    for (int32_t o = odim - 1; o >= 0; --o) {
      so += self_str[o];
      oo += ov.strides[o];
      for (int32_t k = 0; k < n_ops; ++k) io[k] += op_str[k][o];
      if (++pos[o] < shape[o]) break;
      so -= self_str[o] * shape[o];
      oo -= ov.strides[o] * shape[o];
      for (int32_t k = 0; k < n_ops; ++k) io[k] -= op_str[k][o] * shape[o];
      pos[o] = 0;
    }
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
