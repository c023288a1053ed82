// The element loops of affine quantization, following the arithmetic of
// PyTorch's quantized_decomposed reference (torch/ao/quantization/fx/
// _decomposed.py) step by step, since its dtype promotions decide the
// results at rounding ties:
//   quantize:   q = clamp(round(x * inv) + zp, qmin, qmax)   (per tensor, channel)
//               q = clamp(round(x * inv + zp), qmin, qmax)   (per token)
//   dequantize: x = (q - zp) * scale
// Values are walked with NdIter (any strides, out's memory order); per-channel
// and per-token parameters come as broadcast views (quant_args.h).
#pragma once

#include <cstdint>

#include "cpp/kernels/util/tensor_view.h"

namespace tri {

struct QuantizeSpec {
  // Compute in double (else float): a Double input, or per-channel/per-token
  // Double scales (dim tensors promote; a per-tensor Python float does not).
  bool use_double = false;
  // Per token: the zero point is added before rounding.
  bool zp_before_round = false;
  int64_t quant_min = 0;
  int64_t quant_max = 0;
  // Per tensor (scales == nullptr): 1 / scale is taken in double, then
  // converted to the compute type.
  double scale = 1;
  int64_t zero_point = 0;
  // Per channel / token: views over the input's shape. 1 / scale is taken in
  // the scales' own precision (Float: float division), as `1.0 / scales`.
  const TensorView* scales = nullptr;
  const TensorView* zero_points = nullptr;
};

// out (an integral view of in's shape) = quantized in. NaN quantizes as 0
// would (clamped); values beyond the range saturate to quant_min/quant_max
// (PyTorch's float-to-int conversion is undefined there).
void quantize_affine(const TensorView& in, const TensorView& out, const QuantizeSpec& spec);

// Per tensor: (q.to(out_dtype) - zero_point) * scale in out's dtype, rounding
// Half/BFloat16 after each step as ATen does.
void dequantize_per_tensor(const TensorView& in, const TensorView& out, double scale,
                           int64_t zero_point);

// Per channel / token: (q - zp) in int64, times the scale in the scales'
// precision, then converted to out. zero_points may be nullptr (0).
void dequantize_affine(const TensorView& in, const TensorView& out, const TensorView& scales,
                       const TensorView* zero_points);

}  // namespace tri
