// CMSIS-NN's fixed-point arithmetic, as ExecuTorch's Cortex-M backend builds
// it (CMSIS-NN v7.0.0, without CMSIS_NN_USE_SINGLE_ROUNDING): the scalar C
// paths of arm_nnsupportfunctions.h, which its DSP and MVE paths reproduce
// bit for bit. int32 arithmetic wraps where the C code's does.
#pragma once

#include <cstdint>

namespace tri {
namespace cmsis {

constexpr int32_t kQ31Max = INT32_MAX;
constexpr int32_t kQ31Min = INT32_MIN;

inline int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

// arm_nn_doubling_high_mult_no_sat: (m1 * m2 + 2^30) >> 31, the tie rounded
// up (toward +inf), no saturation.
inline int32_t doubling_high_mult_no_sat(int32_t m1, int32_t m2) {
  const int64_t mult = (int64_t{1} << 30) + static_cast<int64_t>(m1) * m2;
  return static_cast<int32_t>(mult >> 31);
}

// arm_nn_doubling_high_mult: the saturating form (ties away from zero;
// INT32_MIN * INT32_MIN saturates), used by softmax.
inline int32_t doubling_high_mult(int32_t m1, int32_t m2) {
  if (m1 == kQ31Min && m2 == kQ31Min) return kQ31Max;
  const int64_t nudge = (m1 < 0) != (m2 < 0) ? 1 - (int64_t{1} << 30) : (int64_t{1} << 30);
  const int64_t p = static_cast<int64_t>(m1) * m2 + nudge;
  return wrap32(p / (int64_t{1} << 31));  // C division: toward zero
}

// arm_nn_divide_by_power_of_two: dividend / 2^exponent, ties away from zero.
inline int32_t divide_by_power_of_two(int32_t dividend, int32_t exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = mask & dividend;
  int32_t result = dividend >> exponent;
  int32_t threshold = mask >> 1;
  if (result < 0) threshold++;
  if (remainder > threshold) result++;
  return result;
}

// arm_nn_requantize (double rounding): val * multiplier * 2^shift, with
// multiplier a Q31 value and shift > 0 a left shift.
inline int32_t requantize(int32_t val, int32_t multiplier, int32_t shift) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift < 0 ? -shift : 0;
  const int32_t v = wrap32(static_cast<int64_t>(val) * (int64_t{1} << left));
  return divide_by_power_of_two(doubling_high_mult_no_sat(v, multiplier), right);
}

// arm_nn_mult_by_power_of_two: a saturating left shift.
inline int32_t mult_by_power_of_two(int32_t v, int32_t exp) {
  const int32_t thresh = static_cast<int32_t>((int64_t{1} << (31 - exp)) - 1);
  if (v > thresh) return kQ31Max;
  if (v < -thresh) return kQ31Min;
  return wrap32(static_cast<int64_t>(v) * (int64_t{1} << exp));
}

// gemmlowp's exp_on_negative_values for Q5.26 input, Q0.31 output.
int32_t exp_on_negative_values(int32_t val);

// gemmlowp's one_over_one_plus_x_for_x_in_0_1 (Newton-Raphson, 3 steps).
int32_t one_over_one_plus_x_for_x_in_0_1(int32_t val);

// arm_nn_softmax_common_s8 over one row of `n` int8 values (output zero
// point -128, scale 1/256; TFLite's beta-scaled multiplier and shift).
void softmax_row_s8(const int8_t* in, int64_t n, int32_t multiplier, int32_t shift,
                    int32_t diff_min, int8_t* out, int64_t out_stride, int64_t in_stride);

}  // namespace cmsis
}  // namespace tri
