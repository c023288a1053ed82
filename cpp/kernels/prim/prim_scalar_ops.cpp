// executorch_prim scalar arithmetic on Int and Double EValues, as emitted for
// symbolic sizes. Arguments are [a, b, result] (or [a, result]); the result
// EValue is written into the last slot. Int op Int stays Int (wrapping);
// a Double on either side makes the result Double. floordiv and mod follow
// Python (round toward -inf; the remainder takes b's sign) and integer
// division by zero is an error.
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/floor_div.h"

namespace tri {
namespace kernels {
namespace {

enum class Op { Add, Sub, Mul, FloorDiv, TrueDiv, Mod, Max, Min };
enum class Cmp { Eq, Gt, Lt, Ge, Le };

Error set_result(KernelArgs& args, size_t i, const EValue& v) {
  TRI_ASSIGN_OR_RETURN(EValue* const slot, args.slot(i));
  *slot = v;
  return Error::Ok;
}

Error read_number(KernelArgs& args, size_t i, Scalar* s) {
  TRI_ASSIGN_OR_RETURN(*s, args.scalar(i));
  TRI_CHECK(!s->is_bool(), Error::InvalidType, "argument %zu: expected Int or Double, got Bool", i);
  return Error::Ok;
}

Error binary(KernelArgs& args, Op op) {
  Scalar a;
  Scalar b;
  TRI_TRY(read_number(args, 0, &a));
  TRI_TRY(read_number(args, 1, &b));
  if (a.tag == Tag::Int && b.tag == Tag::Int && op != Op::TrueDiv) {
    const int64_t x = a.i;
    const int64_t y = b.i;
    TRI_CHECK(y != 0 || (op != Op::FloorDiv && op != Op::Mod), Error::InvalidArgument,
              "integer division or modulo by zero (%" PRId64 " and 0)", x);
    int64_t r = 0;
    switch (op) {
      case Op::Add: r = arith_add(x, y); break;
      case Op::Sub: r = arith_sub(x, y); break;
      case Op::Mul: r = arith_mul(x, y); break;
      case Op::FloorDiv: r = floor_div(x, y); break;
      case Op::Mod: r = python_mod(x, y); break;
      case Op::Max: r = x > y ? x : y; break;
      case Op::Min: r = x < y ? x : y; break;
      case Op::TrueDiv: break;
    }
    return set_result(args, 2, EValue::from_int(r));
  }
  const double x = a.as_double();
  const double y = b.as_double();
  double r = 0;
  switch (op) {
    case Op::Add: r = x + y; break;
    case Op::Sub: r = x - y; break;
    case Op::Mul: r = x * y; break;
    case Op::TrueDiv: r = x / y; break;
    case Op::FloorDiv: r = y == 0 ? (std::signbit(x) ? -INFINITY : INFINITY) : floor_div(x, y); break;
    case Op::Mod: r = python_mod(x, y); break;
    case Op::Max: r = x > y ? x : y; break;
    case Op::Min: r = x < y ? x : y; break;
  }
  return set_result(args, 2, EValue::from_double(r));
}

template <typename T>
bool compare(Cmp cmp, T x, T y) {
  switch (cmp) {
    case Cmp::Eq: return x == y;
    case Cmp::Gt: return x > y;
    case Cmp::Lt: return x < y;
    case Cmp::Ge: return x >= y;
    case Cmp::Le: return x <= y;
  }
  return false;
}

Error comparison(KernelArgs& args, Cmp cmp) {
  TRI_ASSIGN_OR_RETURN(const Scalar a, args.scalar(0));
  TRI_ASSIGN_OR_RETURN(const Scalar b, args.scalar(1));
  TRI_CHECK(a.is_bool() == b.is_bool(), Error::InvalidType,
            "cannot compare %s with %s", tag_name(a.tag), tag_name(b.tag));
  bool r;
  if (a.is_bool()) {
    r = compare<int>(cmp, a.b, b.b);
  } else if (a.tag == Tag::Int && b.tag == Tag::Int) {
    r = compare(cmp, a.i, b.i);
  } else {
    r = compare(cmp, a.as_double(), b.as_double());
  }
  return set_result(args, 2, EValue::from_bool(r));
}

// Rounds half to even, like Python's round().
double round_half_even(double v) {
  const double r = std::round(v);
  if (std::fabs(r - v) == 0.5) {
    return 2.0 * std::round(v / 2.0);
  }
  return r;
}

template <typename Fn>
Error to_int(KernelArgs& args, Fn fn) {
  TRI_ASSIGN_OR_RETURN(const Scalar a, args.scalar(0));
  if (a.tag == Tag::Int) {
    return set_result(args, 1, EValue::from_int(a.i));
  }
  TRI_CHECK(a.tag == Tag::Double, Error::InvalidType, "expected Int or Double, got %s",
            tag_name(a.tag));
  const double r = fn(a.d);
  TRI_CHECK(std::isfinite(r) && std::fabs(r) < 9.2e18, Error::InvalidArgument,
            "%g cannot be converted to an integer", a.d);
  return set_result(args, 1, EValue::from_int(static_cast<int64_t>(r)));
}

}  // namespace

Error prim_add_scalar(KernelContext&, KernelArgs& a) { return binary(a, Op::Add); }
Error prim_sub_scalar(KernelContext&, KernelArgs& a) { return binary(a, Op::Sub); }
Error prim_mul_scalar(KernelContext&, KernelArgs& a) { return binary(a, Op::Mul); }
Error prim_floordiv_scalar(KernelContext&, KernelArgs& a) { return binary(a, Op::FloorDiv); }
Error prim_floordiv_int(KernelContext&, KernelArgs& a) { return binary(a, Op::FloorDiv); }
Error prim_truediv_scalar(KernelContext&, KernelArgs& a) { return binary(a, Op::TrueDiv); }
Error prim_mod_scalar(KernelContext&, KernelArgs& a) { return binary(a, Op::Mod); }
Error prim_mod_int(KernelContext&, KernelArgs& a) { return binary(a, Op::Mod); }
Error prim_sym_max_scalar(KernelContext&, KernelArgs& a) { return binary(a, Op::Max); }
Error prim_sym_min_scalar(KernelContext&, KernelArgs& a) { return binary(a, Op::Min); }
Error prim_eq_scalar(KernelContext&, KernelArgs& a) { return comparison(a, Cmp::Eq); }
Error prim_gt_scalar(KernelContext&, KernelArgs& a) { return comparison(a, Cmp::Gt); }
Error prim_lt_scalar(KernelContext&, KernelArgs& a) { return comparison(a, Cmp::Lt); }
Error prim_ge_scalar(KernelContext&, KernelArgs& a) { return comparison(a, Cmp::Ge); }
Error prim_le_scalar(KernelContext&, KernelArgs& a) { return comparison(a, Cmp::Le); }

Error prim_neg_scalar(KernelContext&, KernelArgs& args) {
  Scalar a;
  TRI_TRY(read_number(args, 0, &a));
  return set_result(args, 1, a.tag == Tag::Int ? EValue::from_int(arith_neg(a.i))
                                               : EValue::from_double(-a.d));
}

Error prim_sym_float_scalar(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(const Scalar a, args.scalar(0));
  return set_result(args, 1, EValue::from_double(a.as_double()));
}

Error prim_ceil_scalar(KernelContext&, KernelArgs& a) {
  return to_int(a, [](double v) { return std::ceil(v); });
}
Error prim_round_scalar(KernelContext&, KernelArgs& a) { return to_int(a, round_half_even); }
Error prim_trunc_scalar(KernelContext&, KernelArgs& a) {
  return to_int(a, [](double v) { return std::trunc(v); });
}

}  // namespace kernels
}  // namespace tri
