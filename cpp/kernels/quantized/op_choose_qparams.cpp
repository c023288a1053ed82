// quantized_decomposed::choose_qparams.Tensor_out and
// choose_qparams_per_token_asymmetric.out: scale and zero point from the
// input's range, as PyTorch's reference (determine_qparams, affine; and the
// per-token XNNPACK-style formula). ExecuTorch's own choose_qparams kernel
// uses a different (fbgemm) formula and ignores eps; this follows PyTorch,
// which is what an exported program was validated against.
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/cast.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/nd_iter.h"
#include "cpp/kernels/util/quant_args.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

constexpr int64_t kChunk = 256;

// torch.min / torch.max / clamp propagate NaN.
template <typename C>
C nan_min(C a, C b) { return (a != a || b != b) ? (a != a ? a : b) : (b < a ? b : a); }
template <typename C>
C nan_max(C a, C b) { return (a != a || b != b) ? (a != a ? a : b) : (b > a ? b : a); }

// Min and max of a strided row of n elements of `type`.
template <typename C>
void row_min_max(ScalarType type, const char* p, int64_t stride, int64_t n, C* mn, C* mx) {
  C buf[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    load_row<C>(type, p + i * stride, stride, m, buf);
    for (int64_t k = 0; k < m; ++k) {
      *mn = nan_min(*mn, buf[k]);
      *mx = nan_max(*mx, buf[k]);
    }
  }
}

Error check_qparam_outs(Tensor& scale_out, Tensor& zp_out) {
  TRI_TRY(check_dtype(scale_out.scalar_type(), kFloatTypes, "scale_out"));
  TRI_TRY(check_dtype(zp_out.scalar_type(), kIndexTypes, "zero_point_out"));
  return Error::Ok;
}

// zero_point = clamp(qmin - round(min_neg / scale), qmin, qmax), in int64
// (NaN counts as 0; the subtraction saturates).
int64_t affine_zero_point(float min_neg, float scale, int64_t qmin, int64_t qmax) {
  const float t = min_neg / scale;
  const int64_t r = float_to_integral<int64_t>(std::nearbyint(t));
  int64_t zp = 0;
  if (__builtin_sub_overflow(qmin, r, &zp)) zp = r > 0 ? INT64_MIN : INT64_MAX;
  zp = zp < qmin ? qmin : zp;
  return zp > qmax ? qmax : zp;
}

template <typename C>
void per_token_qparams(C mn, C mx, double* scale_out, int64_t* zp_out) {
  const C qmin = -128, qmax = 127;
  // torch.finfo(torch.float32).eps, whatever the input's dtype.
  const C eps = static_cast<C>(1.1920928955078125e-07);
  mn = nan_min(mn, C(0));
  mx = nan_max(mx, C(0));
  const C range = mx - mn;
  C scale = range / C(255);
  scale = nan_max(scale, eps);
  const C dmin = mn / scale;
  const C dmax = mx / scale;
  const C from_min = qmin + dmin;
  const C from_max = qmax + dmax;
  const C sum = from_min + from_max;
  C zp = sum > 0 ? qmin - dmin : qmax - dmax;
  zp = nan_min(nan_max(zp, qmin), qmax);
  *scale_out = static_cast<double>(scale);
  *zp_out = float_to_integral<int64_t>(std::nearbyint(zp));
}

template <typename C>
void per_token_rows(const TensorView& in, const TensorView& sv, const TensorView& zv) {
  const int32_t rank = in.dim;
  const int32_t outer = rank > 0 ? rank - 1 : 0;
  const int64_t n = rank > 0 ? in.sizes[rank - 1] : 1;
  const int64_t stride = rank > 0 ? in.strides[rank - 1] : 0;
  const int64_t es = static_cast<int64_t>(in.element_size());
  int64_t tokens = 1;
  for (int32_t d = 0; d < outer; ++d) tokens *= in.sizes[d];
  int64_t pos[kTensorDimLimit] = {};
  for (int64_t t = 0; t < tokens; ++t) {
    int64_t ioff = 0, soff = 0, zoff = 0;
    for (int32_t d = 0; d < outer; ++d) {
      ioff += pos[d] * in.strides[d];
      soff += pos[d] * sv.strides[d];
      zoff += pos[d] * zv.strides[d];
    }
    const char* row = static_cast<const char*>(in.data) + ioff * es;
    C mn = load_one<C>(in.type, row);
    C mx = mn;
    row_min_max<C>(in.type, row, stride * es, n, &mn, &mx);
    double scale = 0;
    int64_t zp = 0;
    per_token_qparams<C>(mn, mx, &scale, &zp);
    store_one<double>(sv.type, scale,
                      static_cast<char*>(sv.data) + soff * static_cast<int64_t>(sv.element_size()));
    store_one<int64_t>(zv.type, zp,
                       static_cast<char*>(zv.data) + zoff * static_cast<int64_t>(zv.element_size()));
    for (int32_t d = outer - 1; d >= 0; --d) {
      if (++pos[d] < in.sizes[d]) break;
      pos[d] = 0;
    }
  }
}

}  // namespace

// (Tensor input, int quant_min, int quant_max, float eps, ScalarType dtype,
//  *, Tensor(a!) scale_out, Tensor(b!) zero_point_out) -> (Tensor, Tensor)
Error choose_qparams_tensor_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const int64_t qmin, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(const int64_t qmax, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(const double eps, args.double_value(3));
  TRI_ASSIGN_OR_RETURN(const ScalarType dtype, scalar_type_arg(args, 4, "dtype"));
  TRI_ASSIGN_OR_RETURN(Tensor* scale_out, args.tensor(5));
  TRI_ASSIGN_OR_RETURN(Tensor* zp_out, args.tensor(6));
  TRI_TRY(check_dtype(in->scalar_type(), dtype_bit(ScalarType::Float), "input"));
  TRI_TRY(check_dtype(dtype, kQuantTypes, "dtype"));
  TRI_CHECK(qmin <= 0 && 0 <= qmax, Error::InvalidArgument,
            "[quant_min, quant_max] = [%" PRId64 ", %" PRId64 "] must include 0", qmin, qmax);
  TRI_CHECK(qmin < qmax, Error::InvalidArgument,
            "quant_min %" PRId64 " must be less than quant_max %" PRId64, qmin, qmax);
  TRI_CHECK(in->numel() > 0, Error::InvalidArgument,
            "input: cannot choose qparams of an empty tensor (aminmax has no identity)");
  TRI_TRY(check_qparam_outs(*scale_out, *zp_out));
  const TensorView iv = TensorView::of(*in);
  const TensorView* ops[1] = {&iv};
  const NdIter it(iv.sizes, iv.dim, ops, 1);
  float mn = load_one<float>(iv.type, iv.data);
  float mx = mn;
  it.for_each_row([&](char* const* p, const int64_t* s, int64_t n) {
    row_min_max<float>(iv.type, p[0], s[0], n, &mn, &mx);
  });
  TRI_CHECK(mn == mn && mx == mx, Error::InvalidArgument,
            "input: contains NaN, which has no quantization range");
  const int64_t one[1] = {1};
  TRI_TRY(resize_out(*scale_out, Span<const int64_t>(one, 1), "scale_out"));
  TRI_TRY(resize_out(*zp_out, Span<const int64_t>(one, 1), "zero_point_out"));
  const float min_neg = mn < 0 ? mn : 0.0f;
  const float max_pos = mx > 0 ? mx : 0.0f;
  // float(quant_max - quant_min) of the exact difference (< 2^64 as
  // quant_min <= 0 <= quant_max), then float32 like the tensor it divides.
  const uint64_t levels = static_cast<uint64_t>(qmax) - static_cast<uint64_t>(qmin);
  const float denom = static_cast<float>(static_cast<double>(levels));
  const float range = max_pos - min_neg;
  float scale = range / denom;
  scale = nan_max(scale, static_cast<float>(eps));
  store_one<double>(scale_out->scalar_type(), static_cast<double>(scale), scale_out->mutable_data());
  store_one<int64_t>(zp_out->scalar_type(), affine_zero_point(min_neg, scale, qmin, qmax),
                     zp_out->mutable_data());
  return Error::Ok;
}

// (Tensor input, ScalarType dtype, *, Tensor(a!) scale_out,
//  Tensor(b!) zero_point_out) -> (Tensor, Tensor)
// The reference uses [-128, 127] whatever dtype says.
Error choose_qparams_per_token_asymmetric_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const ScalarType dtype, scalar_type_arg(args, 1, "dtype"));
  TRI_ASSIGN_OR_RETURN(Tensor* scale_out, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* zp_out, args.tensor(3));
  (void)dtype;
  TRI_TRY(check_dtype(in->scalar_type(), kFloatTypes, "input"));
  TRI_TRY(check_qparam_outs(*scale_out, *zp_out));
  const int32_t rank = in->dim();
  TRI_CHECK(rank == 0 || in->size(rank - 1) > 0, Error::InvalidArgument,
            "input: the last dim has size 0, so tokens have no range");
  int64_t shape[kTensorDimLimit];
  int32_t out_rank = rank;
  for (int32_t d = 0; d + 1 < rank; ++d) shape[d] = in->size(d);
  if (rank > 0) {
    shape[rank - 1] = 1;
  } else if (scale_out->dim() == 1) {
    // A 0-dim input: eager PyTorch gives 0-dim params, the op's meta
    // function [1]; take whichever the program planned.
    shape[0] = 1;
    out_rank = 1;
  }
  TRI_TRY(resize_out(*scale_out, Span<const int64_t>(shape, out_rank), "scale_out"));
  TRI_TRY(resize_out(*zp_out, Span<const int64_t>(shape, out_rank), "zero_point_out"));
  const TensorView iv = TensorView::of(*in);
  const TensorView sv = TensorView::of(*scale_out);
  const TensorView zv = TensorView::of(*zp_out);
  if (iv.type == ScalarType::Double) {
    per_token_rows<double>(iv, sv, zv);
  } else {
    per_token_rows<float>(iv, sv, zv);
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
