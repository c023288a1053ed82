// The one-input nodes: activations and math (Sigmoid, Tanh, Gelu, ELU,
// LeakyReLU, Hardswish, Exp, Log, Sqrt, ...), Clamp and Softmax. Float32
// values run the shared library's ATen kernels (resolved at load, with their
// SIMD paths); qint8/quint8 values are dequantized into scratch, run the
// same kernel and are requantized to the output's parameters.
#include <cinttypes>

#include "cpp/delegates/xnnpack/ops/library_call.h"
#include "cpp/delegates/xnnpack/ops/quant_params.h"
#include "cpp/kernels/simd/qs8_dot.h"
#include "cpp/kernels/util/gemm_f4.h"

namespace tri::xnnpack {
namespace {

const char* kernel_name(NodeType type) {
  switch (type) {
    case NodeType::Abs: return "aten::abs.out";
    case NodeType::Negate: return "aten::neg.out";
    case NodeType::Square: return "aten::mul.out";
    case NodeType::SquareRoot: return "aten::sqrt.out";
    case NodeType::ReciprocalSquareRoot: return "aten::rsqrt.out";
    case NodeType::Ceiling: return "aten::ceil.out";
    case NodeType::Floor: return "aten::floor.out";
    case NodeType::Exp: return "aten::exp.out";
    case NodeType::Log: return "aten::log.out";
    case NodeType::Sigmoid: return "aten::sigmoid.out";
    case NodeType::Tanh: return "aten::tanh.out";
    case NodeType::Sin: return "aten::sin.out";
    case NodeType::Cos: return "aten::cos.out";
    case NodeType::Gelu:
    case NodeType::ApproxGelu: return "aten::gelu.out";
    case NodeType::Hardswish: return "aten::hardswish.out";
    case NodeType::ELU: return "aten::elu.out";
    case NodeType::LeakyReLU: return "aten::leaky_relu.out";
    case NodeType::Softmax: return "aten::_softmax.out";
    default: return nullptr;  // Clamp: computed here
  }
}

bool quantized8(DType d) { return d == DType::QInt8 || d == DType::QUInt8; }

Error check(Node& node, const Value* values) {
  const Value& x = in(node, values, 0);
  const Value& y = out(node, values);
  if (x.dtype == DType::F32) {
    TRI_TRY(expect_dtype(node, y, "output", DType::F32));
  } else {
    TRI_CHECK(quantized8(x.dtype) && y.dtype == x.dtype, Error::NotSupported,
              "%s of %s into %s is not supported", node_type_name(node.type), dtype_name(x.dtype),
              dtype_name(y.dtype));
  }
  if (node.type == NodeType::Softmax) {
    TRI_CHECK(x.rank() >= 1, Error::InvalidProgram, "softmax of a scalar");
  }
  const char* name = kernel_name(node.type);
  return name != nullptr ? bind_library_kernel(node, name) : Error::Ok;
}

Error reshape(const Node& node, Value* values) {
  const Value& x = in(node, values, 0);
  return resize_output(node, values, 0, x.tensor.sizes().data(), x.rank());
}

// Float32 x -> y (both Float tensors of one shape).
Error run_f32(const Node& node, Tensor& x, Tensor& y, RunContext& ctx) {
  if (node.type == NodeType::Clamp) {
    const float* in_data = x.data_ptr<const float>();
    float* out_data = y.data_ptr<float>();
    const size_t n = x.numel();
    const F4 lo = f4_splat(node.out_min);
    const F4 hi = f4_splat(node.out_max);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) f4_store(out_data + i, f4_clamp(f4_load(in_data + i), lo, hi));
    for (; i < n; ++i) out_data[i] = f4_lane_min(f4_lane_max(in_data[i], node.out_min), node.out_max);
    return Error::Ok;
  }
  EValue args[6];
  const EValue vx = EValue::from_tensor(&x);
  const EValue vy = EValue::from_tensor(&y);
  switch (node.type) {
    case NodeType::Square:
      args[0] = vx, args[1] = vx, args[2] = vy, args[3] = vy;
      return call_library_kernel(node, ctx, args, 4);
    case NodeType::Gelu:
      args[0] = vx, args[1] = string_value("none", 4), args[2] = vy, args[3] = vy;
      return call_library_kernel(node, ctx, args, 4);
    case NodeType::ApproxGelu:
      args[0] = vx, args[1] = string_value("tanh", 4), args[2] = vy, args[3] = vy;
      return call_library_kernel(node, ctx, args, 4);
    case NodeType::ELU:
      args[0] = vx, args[1] = EValue::from_double(node.params.scalar.value);
      args[2] = EValue::from_double(1.0), args[3] = EValue::from_double(1.0);
      args[4] = vy, args[5] = vy;
      return call_library_kernel(node, ctx, args, 6);
    case NodeType::LeakyReLU:
      args[0] = vx, args[1] = EValue::from_double(node.params.scalar.value), args[2] = vy,
      args[3] = vy;
      return call_library_kernel(node, ctx, args, 4);
    case NodeType::Softmax:
      args[0] = vx, args[1] = EValue::from_int(x.dim() - 1), args[2] = EValue::from_bool(false);
      args[3] = vy, args[4] = vy;
      return call_library_kernel(node, ctx, args, 5);
    default:
      args[0] = vx, args[1] = vy, args[2] = vy;
      return call_library_kernel(node, ctx, args, 3);
  }
}

size_t scratch_bytes(const Node& node, const Value* values) {
  const Value& x = in(node, values, 0);
  return x.dtype == DType::F32 ? 0 : 2 * (x.numel() * sizeof(float) + 64);
}

Error run(const Node& node, Value* values, RunContext& ctx) {
  Value& x = in(node, values, 0);
  Value& y = out(node, values);
  if (x.dtype == DType::F32) return run_f32(node, x.tensor, y.tensor, ctx);
  // Quantized: through float, in scratch taken before the kernel runs (the
  // kernel's own scratch is what is left).
  const size_t n = x.numel();
  float* fx = ctx.scratch->allocate_array<float>(n);
  float* fy = ctx.scratch->allocate_array<float>(n);
  TRI_CHECK(fx != nullptr && fy != nullptr, Error::MemoryAllocationFailed,
            "no scratch to compute %zu quantized elements in float", n);
  for (size_t i = 0; i < n; ++i) {
    fx[i] = static_cast<float>(load_q8(x, i) - x.quant.zero_point) * x.quant.scale;
  }
  Tensor tx;
  Tensor ty;
  TRI_TRY(tx.init(ScalarType::Float, x.tensor.sizes(), {}, fx, n * sizeof(float), ShapeDynamism::Static));
  TRI_TRY(ty.init(ScalarType::Float, x.tensor.sizes(), {}, fy, n * sizeof(float), ShapeDynamism::Static));
  TRI_TRY(run_f32(node, tx, ty, ctx));
  int32_t qmin, qmax;
  quantized_output_range(node, y, &qmin, &qmax);
  if (node.type != NodeType::Clamp) {
    qmin = q8_min(y);
    qmax = q8_max(y);
  }
  const float inv = 1.0f / y.quant.scale;
  for (size_t i = 0; i < n; ++i) {
    store_q8(y, i, quantize_value(fy[i], inv, y.quant.zero_point, qmin, qmax));
  }
  return Error::Ok;
}

const OpDef kUnary = {&check, &reshape, &scratch_bytes, nullptr, nullptr, &run};

}  // namespace

const OpDef* unary_op_def(NodeType type) {
  switch (type) {
    case NodeType::Clamp:
    case NodeType::Abs:
    case NodeType::Negate:
    case NodeType::Square:
    case NodeType::SquareRoot:
    case NodeType::ReciprocalSquareRoot:
    case NodeType::Ceiling:
    case NodeType::Floor:
    case NodeType::Exp:
    case NodeType::Log:
    case NodeType::Sigmoid:
    case NodeType::Tanh:
    case NodeType::Sin:
    case NodeType::Cos:
    case NodeType::Gelu:
    case NodeType::ApproxGelu:
    case NodeType::Hardswish:
    case NodeType::ELU:
    case NodeType::LeakyReLU:
    case NodeType::Softmax: return &kUnary;
    default: return nullptr;
  }
}

}  // namespace tri::xnnpack
