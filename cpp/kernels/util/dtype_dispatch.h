// Dtype sets as compile-time masks (kRealHBTypes, ...), dtype checks with
// clear messages, and dispatch_storage: one switch calling a generic lambda
// with a TypeTag<T> for each storage type in a set.
//
// dispatch_storage instantiates its lambda once per dtype in the set, so it
// is for small, per-call work (checking a value, reading one element). Loops
// over elements do not dispatch on storage types: they run in a compute type
// (convert.h, elementwise.h), which keeps code size linear in the number of
// ops.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/cast.h"
#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/scalar_type.h"

namespace tri {

template <typename T>
struct TypeTag {
  using type = T;
};

constexpr uint32_t dtype_bit(ScalarType t) {
  return uint32_t{1} << static_cast<uint32_t>(t);
}

constexpr uint32_t kIntTypes = dtype_bit(ScalarType::Byte) | dtype_bit(ScalarType::Char) |
                               dtype_bit(ScalarType::Short) | dtype_bit(ScalarType::Int) |
                               dtype_bit(ScalarType::Long);
constexpr uint32_t kFloatTypes = dtype_bit(ScalarType::Float) | dtype_bit(ScalarType::Double);
constexpr uint32_t kReducedFloatTypes =
    dtype_bit(ScalarType::Half) | dtype_bit(ScalarType::BFloat16);
constexpr uint32_t kFloatHBTypes = kFloatTypes | kReducedFloatTypes;
constexpr uint32_t kRealTypes = kIntTypes | kFloatTypes;
constexpr uint32_t kRealHBTypes = kRealTypes | kReducedFloatTypes;
constexpr uint32_t kRealHBBoolTypes = kRealHBTypes | dtype_bit(ScalarType::Bool);
constexpr uint32_t kIndexTypes = dtype_bit(ScalarType::Int) | dtype_bit(ScalarType::Long);
// Every type a tensor can hold and a copy can convert.
constexpr uint32_t kAllTypes = kRealHBBoolTypes | dtype_bit(ScalarType::UInt16) |
                               dtype_bit(ScalarType::UInt32) | dtype_bit(ScalarType::UInt64);

inline bool dtype_in(ScalarType t, uint32_t set) {
  const int v = static_cast<int>(t);
  return v >= 0 && v < 32 && (set & (uint32_t{1} << v)) != 0;
}

// "Float, Double, Half or BFloat16": for messages.
const char* dtype_set_name(uint32_t set);

// Fails with InvalidType, "<what>: dtype Long is not supported (expected ...)",
// unless `t` is in `set`.
Error check_dtype(ScalarType t, uint32_t set, const char* what);

Error unsupported_dtype(ScalarType t);

// Calls f(TypeTag<S>{}) with S the storage type of `t` (Half and BFloat16
// are the structs of half.h). Returns f's Error.
template <uint32_t kSet, typename F>
Error dispatch_storage(ScalarType t, F&& f) {
#define TRI_DISPATCH_CASE(S, T)                          \
  case ScalarType::S:                                    \
    if constexpr ((kSet & dtype_bit(ScalarType::S)) != 0) { \
      return f(TypeTag<T>{});                            \
    }                                                    \
    break;
  switch (t) {
    TRI_DISPATCH_CASE(Bool, bool)
    TRI_DISPATCH_CASE(Byte, uint8_t)
    TRI_DISPATCH_CASE(Char, int8_t)
    TRI_DISPATCH_CASE(Short, int16_t)
    TRI_DISPATCH_CASE(Int, int32_t)
    TRI_DISPATCH_CASE(Long, int64_t)
    TRI_DISPATCH_CASE(UInt16, uint16_t)
    TRI_DISPATCH_CASE(UInt32, uint32_t)
    TRI_DISPATCH_CASE(UInt64, uint64_t)
    TRI_DISPATCH_CASE(Half, Half)
    TRI_DISPATCH_CASE(BFloat16, BFloat16)
    TRI_DISPATCH_CASE(Float, float)
    TRI_DISPATCH_CASE(Double, double)
    default:
      break;
  }
#undef TRI_DISPATCH_CASE
  return unsupported_dtype(t);
}

}  // namespace tri
