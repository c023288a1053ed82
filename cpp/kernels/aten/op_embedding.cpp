// aten::embedding.out: out[..., :] = weight[indices[...], :]; out has
// indices' shape plus weight's row size. padding_idx, scale_grad_by_freq and
// sparse only matter for the gradient.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error embedding_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const int64_t padding_idx, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const bool scale_grad, args.bool_value(3));
  TRI_ASSIGN_OR_RETURN(const bool sparse, args.bool_value(4));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(5));
  (void)padding_idx;
  (void)scale_grad;
  (void)sparse;
  TRI_CHECK(weight->dim() == 2, Error::InvalidArgument, "'weight' must be 2-D, got rank %d",
            weight->dim());
  TRI_TRY(check_dtype(indices->scalar_type(), kIndexTypes, "indices"));
  TRI_TRY(check_same_dtype(*out, weight->scalar_type(), "out"));
  const int32_t rank = indices->dim();
  TRI_CHECK(rank + 1 <= static_cast<int32_t>(kTensorDimLimit), Error::InvalidArgument,
            "indices of rank %d give an out of too many dims", rank);
  const TensorView idx = TensorView::of(*indices);
  const int64_t rows = weight->size(0);
  // Every index is checked before anything is written.
  int64_t pos[kTensorDimLimit] = {};
  const int64_t n = static_cast<int64_t>(indices->numel());
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (int32_t d = 0; d < rank; ++d) off += pos[d] * idx.strides[d];
    const int64_t v = load_one<int64_t>(idx.type, static_cast<const char*>(idx.data) +
                                                       off * static_cast<int64_t>(idx.element_size()));
    TRI_CHECK(v >= 0 && v < rows, Error::InvalidArgument,
              "index %" PRId64 " is out of range for weight with %" PRId64 " rows", v, rows);
    for (int32_t d = rank - 1; d >= 0; --d) {
      if (++pos[d] < idx.sizes[d]) break;
      pos[d] = 0;
    }
  }
  int64_t shape[kTensorDimLimit];
  for (int32_t d = 0; d < rank; ++d) shape[d] = indices->size(d);
  shape[rank] = weight->size(1);
  TRI_TRY(resize_out(*out, Span<const int64_t>(shape, rank + 1)));
  // One row copy per index: a view of weight with the indexed row per
  // position would need per-position strides, which views cannot express.
  const TensorView w = TensorView::of(*weight);
  const TensorView o = TensorView::of(*out);
  const int64_t es = static_cast<int64_t>(w.element_size());
  TensorView src;
  src.type = w.type;
  src.dim = 1;
  src.sizes[0] = w.sizes[1];
  src.strides[0] = w.strides[1];
  TensorView dst = src;
  dst.strides[0] = o.strides[rank];
  for (int32_t d = 0; d < rank; ++d) pos[d] = 0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t ioff = 0, ooff = 0;
    for (int32_t d = 0; d < rank; ++d) {
      ioff += pos[d] * idx.strides[d];
      ooff += pos[d] * o.strides[d];
    }
    const int64_t v = load_one<int64_t>(idx.type, static_cast<const char*>(idx.data) +
                                                       ioff * static_cast<int64_t>(idx.element_size()));
    src.data = static_cast<char*>(w.data) + v * w.strides[0] * es;
    dst.data = static_cast<char*>(o.data) + ooff * es;
    copy_view(src, dst);
    for (int32_t d = rank - 1; d >= 0; --d) {
      if (++pos[d] < idx.sizes[d]) break;
      pos[d] = 0;
    }
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
