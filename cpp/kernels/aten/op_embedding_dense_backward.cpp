// aten::embedding_dense_backward.out: out [num_weights, D] is the sum of the
// grad_output rows of every position holding each index (none for
// padding_idx), divided by the index's count with scale_grad_by_freq.
// Integral and bool grads follow ATen's add with alpha = 1 / count: the
// alpha is truncated to the integer type (so 0 once an index repeats), and
// bool sums are a logical or.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/scratch_size.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/tensor_view.h"

namespace tri {
namespace kernels {
namespace {

// Offsets (in elements) of position k of indices' shape in a tensor whose
// leading dims have that shape.
int64_t offset_of(const TensorView& shape, const TensorView& t, int64_t k) {
  int64_t off = 0;
  for (int32_t d = shape.dim - 1; d >= 0; --d) {
    off += (k % shape.sizes[d]) * t.strides[d];
    k /= shape.sizes[d];
  }
  return off;
}

int64_t index_at(const TensorView& idx, int64_t k) {
  return load_one<int64_t>(idx.type, static_cast<const char*>(idx.data) +
                                         offset_of(idx, idx, k) * static_cast<int64_t>(idx.element_size()));
}

}  // namespace

Error embedding_dense_backward_out(KernelContext& ctx, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* grad, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const int64_t num_weights, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const int64_t padding_idx, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(const bool scale, args.bool_value(4));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(5));
  TRI_TRY(check_dtype(grad->scalar_type(), kRealHBBoolTypes, "grad_output"));
  TRI_TRY(check_dtype(indices->scalar_type(), kIndexTypes, "indices"));
  TRI_TRY(check_same_dtype(*out, grad->scalar_type(), "out"));
  const int32_t rank = indices->dim();
  TRI_CHECK(grad->dim() == rank + 1, Error::InvalidArgument,
            "grad_output must have indices' shape plus one dim, got ranks %d and %d",
            grad->dim(), rank);
  for (int32_t d = 0; d < rank; ++d) {
    TRI_CHECK(grad->size(d) == indices->size(d), Error::InvalidArgument,
              "grad_output size %d at dim %d differs from indices' %d", grad->size(d), d,
              indices->size(d));
  }
  TRI_CHECK(num_weights >= 0 && num_weights <= INT32_MAX, Error::InvalidArgument,
            "num_weights must be in [0, 2^31), got %" PRId64, num_weights);
  const TensorView idx = TensorView::of(*indices);
  const int64_t n = static_cast<int64_t>(indices->numel());
  for (int64_t k = 0; k < n; ++k) {
    const int64_t v = index_at(idx, k);
    TRI_CHECK(v >= 0 && v < num_weights, Error::InvalidArgument,
              "index %" PRId64 " is out of range for %" PRId64 " weights", v, num_weights);
  }
  const int64_t dsize = grad->size(rank);
  const int64_t shape[] = {num_weights, dsize};
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, 2)));
  const TensorView g = TensorView::of(*grad);
  const TensorView o = TensorView::of(*out);
  const int64_t ges = static_cast<int64_t>(g.element_size());
  char* ob = static_cast<char*>(o.data);
  for (int64_t r = 0; r < num_weights; ++r)
    for (int64_t j = 0; j < dsize; ++j)
      store_one<double>(o.type, 0.0, ob + (r * o.strides[0] + j * o.strides[1]) * ges);
  // Counts for scale_grad_by_freq: from temp, else counted per position.
  int64_t* counts = nullptr;
  if (scale && ctx.temp != nullptr) {
    counts = ctx.temp->allocate_array<int64_t>(static_cast<size_t>(num_weights));
    if (counts != nullptr) {
      for (int64_t r = 0; r < num_weights; ++r) counts[r] = 0;
      for (int64_t k = 0; k < n; ++k) ++counts[index_at(idx, k)];
    }
  }
  for (int64_t k = 0; k < n; ++k) {
    const int64_t v = index_at(idx, k);
    if (v == padding_idx) continue;
    double div = 1.0;
    if (scale) {
      int64_t c = 0;
      if (counts != nullptr) {
        c = counts[v];
      } else {
        for (int64_t q = 0; q < n; ++q) c += index_at(idx, q) == v ? 1 : 0;
      }
      div = static_cast<double>(c);
    }
    const char* grow = static_cast<const char*>(g.data) + offset_of(idx, g, k) * ges;
    const bool integral = !dtype_in(g.type, kFloatHBTypes);
    const int64_t alpha = g.type == ScalarType::Bool ? 1 : static_cast<int64_t>(1.0 / div);
    for (int64_t j = 0; j < dsize; ++j) {
      char* p = ob + (v * o.strides[0] + j * o.strides[1]) * ges;
      const char* q = grow + j * g.strides[rank] * ges;
      if (integral) {
        // Wraps in the integer type; any nonzero sum is true for Bool.
        const uint64_t sum = static_cast<uint64_t>(load_one<int64_t>(o.type, p)) +
                             static_cast<uint64_t>(load_one<int64_t>(g.type, q)) *
                                 static_cast<uint64_t>(alpha);
        store_one<int64_t>(o.type, static_cast<int64_t>(sum), p);
      } else {
        store_one<double>(o.type, load_one<double>(o.type, p) + load_one<double>(g.type, q) / div, p);
      }
    }
  }
  return Error::Ok;
}

// scale_grad_by_freq's per-weight counts.
size_t embedding_dense_backward_scratch(KernelArgs& args) {
  Result<int64_t> num_weights = args.int_value(2);
  Result<bool> scale = args.bool_value(4);
  if (!num_weights.ok() || !scale.ok() || !*scale) return 0;
  return ScratchSize().add<int64_t>(*num_weights).bytes();
}

}  // namespace kernels
}  // namespace tri
