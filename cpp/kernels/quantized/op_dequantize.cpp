// quantized_decomposed::dequantize_per_tensor.out / .Tensor_out,
// dequantize_per_channel.out and dequantize_per_token.out: integer -> float,
// (q - zero_point) * scale with PyTorch's reference arithmetic
// (quant_affine.h). quant_min/quant_max do not enter the computation, but
// are checked against dtype as the reference does.
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
Error check_dequantize(const Tensor& in, int64_t qmin, int64_t qmax, ScalarType dtype,
                       Optional<ScalarType> out_dtype, Tensor& out) {
  TRI_TRY(check_quant_bounds(dtype, qmin, qmax));
  TRI_TRY(check_same_dtype(in, dtype, "input"));
  TRI_TRY(check_dtype(out.scalar_type(), kFloatHBTypes, "out"));
  if (out_dtype.has_value) {
    TRI_TRY(check_same_dtype(out, out_dtype.value, "out"));
  }
  return resize_out(out, in.sizes());
}

Error dequantize_tensor(const Tensor& in, double scale, int64_t zero_point, int64_t qmin,
                        int64_t qmax, ScalarType dtype, Optional<ScalarType> out_dtype,
                        Tensor& out) {
  TRI_TRY(check_dequantize(in, qmin, qmax, dtype, out_dtype, out));
  dequantize_per_tensor(TensorView::of(in), TensorView::of(out), scale, zero_point);
  return Error::Ok;
}

// ExecuTorch added `*, ScalarType? out_dtype=None` to these schemas in 2024;
// programs exported before have one argument fewer (no out_dtype), so the
// table registers them with a variable arity (-1) and this reads either
// layout. `full` is the current layout's count (outs and return included).
Error read_tail(const KernelArgs& args, size_t full, Optional<ScalarType>* out_dtype,
                Tensor** out) {
  const size_t n = args.size();
  TRI_CHECK(n == full || n + 1 == full, Error::InvalidArgument,
            "expected %zu arguments (or %zu without out_dtype), got %zu", full, full - 1, n);
  if (n == full) {
    TRI_ASSIGN_OR_RETURN(*out_dtype, args.optional_scalar_type(full - 3));
  }
  TRI_ASSIGN_OR_RETURN(*out, args.tensor(n - 2));
  return Error::Ok;
}

Error dequantize_scalar_params(KernelArgs& args, bool as_tensors) {
  Optional<ScalarType> out_dtype;
  Tensor* out = nullptr;
  TRI_TRY(read_tail(args, 9, &out_dtype, &out));
  PerTensorArgs a;
  TRI_TRY(read_per_tensor_args(args, as_tensors, &a));
  const QuantRange& r = a.range;
  return dequantize_tensor(*a.input, a.scale, a.zero_point, r.qmin, r.qmax, r.dtype, out_dtype,
                           *out);
}

}  // namespace

// (Tensor input, float scale, int zero_point, int quant_min, int quant_max,
//  ScalarType dtype, *, ScalarType? out_dtype=None, Tensor(a!) out); the
//  .tensor overload takes scale and zero_point as one-element tensors.
Error dequantize_per_tensor_out(KernelContext&, KernelArgs& args) {
  return dequantize_scalar_params(args, false);
}

Error dequantize_per_tensor_tensor_out(KernelContext&, KernelArgs& args) {
  return dequantize_scalar_params(args, true);
}

// (Tensor input, Tensor scales, Tensor? zero_points, int axis, int quant_min,
//  int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None,
//  Tensor(a!) out)
Error dequantize_per_channel_out(KernelContext&, KernelArgs& args) {
  Optional<ScalarType> out_dtype;
  Tensor* out = nullptr;
  TRI_TRY(read_tail(args, 10, &out_dtype, &out));
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* scales, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* zps, args.optional_tensor(2));
  TRI_ASSIGN_OR_RETURN(const int64_t axis, args.int_value(3));
  QuantRange r;
  TRI_TRY(read_quant_range(args, 4, &r));
  TRI_CHECK(in->dim() >= 1, Error::InvalidArgument,
            "input: per-channel dequantization needs at least one dim, got a 0-dim tensor");
  int32_t ax = 0;
  TRI_TRY(normalize_dim(axis, in->dim(), &ax));
  const TensorView iv = TensorView::of(*in);
  TensorView sv, zv;
  TRI_TRY(channel_param_view(*scales, iv, ax, kScaleTypes, "scales", &sv));
  if (zps != nullptr) {
    TRI_TRY(channel_param_view(*zps, iv, ax, kIntTypes, "zero_points", &zv));
  }
  TRI_TRY(check_dequantize(*in, r.qmin, r.qmax, r.dtype, out_dtype, *out));
  dequantize_affine(iv, TensorView::of(*out), sv, zps != nullptr ? &zv : nullptr);
  return Error::Ok;
}

// (Tensor input, Tensor scales, Tensor zero_points, int quant_min,
//  int quant_max, ScalarType dtype, ScalarType output_dtype, *,
//  Tensor(a!) out)
Error dequantize_per_token_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* scales, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* zps, args.tensor(2));
  QuantRange r;
  TRI_TRY(read_quant_range(args, 3, &r));
  TRI_ASSIGN_OR_RETURN(const ScalarType output_dtype, scalar_type_arg(args, 6, "output_dtype"));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(7));
  const TensorView iv = TensorView::of(*in);
  TensorView sv, zv;
  TRI_TRY(token_param_view(*scales, iv, kScaleTypes, "scales", &sv));
  TRI_TRY(token_param_view(*zps, iv, kIntTypes, "zero_points", &zv));
  TRI_TRY(check_dequantize(*in, r.qmin, r.qmax, r.dtype, Optional<ScalarType>{true, output_dtype},
                           *out));
  dequantize_affine(iv, TensorView::of(*out), sv, &zv);
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
