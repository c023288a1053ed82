// Convert: quantize (fp32 -> qint8/quint8), dequantize, requantize, and the
// dynamic quantization of qdint8 values: each row (the trailing
// num_nonbatch_dims dims) gets its own scale and zero point from its range,
// with XNNPACK's formula, stored after the row data for the gemm to read.
#include <cinttypes>
#include <cmath>
#include <cstring>

#include "cpp/delegates/xnnpack/ops/quant_params.h"
#include "cpp/kernels/simd/qs8_dot.h"

namespace tri::xnnpack {
namespace {

bool q8(DType d) { return d == DType::QInt8 || d == DType::QUInt8; }

Error check(Node& node, const Value* values) {
  const DType a = in(node, values, 0).dtype;
  const DType b = out(node, values).dtype;
  const bool ok = (a == DType::F32 && (q8(b) || b == DType::QDInt8 || b == DType::F32)) ||
                  (q8(a) && (b == DType::F32 || q8(b)));
  TRI_CHECK(ok, Error::NotSupported, "converting %s to %s is not supported", dtype_name(a),
            dtype_name(b));
  return Error::Ok;
}

Error reshape(const Node& node, Value* values) {
  const Value& x = in(node, values, 0);
  return resize_output(node, values, 0, x.tensor.sizes().data(), x.rank());
}

// XNNPACK's per-row parameters of dynamic int8 quantization.
void row_params(const float* row, size_t n, float* scale, int32_t* zero_point) {
  float lo = 0.0f;
  float hi = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    lo = row[i] < lo ? row[i] : lo;
    hi = row[i] > hi ? row[i] : hi;
  }
  const float m = lo == hi ? 1.0f : 255.0f / (hi - lo);
  const float zp_a = -128.0f - lo * m;
  const float zp_b = 127.0f - hi * m;
  float zp = (-128.0f + lo * m) + (127.0f + hi * m) > 0 ? zp_a : zp_b;
  zp = zp < -128.0f ? -128.0f : (zp > 127.0f ? 127.0f : zp);
  *zero_point = static_cast<int32_t>(std::nearbyint(zp));
  *scale = 1.0f / m;
}

Error run(const Node& node, Value* values, RunContext&) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values);
  const size_t n = x.numel();
  if (x.dtype == DType::F32 && y.dtype == DType::F32) {
    if (y.data() != x.data()) memmove(y.data(), x.data(), n * sizeof(float));
    return Error::Ok;
  }
  if (x.dtype == DType::F32 && y.dtype == DType::QDInt8) {
    size_t rows, row;
    qd8_rows(y, &rows, &row);
    const float* src = x.data_as<const float>();
    int8_t* dst = y.data_as<int8_t>();
    uint8_t* params = static_cast<uint8_t*>(y.data()) + qd8_params_offset(n);
    for (size_t r = 0; r < rows; ++r) {
      float scale;
      int32_t zp;
      row_params(src + r * row, row, &scale, &zp);
      const float m = 1.0f / scale;
      for (size_t i = 0; i < row; ++i) {
        dst[r * row + i] = static_cast<int8_t>(quantize_value(src[r * row + i], m, zp, -128, 127));
      }
      memcpy(params + r * 8, &scale, 4);
      memcpy(params + r * 8 + 4, &zp, 4);
    }
    return Error::Ok;
  }
  if (x.dtype == DType::F32) {
    const float inv = 1.0f / y.quant.scale;
    const float* src = x.data_as<const float>();
    for (size_t i = 0; i < n; ++i) {
      store_q8(y, i, quantize_value(src[i], inv, y.quant.zero_point, q8_min(y), q8_max(y)));
    }
    return Error::Ok;
  }
  if (y.dtype == DType::F32) {
    float* dst = y.data_as<float>();
    for (size_t i = 0; i < n; ++i) {
      dst[i] = static_cast<float>(load_q8(x, i) - x.quant.zero_point) * x.quant.scale;
    }
    return Error::Ok;
  }
  const float scale = x.quant.scale / y.quant.scale;
  for (size_t i = 0; i < n; ++i) {
    store_q8(y, i, requantize(load_q8(x, i) - x.quant.zero_point, scale, y.quant.zero_point,
                              q8_min(y), q8_max(y)));
  }
  return Error::Ok;
}

const OpDef kConvert = {&check, &reshape, nullptr, nullptr, nullptr, &run};

}  // namespace

const OpDef* convert_op_def(NodeType type) {
  return type == NodeType::Convert ? &kConvert : nullptr;
}

}  // namespace tri::xnnpack
