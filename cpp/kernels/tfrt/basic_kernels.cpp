// TFRT's scalar kernels (lib/basic_kernels: integer, float and boolean
// kernels): constants, arithmetic, comparisons, casts and prints. Names,
// operand orders, messages and print formats follow TFRT, because the BEF
// peer tests check them character for character.
#include <cinttypes>
#include <cmath>
#include <limits>

#include "cpp/kernels/tfrt/kernel_util.h"

namespace tri::tfrt_kernels {
namespace {

template <typename T>
void constant(KernelFrame& frame) {
  if (!check_arity(frame, 0, 1, 1)) return;
  T value;
  if (!read_attribute(frame, 0, &value)) return;
  frame.set_result(0, ValueTraits<T>::make(frame.host(), value));
}

template <typename T, typename R, R (*Op)(T, T)>
void binary(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  T a, b;
  if (!read_argument(frame, 0, &a) || !read_argument(frame, 1, &b)) return;
  frame.set_result(0, ValueTraits<R>::make(frame.host(), Op(a, b)));
}

// Integer arithmetic wraps, as the two's-complement hardware TFRT runs on
// does; doing it on unsigned values keeps it defined behaviour in C++.
template <typename T>
T add_int(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}
template <typename T>
T sub_int(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
}
template <typename T>
T mul_int(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
}
template <typename T>
T add_float(T a, T b) { return a + b; }
template <typename T>
T multiply_float(T a, T b) { return a * b; }
template <typename T>
T minimum(T a, T b) { return b < a ? b : a; }
template <typename T>
bool equal(T a, T b) { return a == b; }
template <typename T>
bool less_equal(T a, T b) { return a <= b; }
bool and_i1(bool a, bool b) { return a && b; }

// tfrt.div.<int>: quotient and remainder, "Divide by zero" on zero.
template <typename T>
void div_int(KernelFrame& frame) {
  if (!check_arity(frame, 2, 2)) return;
  T a, b;
  if (!read_argument(frame, 0, &a) || !read_argument(frame, 1, &b)) return;
  if (b == 0) {
    frame.report_error("Divide by zero");
    return;
  }
  T quotient, remainder;
  if (b == -1) {  // min / -1 overflows in C++; wrap like the hardware
    quotient = sub_int<T>(0, a);
    remainder = 0;
  } else {
    quotient = a / b;
    remainder = a % b;
  }
  frame.set_result(0, ValueTraits<T>::make(frame.host(), quotient));
  frame.set_result(1, ValueTraits<T>::make(frame.host(), remainder));
}

template <typename T>
void div_float(KernelFrame& frame) {
  if (!check_arity(frame, 2, 1)) return;
  T a, b;
  if (!read_argument(frame, 0, &a) || !read_argument(frame, 1, &b)) return;
  if (b == 0) {
    frame.report_error("Divide by zero");
    return;
  }
  frame.set_result(0, ValueTraits<T>::make(frame.host(), a / b));
}

// Float to integer casts saturate and map NaN to 0: C++ leaves out-of-range
// conversions undefined, and a file must not be able to trigger that.
template <typename From, typename To>
To cast_value(From v) {
  if constexpr (std::is_floating_point<From>::value && std::is_integral<To>::value) {
    if (std::isnan(v)) return 0;
    if (v <= static_cast<From>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (v >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
  }
  return static_cast<To>(v);
}

template <typename From, typename To>
void cast(KernelFrame& frame) {
  if (!check_arity(frame, 1, 1)) return;
  From v;
  if (!read_argument(frame, 0, &v)) return;
  frame.set_result(0, ValueTraits<To>::make(frame.host(), cast_value<From, To>(v)));
}

// print.<type> %value, %chain -> %chain
template <typename T>
bool print_operands(KernelFrame& frame, T* value) {
  if (!check_arity(frame, 2, 1)) return false;
  return read_argument(frame, 0, value) && check_kind(frame, 1, async::ValueKind::Chain);
}

void print_i1(KernelFrame& frame) {
  bool v;
  if (!print_operands(frame, &v)) return;
  frame.host().print("int1 = %d\n", v ? 1 : 0);
  frame.set_result(0, frame.host().make_chain());
}
void print_i32(KernelFrame& frame) {
  int32_t v;
  if (!print_operands(frame, &v)) return;
  frame.host().print("int32 = %" PRId32 "\n", v);
  frame.set_result(0, frame.host().make_chain());
}
void print_i64(KernelFrame& frame) {
  int64_t v;
  if (!print_operands(frame, &v)) return;
  frame.host().print("int64 = %" PRId64 "\n", v);
  frame.set_result(0, frame.host().make_chain());
}
void print_f32(KernelFrame& frame) {
  float v;
  if (!print_operands(frame, &v)) return;
  frame.host().print("f32 = %f\n", static_cast<double>(v));
  frame.set_result(0, frame.host().make_chain());
}
void print_f64(KernelFrame& frame) {
  double v;
  if (!print_operands(frame, &v)) return;
  frame.host().print("f64 = %f\n", v);
  frame.set_result(0, frame.host().make_chain());
}

const async::KernelEntry kKernels[] = {
    {"tfrt.constant.i1", &constant<bool>},
    {"tfrt.constant.i32", &constant<int32_t>},
    {"tfrt.constant.i64", &constant<int64_t>},
    {"tfrt.constant.f32", &constant<float>},
    {"tfrt.constant.f64", &constant<double>},
    {"tfrt.add.i32", &binary<int32_t, int32_t, add_int<int32_t>>},
    {"tfrt.add.i64", &binary<int64_t, int64_t, add_int<int64_t>>},
    {"tfrt.add.f32", &binary<float, float, add_float<float>>},
    {"tfrt.add.f64", &binary<double, double, add_float<double>>},
    {"tfrt.minus.i32", &binary<int32_t, int32_t, sub_int<int32_t>>},
    {"tfrt.minus.i64", &binary<int64_t, int64_t, sub_int<int64_t>>},
    {"tfrt.mul.i32", &binary<int32_t, int32_t, mul_int<int32_t>>},
    {"tfrt.mul.i64", &binary<int64_t, int64_t, mul_int<int64_t>>},
    {"tfrt.multiply.f32", &binary<float, float, multiply_float<float>>},
    {"tfrt.multiply.f64", &binary<double, double, multiply_float<double>>},
    {"tfrt.minimum.f32", &binary<float, float, minimum<float>>},
    {"tfrt.minimum.f64", &binary<double, double, minimum<double>>},
    {"tfrt.equal.i32", &binary<int32_t, bool, equal<int32_t>>},
    {"tfrt.equal.i64", &binary<int64_t, bool, equal<int64_t>>},
    {"tfrt.lessequal.i32", &binary<int32_t, bool, less_equal<int32_t>>},
    {"tfrt.lessequal.i64", &binary<int64_t, bool, less_equal<int64_t>>},
    {"tfrt.and.i1", &binary<bool, bool, and_i1>},
    {"tfrt.div.i32", &div_int<int32_t>},
    {"tfrt.div.i64", &div_int<int64_t>},
    {"tfrt.div.f32", &div_float<float>},
    {"tfrt.div.f64", &div_float<double>},
    {"tfrt.cast.i64_to_f32", &cast<int64_t, float>},
    {"tfrt.cast.f32_to_i64", &cast<float, int64_t>},
    {"tfrt.cast.i64_to_f64", &cast<int64_t, double>},
    {"tfrt.cast.f64_to_i64", &cast<double, int64_t>},
    {"tfrt.print.i1", &print_i1},
    {"tfrt.print.i32", &print_i32},
    {"tfrt.print.i64", &print_i64},
    {"tfrt.print.f32", &print_f32},
    {"tfrt.print.f64", &print_f64},
};

}  // namespace

void register_basic_kernels() { async::register_kernels(kKernels); }

}  // namespace tri::tfrt_kernels
