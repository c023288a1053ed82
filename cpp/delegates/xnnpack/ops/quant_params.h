// Reading the quantization of a node's operands: per-channel scales, the
// int8 range a fused output range allows, bf16 block scales.
#pragma once

#include <cstdint>
#include <cstring>

#include "cpp/delegates/xnnpack/xnn_ops.h"

namespace tri::xnnpack {

// Scale of channel `c` of a per-tensor or per-channel quantized value.
inline float channel_scale(const Value& v, size_t c) {
  if (v.quant.scales == nullptr) return v.quant.scale;
  float s;
  memcpy(&s, v.quant.scales + c, sizeof(s));
  return s;
}

// Scale of block `b` of output channel `c` of a QBInt4 filter.
inline float block_scale(const Value& v, size_t c, size_t b, size_t blocks) {
  const size_t i = c * blocks + b;
  if (v.quant.bf16_scales != nullptr) {
    uint16_t h;
    memcpy(&h, v.quant.bf16_scales + i, sizeof(h));
    const uint32_t bits = uint32_t{h} << 16;
    float s;
    memcpy(&s, &bits, sizeof(s));
    return s;
  }
  // fp32 scales (older payloads): ExecuTorch's runtime hands XNNPACK the
  // bf16 it makes of them, scaled up by 1.00389105 then truncated.
  float s;
  memcpy(&s, v.quant.scales + i, sizeof(s));
  s *= 1.00389105f;
  uint32_t bits;
  memcpy(&bits, &s, sizeof(bits));
  bits &= 0xFFFF0000u;
  memcpy(&s, &bits, sizeof(s));
  return s;
}

// The int8 (or uint8) range of a quantized output, narrowed by the node's
// fused output range.
void quantized_output_range(const Node& node, const Value& y, int32_t* qmin, int32_t* qmax);

// Filter element (n, k) of a [n][k] int8 or 4-bit filter, as a signed value
// with the zero point removed for 4-bit types (nibble - 8).
int32_t filter_element(const Value& w, size_t n, size_t k, size_t row_elements);

// Element i of a qint8/quint8 value, and the store of a quantized result.
inline int32_t load_q8(const Value& v, size_t i) {
  return v.dtype == DType::QUInt8 ? static_cast<const uint8_t*>(v.data())[i]
                                  : static_cast<const int8_t*>(v.data())[i];
}
inline void store_q8(Value& v, size_t i, int32_t q) {
  if (v.dtype == DType::QUInt8) {
    static_cast<uint8_t*>(v.data())[i] = static_cast<uint8_t>(q);
  } else {
    static_cast<int8_t*>(v.data())[i] = static_cast<int8_t>(q);
  }
}
// The full range of a qint8 or quint8 value.
inline int32_t q8_min(const Value& v) { return v.dtype == DType::QUInt8 ? 0 : -128; }
inline int32_t q8_max(const Value& v) { return v.dtype == DType::QUInt8 ? 255 : 127; }

// Bias element n of an int32 bias, in the units of an accumulator whose
// scale is `acc_scale` (input scale times filter scale): as stored when the
// exporter used that scale, rescaled otherwise.
int32_t bias_in_accumulator_units(const Value& bias, size_t n, double acc_scale);

// Bytes of [count] T, 16-aligned, for laying out packed blocks.
inline size_t aligned_bytes(size_t count, size_t size) { return (count * size + 15) / 16 * 16; }

}  // namespace tri::xnnpack
