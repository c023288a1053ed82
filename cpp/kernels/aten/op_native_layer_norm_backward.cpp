// aten::native_layer_norm_backward.out. Per row of the normalized block,
// with xhat = (x - mean) * rstd and g = dy * weight:
//   dx = rstd * (g - mean(g) - xhat * mean(g * xhat)),
// and over all rows dweight = sum(dy * xhat), dbias = sum(dy). Outs whose
// output_mask entry is false are left alone. Computed in double.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/norm_affine.h"
#include "cpp/kernels/util/norm_args.h"
#include "cpp/kernels/util/norm_backward.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {

Error native_layer_norm_backward_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* dy, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> shape, args.int_list(2));
  TRI_ASSIGN_OR_RETURN(Tensor* mean, args.tensor(3));
  TRI_ASSIGN_OR_RETURN(Tensor* rstd, args.tensor(4));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.optional_tensor(5));
  TRI_ASSIGN_OR_RETURN(Tensor* bias, args.optional_tensor(6));
  TRI_ASSIGN_OR_RETURN(const Span<const bool> mask, args.bool_list(7));
  TRI_ASSIGN_OR_RETURN(Tensor* dx, args.tensor(8));
  TRI_ASSIGN_OR_RETURN(Tensor* dw, args.tensor(9));
  TRI_ASSIGN_OR_RETURN(Tensor* db, args.tensor(10));
  (void)bias;
  TRI_CHECK(mask.size() == 3, Error::InvalidArgument, "output_mask must have 3 entries, got %zu",
            mask.size());
  const int32_t rank = input->dim();
  const int32_t nd = static_cast<int32_t>(shape.size());
  TRI_TRY(check_dtype(input->scalar_type(), kFloatHBTypes, "input"));
  TRI_TRY(check_same_dtype(*dy, input->scalar_type(), "grad_out"));
  TRI_CHECK(nd >= 1 && nd <= rank, Error::InvalidArgument,
            "normalized_shape of %d dims does not fit input of rank %d", nd, rank);
  bool same = dy->dim() == rank;
  for (int32_t d = 0; same && d < rank; ++d) same = dy->size(d) == input->size(d);
  TRI_CHECK(same, Error::InvalidArgument, "grad_out must have input's shape");
  bool ends = true;
  for (int32_t i = 0; i < nd; ++i) ends = ends && input->size(rank - nd + i) == shape[i];
  TRI_CHECK(ends, Error::InvalidArgument, "input does not end in normalized_shape");
  if (weight != nullptr) {
    bool ws = weight->dim() == nd;
    for (int32_t i = 0; ws && i < nd; ++i) ws = weight->size(i) == shape[i];
    TRI_CHECK(ws, Error::InvalidArgument, "weight must have normalized_shape");
    TRI_TRY(check_dtype(weight->scalar_type(), kFloatHBTypes, "weight"));
  }
  const int32_t axis = rank - nd;
  int64_t rows = 1;
  for (int32_t d = 0; d < axis; ++d) rows *= input->size(d);
  TRI_TRY(check_param(mean, rows, "mean"));
  TRI_TRY(check_param(rstd, rows, "rstd"));
  if (mask[0]) {
    TRI_TRY(check_same_dtype(*dx, input->scalar_type(), "out0"));
    TRI_TRY(resize_out(*dx, input->sizes(), "out0"));
  }
  for (int k = 1; k < 3; ++k) {
    Tensor* t = k == 1 ? dw : db;
    if (!mask[k]) continue;
    TRI_TRY(check_dtype(t->scalar_type(), kFloatHBTypes, k == 1 ? "out1" : "out2"));
    TRI_TRY(resize_out(*t, Span<const int64_t>(shape.data(), shape.size()), k == 1 ? "out1" : "out2"));
  }
  const double one = 1.0;
  const TensorView w = weight != nullptr ? TensorView::of(*weight)
                                         : TensorView::scalar(&one, ScalarType::Double);
  const TensorView x = TensorView::of(*input);
  const TensorView g = TensorView::of(*dy);
  const TensorView o = TensorView::of(*dx);
  // An unrequested parameter grad is a broadcast double that the passes
  // write to harmlessly, so one pass serves every mask.
  double sink_w = 0.0, sink_b = 0.0;
  const TensorView dwv = mask[1] ? TensorView::of(*dw) : TensorView::scalar(&sink_w, ScalarType::Double);
  const TensorView dbv = mask[2] ? TensorView::of(*db) : TensorView::scalar(&sink_b, ScalarType::Double);
  const bool params = mask[1] || mask[2];
  const TensorView block = trailing_view(x, axis, 0);
  const int64_t n = rows == 0 ? 0 : static_cast<int64_t>(input->numel()) / rows;
  if (params) norm_grad_zero(block, dwv, dbv);
  int64_t idx[kTensorDimLimit] = {};
  for (int64_t r = 0; r < rows; ++r) {
    int64_t xo = 0, go = 0, oo = 0;
    for (int32_t d = 0; d < axis; ++d) {
      xo += idx[d] * x.strides[d];
      go += idx[d] * g.strides[d];
      oo += idx[d] * o.strides[d];
    }
    const TensorView xb = trailing_view(x, axis, xo);
    const TensorView gb = trailing_view(g, axis, go);
    const NormStats st{param_at(mean, r, 0), param_at(rstd, r, 0)};
    if (mask[0]) {
      double s1 = 0.0, s2 = 0.0;
      norm_grad_sums(block, xb, gb, w, st, &s1, &s2);
      norm_grad_dx(block, trailing_view(o, axis, oo), xb, gb, w, st, s1 / static_cast<double>(n),
                   s2 / static_cast<double>(n));
    }
    if (params) norm_grad_params(block, dwv, dbv, xb, gb, st);
    for (int32_t d = axis - 1; d >= 0; --d) {
      if (++idx[d] < x.sizes[d]) break;
      idx[d] = 0;
    }
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
