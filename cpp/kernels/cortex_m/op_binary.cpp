// cortex_m::quantized_add, quantized_mul, quantized_div, minimum, maximum
// and quantized_activation: int8 elementwise ops (CMSIS-NN's
// arm_elementwise_add_s8 / _mul_s8 / arm_minimum_s8 / arm_maximum_s8 and the
// backend's own div and LUT). Operands broadcast NumPy-style, which covers
// the backend's channel broadcast ([1, C, 1, 1] against [N, C, H, W]).
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/cortex_m/act4.h"
#include "cpp/kernels/cortex_m/cmsis_nn.h"
#include "cpp/kernels/cortex_m/elementwise.h"
#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

using cmsis::requantize;
using cortex_m::check_shift;

int32_t clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// The layout mul and div share: (self, self_zero_point, other,
// other_zero_point, output_zero_point, output_multiplier, output_shift, out).
struct ProductArgs {
  Tensor* a = nullptr;
  Tensor* b = nullptr;
  Tensor* out = nullptr;
  int64_t zp1 = 0, zp2 = 0, zpo = 0, mo = 0, so = 0;
};

Error read_product(KernelArgs& args, ProductArgs* p) {
  TRI_ASSIGN_OR_RETURN(p->a, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(p->zp1, args.int_value(1));
  TRI_ASSIGN_OR_RETURN(p->b, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(p->zp2, args.int_value(3));
  TRI_ASSIGN_OR_RETURN(p->zpo, args.int_value(4));
  TRI_ASSIGN_OR_RETURN(p->mo, args.int_value(5));
  TRI_ASSIGN_OR_RETURN(p->so, args.int_value(6));
  TRI_ASSIGN_OR_RETURN(p->out, args.tensor(7));
  return check_shift(p->so, "output_shift");
}

Error check_int8_pair(const Tensor& a, const Tensor& b, Tensor& out) {
  TRI_TRY(check_same_dtype(a, ScalarType::Char, "self"));
  TRI_TRY(check_same_dtype(b, ScalarType::Char, "other"));
  TRI_TRY(check_same_dtype(out, ScalarType::Char, "out"));
  return cortex_m::resize_broadcast(a, b, out);
}

}  // namespace

Error cortex_m_quantized_add_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* a, args.tensor(0));
  int64_t p[12];
  for (size_t i = 0; i < 3; ++i) {
    TRI_ASSIGN_OR_RETURN(p[i], args.int_value(1 + i));
  }
  TRI_ASSIGN_OR_RETURN(Tensor* b, args.tensor(4));
  for (size_t i = 3; i < 11; ++i) {
    TRI_ASSIGN_OR_RETURN(p[i], args.int_value(2 + i));
  }
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(13));
  TRI_TRY(check_shift(p[2], "self_shift"));
  TRI_TRY(check_shift(p[5], "other_shift"));
  TRI_TRY(check_shift(p[8], "output_shift"));
  TRI_TRY(check_int8_pair(*a, *b, *out));
  const int32_t zp1 = static_cast<int32_t>(p[0]), m1 = static_cast<int32_t>(p[1]),
                s1 = static_cast<int32_t>(p[2]), zp2 = static_cast<int32_t>(p[3]),
                m2 = static_cast<int32_t>(p[4]), s2 = static_cast<int32_t>(p[5]),
                zpo = static_cast<int32_t>(p[6]), mo = static_cast<int32_t>(p[7]),
                so = static_cast<int32_t>(p[8]), lo = static_cast<int32_t>(p[9]),
                hi = static_cast<int32_t>(p[10]);
  // CMSIS-NN shifts both inputs left by 20 before rescaling them.
  const int32_t left_shift = 20;
  const Tensor* const ins[2] = {a, b};
  cortex_m::for_each_element<2>(*out, ins, [&](char* const* q) {
    const int32_t x1 = requantize(cmsis::wrap32(static_cast<int64_t>(*reinterpret_cast<const int8_t*>(q[1]) - zp1) * (int64_t{1} << left_shift)), m1, s1);
    const int32_t x2 = requantize(cmsis::wrap32(static_cast<int64_t>(*reinterpret_cast<const int8_t*>(q[2]) - zp2) * (int64_t{1} << left_shift)), m2, s2);
    const int32_t r = requantize(cmsis::wrap32(static_cast<int64_t>(x1) + x2), mo, so) + zpo;
    *reinterpret_cast<int8_t*>(q[0]) = static_cast<int8_t>(clamp(r, lo, hi));
  });
  return Error::Ok;
}

Error cortex_m_quantized_mul_out(KernelContext&, KernelArgs& args) {
  ProductArgs p;
  TRI_TRY(read_product(args, &p));
  Tensor* const a = p.a;
  Tensor* const b = p.b;
  Tensor* const out = p.out;
  const int64_t zp1 = p.zp1, zp2 = p.zp2, zpo = p.zpo, mo = p.mo, so = p.so;
  TRI_TRY(check_int8_pair(*a, *b, *out));
  const Tensor* const ins[2] = {a, b};
  cortex_m::for_each_element<2>(*out, ins, [&](char* const* q) {
    const int32_t x = *reinterpret_cast<const int8_t*>(q[1]) - static_cast<int32_t>(zp1);
    const int32_t y = *reinterpret_cast<const int8_t*>(q[2]) - static_cast<int32_t>(zp2);
    const int32_t r = requantize(cmsis::wrap32(static_cast<int64_t>(x) * y), static_cast<int32_t>(mo),
                                 static_cast<int32_t>(so)) + static_cast<int32_t>(zpo);
    *reinterpret_cast<int8_t*>(q[0]) = static_cast<int8_t>(clamp(r, -128, 127));
  });
  return Error::Ok;
}

// The backend's float division: (a - zp1) / (b - zp2) (0 for a zero
// divisor) times multiplier * 2^(shift - 31), rounded half away from zero.
// int8 or int16, same dtype throughout.
Error cortex_m_quantized_div_out(KernelContext&, KernelArgs& args) {
  ProductArgs p;
  TRI_TRY(read_product(args, &p));
  Tensor* const a = p.a;
  Tensor* const b = p.b;
  Tensor* const out = p.out;
  const int64_t zp1 = p.zp1, zp2 = p.zp2, zpo = p.zpo, mo = p.mo, so = p.so;
  const ScalarType t = a->scalar_type();
  TRI_CHECK(t == ScalarType::Char || t == ScalarType::Short, Error::InvalidType,
            "self must be int8 or int16, got %s", scalar_type_name(t));
  TRI_TRY(check_same_dtype(*b, t, "other"));
  TRI_TRY(check_same_dtype(*out, t, "out"));
  TRI_TRY(cortex_m::resize_broadcast(*a, *b, *out));
  const float scale = std::ldexp(static_cast<float>(mo) / 2147483648.0f, static_cast<int>(so));
  const int32_t lo = t == ScalarType::Char ? -128 : -32768;
  const int32_t hi = t == ScalarType::Char ? 127 : 32767;
  const bool wide = t == ScalarType::Short;
  const Tensor* const ins[2] = {a, b};
  cortex_m::for_each_element<2>(*out, ins, [&](char* const* q) {
    const int32_t x = (wide ? *reinterpret_cast<const int16_t*>(q[1]) : *reinterpret_cast<const int8_t*>(q[1])) -
                      static_cast<int32_t>(zp1);
    const int32_t y = (wide ? *reinterpret_cast<const int16_t*>(q[2]) : *reinterpret_cast<const int8_t*>(q[2])) -
                      static_cast<int32_t>(zp2);
    const float quotient = y != 0 ? static_cast<float>(x) / static_cast<float>(y) : 0.0f;
    double r = std::round(static_cast<double>(quotient * scale)) + static_cast<double>(zpo);
    r = r < lo ? lo : (r > hi ? hi : r);
    if (wide) {
      *reinterpret_cast<int16_t*>(q[0]) = static_cast<int16_t>(r);
    } else {
      *reinterpret_cast<int8_t*>(q[0]) = static_cast<int8_t>(r);
    }
  });
  return Error::Ok;
}

namespace {

template <bool kMax>
Error min_max(KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* a, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* b, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_int8_pair(*a, *b, *out));
  const Tensor* const ins[2] = {a, b};
  cortex_m::for_each_element<2>(*out, ins, [](char* const* q) {
    const int8_t x = *reinterpret_cast<const int8_t*>(q[1]);
    const int8_t y = *reinterpret_cast<const int8_t*>(q[2]);
    *reinterpret_cast<int8_t*>(q[0]) = kMax ? (x > y ? x : y) : (x < y ? x : y);
  });
  return Error::Ok;
}

}  // namespace

Error cortex_m_maximum_out(KernelContext&, KernelArgs& args) { return min_max<true>(args); }
Error cortex_m_minimum_out(KernelContext&, KernelArgs& args) { return min_max<false>(args); }

// out[i] = lut[in[i] + 128] (an int8 activation function as a table).
Error cortex_m_quantized_activation_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* in, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* lut, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(2));
  TRI_TRY(check_same_dtype(*in, ScalarType::Char, "input"));
  TRI_TRY(check_same_dtype(*out, ScalarType::Char, "out"));
  TRI_CHECK(lut->scalar_type() == ScalarType::Char && lut->numel() == 256 && lut->is_contiguous(),
            Error::InvalidArgument, "lut must be 256 contiguous int8 values");
  TRI_TRY(resize_out(*out, in->sizes()));
  const int8_t* table = static_cast<const int8_t*>(lut->data());
  const Tensor* const ins[1] = {in};
  cortex_m::for_each_element<1>(*out, ins, [&](char* const* q) {
    *reinterpret_cast<int8_t*>(q[0]) = table[*reinterpret_cast<const int8_t*>(q[1]) + 128];
  });
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
