#include "cpp/delegates/xnnpack/ops/quant_params.h"

#include <cmath>

namespace tri::xnnpack {

void quantized_output_range(const Node& node, const Value& y, int32_t* qmin, int32_t* qmax) {
  int32_t lo = y.dtype == DType::QUInt8 ? 0 : -128;
  int32_t hi = y.dtype == DType::QUInt8 ? 255 : 127;
  const float scale = y.quant.scale;
  const int32_t zp = y.quant.zero_point;
  if (node.has_out_range) {
    if (std::isfinite(node.out_min)) {
      const float q = std::nearbyint(node.out_min / scale) + static_cast<float>(zp);
      if (q > static_cast<float>(lo)) lo = q >= static_cast<float>(hi) ? hi : static_cast<int32_t>(q);
    }
    if (std::isfinite(node.out_max)) {
      const float q = std::nearbyint(node.out_max / scale) + static_cast<float>(zp);
      if (q < static_cast<float>(hi)) hi = q <= static_cast<float>(lo) ? lo : static_cast<int32_t>(q);
    }
  }
  *qmin = lo;
  *qmax = hi;
}

int32_t bias_in_accumulator_units(const Value& bias, size_t n, double acc_scale) {
  const int32_t q = bias.data_as<const int32_t>()[n];
  const double bias_scale = channel_scale(bias, n);
  if (bias_scale == acc_scale) return q;
  // Scales far apart would overflow the accumulator: saturate. (In double,
  // products and ratios of finite positive float scales stay finite.)
  const double v = std::nearbyint(static_cast<double>(q) * bias_scale / acc_scale);
  return v >= 2147483647.0 ? INT32_MAX : (v <= -2147483648.0 ? INT32_MIN : static_cast<int32_t>(v));
}

int32_t filter_element(const Value& w, size_t n, size_t k, size_t row_elements) {
  const uint8_t* bytes = static_cast<const uint8_t*>(w.data());
  if (w.dtype == DType::QCInt4 || w.dtype == DType::QBInt4) {
    const uint8_t b = bytes[n * ((row_elements + 1) / 2) + k / 2];
    const int32_t nibble = (k % 2 == 0) ? (b & 0x0F) : (b >> 4);
    return nibble - 8;
  }
  return static_cast<int32_t>(reinterpret_cast<const int8_t*>(bytes)[n * row_elements + k]);
}

}  // namespace tri::xnnpack
