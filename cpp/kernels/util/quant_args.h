// Argument checks shared by the quantized_decomposed kernels: the quantized
// dtypes and their quant_min/quant_max bounds, ScalarType arguments, and the
// per-channel / per-token parameter tensors seen as views broadcast over the
// input, so the element loops (quant_affine.h) need no channel arithmetic.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/tensor_view.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {

// The dtypes quantized values are stored in (PyTorch's _INTEGER_DTYPES).
constexpr uint32_t kQuantTypes = dtype_bit(ScalarType::Byte) | dtype_bit(ScalarType::Char) |
                                 dtype_bit(ScalarType::Short) | dtype_bit(ScalarType::Int) |
                                 dtype_bit(ScalarType::UInt16);

// A required `ScalarType` argument.
Result<ScalarType> scalar_type_arg(const KernelArgs& args, size_t i, const char* what);

// `dtype` is a quantized dtype and quant_min >= its lowest value and
// quant_max <= its highest (the only bounds PyTorch checks; quant_min >
// quant_max is allowed and clamps everything to quant_max, as clamp does).
Error check_quant_bounds(ScalarType dtype, int64_t quant_min, int64_t quant_max);

// A scale that quantizing divides by: finite and > 0.
Error check_scale(double scale, const char* what);

// The single value of a one-element `scale` / `zero_point` tensor argument
// (the .Tensor overloads, like Tensor.item()).
Error scalar_param(const Tensor& t, bool floating, const char* what, double* d, int64_t* i);

// The parameter `param` (one value per channel along `axis` of `in`, any
// shape with a single non-1 dim) as a view over `in`'s shape: stride 0
// except along `axis`. Checks numel and dtype (`dtypes`).
Error channel_param_view(const Tensor& param, const TensorView& in, int32_t axis,
                         uint32_t dtypes, const char* what, TensorView* view);

// The parameter `param` (one value per token: every index of `in` but the
// last dim, in row-major order) as a view over `in`'s shape: stride 0 along
// the last dim. `param` must be row-major (e.g. [..., 1] or [tokens]).
Error token_param_view(const Tensor& param, const TensorView& in, uint32_t dtypes,
                       const char* what, TensorView* view);

// quant_min, quant_max and dtype: the run of three arguments at `i` that
// every quantize and dequantize overload has.
struct QuantRange {
  int64_t qmin = 0;
  int64_t qmax = 0;
  ScalarType dtype = ScalarType::Byte;
};
Error read_quant_range(const KernelArgs& args, size_t i, QuantRange* range);

// (input, scale, zero_point, quant_min, quant_max, dtype) of the
// per_tensor overloads: scale and zero_point are a float and an int, or
// one-element tensors (the .tensor overloads).
struct PerTensorArgs {
  Tensor* input = nullptr;
  double scale = 0;
  int64_t zero_point = 0;
  QuantRange range;
};
Error read_per_tensor_args(const KernelArgs& args, bool as_tensors, PerTensorArgs* a);

// Every value of a scales tensor is finite and > 0.
Error check_scales(const Tensor& scales, const char* what);

}  // namespace tri
