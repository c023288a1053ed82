// cortex_m::quantize_per_tensor.out and dequantize_per_tensor.out (float32
// <-> int8), as the backend's kernels compute them: quantize in float32,
// q = zero_point + nearbyint(x * (1.0f / scale)) clamped to the quant range;
// dequantize (float)(q - zero_point) * (float)scale.
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/cortex_m/elementwise.h"
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

struct QArgs {
  double scale = 1;
  int64_t zero_point = 0, qmin = 0, qmax = 0, dtype = 0;
};

Error read_q(KernelArgs& args, QArgs* q) {
  TRI_ASSIGN_OR_RETURN(q->scale, args.double_value(1));
  TRI_ASSIGN_OR_RETURN(q->zero_point, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(q->qmin, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(q->qmax, args.int_value(4));
  TRI_ASSIGN_OR_RETURN(q->dtype, args.int_value(5));
  TRI_CHECK(q->dtype == static_cast<int64_t>(ScalarType::Char), Error::InvalidArgument,
            "dtype must be int8 (1), got %" PRId64, q->dtype);
  TRI_CHECK(q->qmin >= -128 && q->qmax <= 127 && q->qmin <= q->qmax, Error::InvalidArgument,
            "quant range [%" PRId64 ", %" PRId64 "] is not within int8", q->qmin, q->qmax);
  TRI_CHECK(std::isfinite(q->scale) && q->scale > 0, Error::InvalidArgument,
            "scale must be positive and finite, got %g", q->scale);
  return Error::Ok;
}

}  // namespace

Error cortex_m_quantize_per_tensor_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  QArgs q;
  TRI_TRY(read_q(args, &q));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(6));
  TRI_TRY(check_same_dtype(*in, ScalarType::Float, "input"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Char, "out"));
  TRI_TRY(resize_out(*out, in->sizes()));
  const float inv = 1.0f / static_cast<float>(q.scale);
  const Tensor* const ins[1] = {in};
  cortex_m::for_each_element<1>(*out, ins, [&](char* const* p) {
    const float r = std::nearbyint(*reinterpret_cast<const float*>(p[1]) * inv);
    // Clamped before converting: NaN or a huge product would not fit int32.
    double v = std::isnan(r) ? 0.0 : static_cast<double>(r) + static_cast<double>(q.zero_point);
    v = v < static_cast<double>(q.qmin) ? static_cast<double>(q.qmin)
                                        : (v > static_cast<double>(q.qmax) ? static_cast<double>(q.qmax) : v);
    *reinterpret_cast<int8_t*>(p[0]) = static_cast<int8_t>(v);
  });
  return Error::Ok;
}

Error cortex_m_dequantize_per_tensor_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  QArgs q;
  TRI_TRY(read_q(args, &q));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(6));
  TRI_TRY(check_same_dtype(*in, ScalarType::Char, "input"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Float, "out"));
  TRI_TRY(resize_out(*out, in->sizes()));
  const float scale = static_cast<float>(q.scale);
  const int32_t zp = static_cast<int32_t>(q.zero_point);
  const Tensor* const ins[1] = {in};
  cortex_m::for_each_element<1>(*out, ins, [&](char* const* p) {
    const int32_t v = *reinterpret_cast<const int8_t*>(p[1]);
    *reinterpret_cast<float*>(p[0]) = static_cast<float>(v - zp) * scale;
  });
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
