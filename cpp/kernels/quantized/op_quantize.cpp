// quantized_decomposed::quantize_per_tensor.out / .Tensor_out,
// quantize_per_channel.out and quantize_per_token.out: float -> integer
// affine quantization, with PyTorch's reference arithmetic (quant_affine.h).
// Half and BFloat16 inputs are widened to Float (as the reference does);
// Double inputs, which the reference refuses, compute in double.
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/dims.h"
#include "cpp/kernels/util/quant_affine.h"
#include "cpp/kernels/util/quant_args.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

constexpr uint32_t kScaleTypes = kFloatTypes;

// Checks shared by every overload; resizes out.
Error check_quantize(const Tensor& in, int64_t qmin, int64_t qmax, ScalarType dtype,
                     Tensor& out) {
  TRI_TRY(check_dtype(in.scalar_type(), kFloatHBTypes, "input"));
  TRI_TRY(check_quant_bounds(dtype, qmin, qmax));
  TRI_TRY(check_same_dtype(out, dtype, "out"));
  return Error::Ok;
}

Error quantize_tensor(const Tensor& in, double scale, int64_t zero_point, int64_t qmin,
                      int64_t qmax, ScalarType dtype, Tensor& out) {
  TRI_TRY(check_quantize(in, qmin, qmax, dtype, out));
  TRI_TRY(check_scale(scale, "scale"));
  TRI_TRY(resize_out(out, in.sizes()));
  QuantizeSpec spec;
  spec.use_double = in.scalar_type() == ScalarType::Double;
  spec.quant_min = qmin;
  spec.quant_max = qmax;
  spec.scale = scale;
  spec.zero_point = zero_point;
  quantize_affine(TensorView::of(in), TensorView::of(out), spec);
  return Error::Ok;
}

// Per channel and per token: scales/zero points as views over the input.
Error quantize_with_views(const Tensor& in, const Tensor& scales, const TensorView& sv,
                          const TensorView& zv, bool zp_before_round, int64_t qmin,
                          int64_t qmax, Tensor& out) {
  TRI_TRY(check_scales(scales, "scales"));
  TRI_TRY(resize_out(out, in.sizes()));
  QuantizeSpec spec;
  spec.use_double =
      in.scalar_type() == ScalarType::Double || scales.scalar_type() == ScalarType::Double;
  spec.zp_before_round = zp_before_round;
  spec.quant_min = qmin;
  spec.quant_max = qmax;
  spec.scales = &sv;
  spec.zero_points = &zv;
  quantize_affine(TensorView::of(in), TensorView::of(out), spec);
  return Error::Ok;
}

Error quantize_scalar_params(KernelArgs& args, bool as_tensors) {
  PerTensorArgs a;
  TRI_TRY(read_per_tensor_args(args, as_tensors, &a));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(6));
  const QuantRange& r = a.range;
  return quantize_tensor(*a.input, a.scale, a.zero_point, r.qmin, r.qmax, r.dtype, *out);
}

}  // namespace

// (Tensor input, float scale, int zero_point, int quant_min, int quant_max,
//  ScalarType dtype, *, Tensor(a!) out); the .tensor overload takes scale
//  and zero_point as one-element tensors.
Error quantize_per_tensor_out(KernelContext&, KernelArgs& args) {
  return quantize_scalar_params(args, false);
}

Error quantize_per_tensor_tensor_out(KernelContext&, KernelArgs& args) {
  return quantize_scalar_params(args, true);
}

// (Tensor input, Tensor scales, Tensor zero_points, int axis, int quant_min,
//  int quant_max, ScalarType dtype, *, Tensor(a!) out)
Error quantize_per_channel_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* scales, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* zps, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(const int64_t axis, args.int_value(3));
  QuantRange r;
  TRI_TRY(read_quant_range(args, 4, &r));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(7));
  TRI_TRY(check_quantize(*in, r.qmin, r.qmax, r.dtype, *out));
  TRI_CHECK(in->dim() >= 1, Error::InvalidArgument,
            "input: per-channel quantization needs at least one dim, got a 0-dim tensor");
  int32_t ax = 0;
  TRI_TRY(normalize_dim(axis, in->dim(), &ax));
  const TensorView iv = TensorView::of(*in);
  TensorView sv, zv;
  TRI_TRY(channel_param_view(*scales, iv, ax, kScaleTypes, "scales", &sv));
  TRI_TRY(channel_param_view(*zps, iv, ax, kIntTypes, "zero_points", &zv));
  return quantize_with_views(*in, *scales, sv, zv, false, r.qmin, r.qmax, *out);
}

// (Tensor input, Tensor scales, Tensor zero_points, int quant_min,
//  int quant_max, ScalarType dtype, *, Tensor(a!) out)
Error quantize_per_token_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* scales, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* zps, args.tensor(2));
  QuantRange r;
  TRI_TRY(read_quant_range(args, 3, &r));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(6));
  TRI_TRY(check_quantize(*in, r.qmin, r.qmax, r.dtype, *out));
  const TensorView iv = TensorView::of(*in);
  TensorView sv, zv;
  TRI_TRY(token_param_view(*scales, iv, kScaleTypes, "scales", &sv));
  TRI_TRY(token_param_view(*zps, iv, kIntTypes, "zero_points", &zv));
  return quantize_with_views(*in, *scales, sv, zv, true, r.qmin, r.qmax, *out);
}

}  // namespace kernels
}  // namespace tri
