#include "cpp/kernels/cortex_m/cmsis_nn.h"

namespace tri {
namespace cmsis {

int32_t exp_on_negative_values(int32_t val) {
  const int32_t shift = 24;
  const int32_t val_mod_minus_quarter = wrap32(static_cast<int64_t>(val & ((1 << shift) - 1)) - (1 << shift));
  const int32_t remainder = wrap32(static_cast<int64_t>(val_mod_minus_quarter) - val);
  const int32_t x = wrap32(static_cast<int64_t>(val_mod_minus_quarter) * 32 + (1 << 28));
  const int32_t x2 = doubling_high_mult(x, x);
  const int32_t op1 = divide_by_power_of_two(doubling_high_mult(x2, x2), 2);
  const int32_t op2 = doubling_high_mult(wrap32(static_cast<int64_t>(op1) + doubling_high_mult(x2, x)),
                                         715827883);
  const int32_t op3 = divide_by_power_of_two(wrap32(static_cast<int64_t>(op2) + x2), 1);
  int32_t result = wrap32(1895147668 + static_cast<int64_t>(doubling_high_mult(
                                           1895147668, wrap32(static_cast<int64_t>(x) + op3))));
  static const int32_t kBarrel[7] = {1672461947, 1302514674, 790015084, 290630308,
                                     39332535,   720401,     242};
  for (int32_t k = 0; k < 7; ++k) {
    if (remainder & (1 << (shift + k))) result = doubling_high_mult(result, kBarrel[k]);
  }
  return val == 0 ? kQ31Max : result;
}

int32_t one_over_one_plus_x_for_x_in_0_1(int32_t val) {
  const int64_t sum = static_cast<int64_t>(val) + kQ31Max;
  const int32_t half_denominator = static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
  int32_t x = wrap32(1515870810 + static_cast<int64_t>(doubling_high_mult(half_denominator, -1010580540)));
  const int32_t one_half = 1 << 29;
  for (int32_t i = 0; i < 3; ++i) {
    const int32_t e = wrap32(static_cast<int64_t>(one_half) - doubling_high_mult(half_denominator, x));
    x = wrap32(static_cast<int64_t>(x) + mult_by_power_of_two(doubling_high_mult(x, e), 2));
  }
  return mult_by_power_of_two(x, 1);
}

namespace {

int32_t clz32(uint32_t v) {
  if (v == 0) return 32;
  int32_t n = 0;
  while ((v & 0x80000000u) == 0) {
    v <<= 1;
    ++n;
  }
  return n;
}

}  // namespace

void softmax_row_s8(const int8_t* in, int64_t n, int32_t multiplier, int32_t shift,
                    int32_t diff_min, int8_t* out, int64_t out_stride, int64_t in_stride) {
  const int32_t accum_bits = 12;
  const int32_t mask = static_cast<int32_t>(int64_t{1} << shift);
  int32_t max = -128;
  for (int64_t i = 0; i < n; ++i) max = in[i * in_stride] > max ? in[i * in_stride] : max;
  int32_t sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t diff = in[i * in_stride] - max;
    if (diff >= diff_min) {
      const int32_t e = exp_on_negative_values(doubling_high_mult(wrap32(static_cast<int64_t>(diff) * mask), multiplier));
      sum = wrap32(static_cast<int64_t>(sum) + divide_by_power_of_two(e, accum_bits));
    }
  }
  const int32_t headroom = clz32(static_cast<uint32_t>(sum));
  const uint32_t shifted_sum = sum > 0 ? static_cast<uint32_t>(sum) << headroom : 0u;
  const int32_t shifted_scale =
      one_over_one_plus_x_for_x_in_0_1(static_cast<int32_t>(shifted_sum - 0x80000000u));
  const int32_t bits_over_unit = accum_bits - headroom + 23;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t diff = in[i * in_stride] - max;
    int32_t r = -128;
    if (diff >= diff_min) {
      const int32_t e = exp_on_negative_values(doubling_high_mult(wrap32(static_cast<int64_t>(diff) * mask), multiplier));
      r = divide_by_power_of_two(doubling_high_mult(shifted_scale, e), bits_over_unit) - 128;
      r = r < -128 ? -128 : (r > 127 ? 127 : r);
    }
    out[i * out_stride] = static_cast<int8_t>(r);
  }
}

}  // namespace cmsis
}  // namespace tri
