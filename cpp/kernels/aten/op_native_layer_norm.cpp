// aten::native_layer_norm.out: normalizes over the trailing
// `normalized_shape` dims of input; out1 / out2 (mean, rstd) have input's
// leading sizes and 1 for each normalized dim. The variance is biased.
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/norm_affine.h"
#include "cpp/kernels/util/norm_args.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

template <typename C>
void layer_norm(const TensorView& x, const TensorView& out, const TensorView& mean,
                const TensorView& rstd, int32_t axis, double eps, const TensorView* w,
                const TensorView* b) {
  int64_t idx[kTensorDimLimit] = {};
  int64_t rows = 1;
  for (int32_t d = 0; d < axis; ++d) rows *= x.sizes[d];
  for (int64_t r = 0; r < rows; ++r) {
    int64_t xo = 0, oo = 0, mo = 0, ro = 0;
    for (int32_t d = 0; d < axis; ++d) {
      xo += idx[d] * x.strides[d];
      oo += idx[d] * out.strides[d];
      mo += idx[d] * mean.strides[d];
      ro += idx[d] * rstd.strides[d];
    }
    const TensorView xb = trailing_view(x, axis, xo);
    double m = 0;
    double var = 0;
    moments(xb, &m, &var);
    const double rs = rstd_of(var, eps);
    store_one<double>(mean.type, m, static_cast<char*>(mean.data) + mo * static_cast<int64_t>(mean.element_size()));
    store_one<double>(rstd.type, rs, static_cast<char*>(rstd.data) + ro * static_cast<int64_t>(rstd.element_size()));
    affine_apply<C>(trailing_view(out, axis, oo), xb, static_cast<C>(rs), static_cast<C>(-rs * m), w,
                    b);
    for (int32_t d = axis - 1; d >= 0; --d) {
      if (++idx[d] < x.sizes[d]) break;
      idx[d] = 0;
    }
  }
}

// Row-major Float input, out, mean and rstd, weight and bias both Float and
// contiguous or both absent: rows of contiguous floats, without the strided
// walks (the transformer layer's two layer norms, 128 rows of 256: 0.05 ->
// 0.02 ms each).
bool layer_norm_rows_f32(const TensorView& x, const TensorView& out, const TensorView& mean,
                         const TensorView& rstd, int32_t axis, double eps, const Tensor* weight,
                         const Tensor* bias) {
  const auto contiguous_float = [](const TensorView& v) {
    return v.type == ScalarType::Float && v.is_row_major();
  };
  if (!contiguous_float(x) || !contiguous_float(out) || !contiguous_float(mean) ||
      !contiguous_float(rstd) || (weight == nullptr) != (bias == nullptr)) {
    return false;
  }
  if (weight != nullptr && (!contiguous_float(TensorView::of(*weight)) ||
                            !contiguous_float(TensorView::of(*bias)))) {
    return false;
  }
  int64_t rows = 1;
  for (int32_t d = 0; d < axis; ++d) rows *= x.sizes[d];
  const int64_t n = x.numel() / (rows == 0 ? 1 : rows);
  if (n == 0) return false;
  const float* w = weight != nullptr ? static_cast<const float*>(weight->mutable_data()) : nullptr;
  const float* b = bias != nullptr ? static_cast<const float*>(bias->mutable_data()) : nullptr;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = static_cast<const float*>(x.data) + r * n;
    double m = 0;
    double var = 0;
    moments_f32(xr, n, &m, &var);
    const double rs = rstd_of(var, eps);
    static_cast<float*>(mean.data)[r] = static_cast<float>(m);
    static_cast<float*>(rstd.data)[r] = static_cast<float>(rs);
    affine_f32_row(static_cast<float*>(out.data) + r * n, xr, n, static_cast<float>(rs),
                   static_cast<float>(-rs * m), w, b);
  }
  return true;
}

}  // namespace

Error native_layer_norm_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> shape, args.int_list(1));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.optional_tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* bias, args.optional_tensor(3));
  TRI_ASSIGN_OR_RETURN(const double eps, args.double_value(4));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(5));
  TRI_ASSIGN_OR_RETURN(Tensor* mean, args.tensor(6));
  TRI_ASSIGN_OR_RETURN(Tensor* rstd, args.tensor(7));
  const int32_t rank = input->dim();
  const int32_t nd = static_cast<int32_t>(shape.size());
  TRI_CHECK(nd >= 1, Error::InvalidArgument,
            "expected normalized_shape to be at least 1-dimensional, got []");
  TRI_TRY(check_dtype(input->scalar_type(), kFloatHBTypes, "input"));
  TRI_TRY(check_same_dtype(*out, input->scalar_type(), "out"));
  bool shape_ok = nd <= rank;
  for (int32_t i = 0; shape_ok && i < nd; ++i) shape_ok = input->size(rank - nd + i) == shape[i];
  TRI_CHECK(shape_ok, Error::InvalidArgument,
            "input of rank %d does not end in normalized_shape (%d dims, first %" PRId64 ")",
            rank, nd, shape[0]);
  const Tensor* params[] = {weight, bias};
  const char* names[] = {"weight", "bias"};
  for (int k = 0; k < 2; ++k) {
    const Tensor* p = params[k];
    if (p == nullptr) continue;
    TRI_TRY(check_dtype(p->scalar_type(), kFloatHBTypes, names[k]));
    bool same = p->dim() == nd;
    for (int32_t i = 0; same && i < nd; ++i) same = p->size(i) == shape[i];
    TRI_CHECK(same, Error::InvalidArgument,
              "expected %s to be of same shape as normalized_shape (rank %d), got rank %d",
              names[k], nd, p->dim());
  }
  const int32_t axis = rank - nd;
  int64_t stat_shape[kTensorDimLimit];
  for (int32_t d = 0; d < rank; ++d) stat_shape[d] = d < axis ? input->size(d) : 1;
  TRI_TRY(resize_stat(*mean, Span<const int64_t>(stat_shape, rank), "out1"));
  TRI_TRY(resize_stat(*rstd, Span<const int64_t>(stat_shape, rank), "out2"));
  TRI_TRY(resize_out(*out, input->sizes(), "out0"));
  // A missing weight is 1, a missing bias 0 (a broadcast single value).
  const float one = 1.0f, zero = 0.0f;
  TensorView w = weight != nullptr ? TensorView::of(*weight) : TensorView::scalar(&one, ScalarType::Float);
  TensorView b = bias != nullptr ? TensorView::of(*bias) : TensorView::scalar(&zero, ScalarType::Float);
  const bool affine = weight != nullptr || bias != nullptr;
  const TensorView x = TensorView::of(*input);
  const TensorView o = TensorView::of(*out);
  const TensorView m = TensorView::of(*mean);
  const TensorView r = TensorView::of(*rstd);
  if (layer_norm_rows_f32(x, o, m, r, axis, eps, weight, bias)) return Error::Ok;
  if (input->scalar_type() == ScalarType::Double) {
    layer_norm<double>(x, o, m, r, axis, eps, affine ? &w : nullptr, affine ? &b : nullptr);
  } else {
    layer_norm<float>(x, o, m, r, axis, eps, affine ? &w : nullptr, affine ? &b : nullptr);
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
