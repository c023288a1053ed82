#include "cpp/kernels/util/type_promotion.h"

namespace tri {
namespace {

// Row/column order of the promotion table.
constexpr ScalarType kOrder[] = {
    ScalarType::Byte,  ScalarType::Char,   ScalarType::Short,
    ScalarType::Int,   ScalarType::Long,   ScalarType::Half,
    ScalarType::Float, ScalarType::Double, ScalarType::Bool,
    ScalarType::BFloat16,
};
constexpr int kNumOrdered = 10;

int order_index(ScalarType t) {
  for (int i = 0; i < kNumOrdered; ++i) {
    if (kOrder[i] == t) {
      return i;
    }
  }
  return -1;
}

constexpr ScalarType u1 = ScalarType::Byte, i1 = ScalarType::Char,
                     i2 = ScalarType::Short, i4 = ScalarType::Int,
                     i8 = ScalarType::Long, f2 = ScalarType::Half,
                     f4 = ScalarType::Float, f8 = ScalarType::Double,
                     b1 = ScalarType::Bool, bf = ScalarType::BFloat16;

// kPromote[a][b], in kOrder order. Symmetric.
constexpr ScalarType kPromote[kNumOrdered][kNumOrdered] = {
    /*        u1  i1  i2  i4  i8  f2  f4  f8  b1  bf */
    /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, u1, bf},
    /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, i1, bf},
    /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, i2, bf},
    /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, i4, bf},
    /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, i8, bf},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, f2, f4},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, f4, f4},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
    /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, b1, bf},
    /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, bf, bf},
};

bool is_unsigned_wide(ScalarType t) {
  return t == ScalarType::UInt16 || t == ScalarType::UInt32 ||
         t == ScalarType::UInt64;
}

// ATen's combine_categories: `higher` is the higher-priority tier.
ScalarType combine(ScalarType higher, ScalarType lower) {
  if (higher == kUndefinedType) {
    return lower;
  }
  if (lower == kUndefinedType || is_floating_type(higher)) {
    return higher;
  }
  if (higher == ScalarType::Bool || is_floating_type(lower)) {
    return promote_types(higher, lower);
  }
  return higher;
}

}  // namespace

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == b) {
    return a;
  }
  if (a == kUndefinedType) {
    return b;
  }
  if (b == kUndefinedType) {
    return a;
  }
  if (is_unsigned_wide(a) || is_unsigned_wide(b)) {
    if (a == ScalarType::Bool) {
      return b;
    }
    if (b == ScalarType::Bool) {
      return a;
    }
    return kUndefinedType;
  }
  const int ia = order_index(a);
  const int ib = order_index(b);
  if (ia < 0 || ib < 0) {
    return kUndefinedType;
  }
  return kPromote[ia][ib];
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating_type(from) && is_integral_type(to, /*include_bool=*/false)) {
    return false;
  }
  if (from != ScalarType::Bool && to == ScalarType::Bool) {
    return false;
  }
  return true;
}

void ResultType::update(ScalarType* slot, ScalarType t) {
  const ScalarType p = promote_types(*slot, t);
  if (p == kUndefinedType && bad_a_ == kUndefinedType) {
    bad_a_ = *slot;
    bad_b_ = t;
  }
  *slot = p;
}

ResultType& ResultType::add(const Tensor& t) {
  update(t.dim() > 0 ? &dim_ : &zero_dim_, t.scalar_type());
  return *this;
}

ResultType& ResultType::add(const Scalar& s) {
  const ScalarType t = s.tag == Tag::Double ? ScalarType::Float
                       : s.tag == Tag::Bool ? ScalarType::Bool
                                            : ScalarType::Long;
  update(&wrapped_, t);
  return *this;
}

Error ResultType::get(ScalarType* out) const {
  TRI_CHECK(bad_a_ == kUndefinedType, Error::InvalidType,
            "dtypes %s and %s have no common dtype (type promotion)",
            scalar_type_name(bad_a_), scalar_type_name(bad_b_));
  const ScalarType r = combine(dim_, combine(zero_dim_, wrapped_));
  TRI_CHECK(r != kUndefinedType, Error::InvalidType,
            "no common dtype for these operands (type promotion)");
  *out = r;
  return Error::Ok;
}

Error check_can_cast(ScalarType common, ScalarType out) {
  TRI_CHECK(can_cast(common, out), Error::InvalidType,
            "result type %s can't be cast to the desired output type %s",
            scalar_type_name(common), scalar_type_name(out));
  return Error::Ok;
}

}  // namespace tri
