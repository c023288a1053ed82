#include "cpp/kernels/util/dtype_dispatch.h"

#include <cstdio>

namespace tri {

const char* dtype_set_name(uint32_t set) {
  struct Named {
    uint32_t set;
    const char* name;
  };
  static const Named kNames[] = {
      {kFloatTypes, "Float or Double"},
      {kFloatHBTypes, "Float, Double, Half or BFloat16"},
      {kIntTypes, "an integer type"},
      {kIndexTypes, "Long or Int"},
      {dtype_bit(ScalarType::Long), "Long"},
      {dtype_bit(ScalarType::Bool), "Bool"},
      {kRealTypes, "a real type (integers, Float, Double)"},
      {kRealHBTypes, "a real type (integers, Float, Double, Half, BFloat16)"},
      {kRealHBBoolTypes, "a real type or Bool"},
      {kAllTypes, "a non-quantized, non-complex type"},
  };
  for (const Named& n : kNames) {
    if (n.set == set) {
      return n.name;
    }
  }
  return "another dtype";
}

Error check_dtype(ScalarType t, uint32_t set, const char* what) {
  TRI_CHECK(dtype_in(t, set), Error::InvalidType,
            "%s: dtype %s is not supported (expected %s)", what,
            scalar_type_name(t), dtype_set_name(set));
  return Error::Ok;
}

Error unsupported_dtype(ScalarType t) {
  return fail(Error::InvalidType, "dtype %s is not supported here",
              scalar_type_name(t));
}

}  // namespace tri
