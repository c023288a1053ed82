#include "cpp/kernels/util/fill.h"

#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstring>

#include "cpp/kernels/util/arith.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"

namespace tri {
namespace {

template <typename T>
bool fits(const Scalar& s) {
  if constexpr (std::is_same<T, bool>::value) {
    return true;
  } else if constexpr (std::is_integral<T>::value) {
    if (s.tag == Tag::Double) {
      if (!std::isfinite(s.d)) return false;
      return s.d >= static_cast<double>(std::numeric_limits<T>::lowest()) - 1.0 &&
             s.d <= static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
    }
    const int64_t v = s.as_int();
    if (std::is_unsigned<T>::value) {
      // ATen lets a negative value wrap into an unsigned type (e.g. -1 -> 255).
      return v >= -static_cast<int64_t>(std::numeric_limits<T>::max()) - 1 &&
             (sizeof(T) == 8 || v <= static_cast<int64_t>(std::numeric_limits<T>::max()));
    }
    return v >= static_cast<int64_t>(std::numeric_limits<T>::lowest()) &&
           v <= static_cast<int64_t>(std::numeric_limits<T>::max());
  } else {
    const double d = s.as_double();
    const double limit = std::is_same<T, Half>::value       ? 65504.0
                         : std::is_same<T, BFloat16>::value ? 3.3895313892515355e38
                         : std::is_same<T, float>::value    ? static_cast<double>(FLT_MAX)
                                                            : DBL_MAX;
    return !std::isfinite(d) || std::fabs(d) <= limit;
  }
}

}  // namespace

Error check_scalar_fits(const Scalar& value, ScalarType type) {
  bool ok = true;
  TRI_TRY(dispatch_storage<kAllTypes>(type, [&](auto tag) {
    ok = fits<typename decltype(tag)::type>(value);
    return Error::Ok;
  }));
  if (!ok) {
    if (value.tag == Tag::Double) {
      return fail(Error::InvalidArgument,
                  "value %g cannot be converted to type %s without overflow", value.d,
                  scalar_type_name(type));
    }
    return fail(Error::InvalidArgument,
                "value %" PRId64 " cannot be converted to type %s without overflow",
                value.as_int(), scalar_type_name(type));
  }
  return Error::Ok;
}

namespace {

template <typename Bits>
void fill_bits(void* data, size_t n, const void* value) {
  Bits v;
  std::memcpy(&v, value, sizeof(v));
  Bits* d = static_cast<Bits*>(data);
  for (size_t i = 0; i < n; ++i) d[i] = v;
}

}  // namespace

void fill_scalar(Tensor& out, const Scalar& value) {
  // A tensor without broadcast strides covers numel() consecutive elements
  // whatever its dim order, so the fill is one flat loop over the bits of
  // the converted value.
  alignas(8) unsigned char bits[8] = {};
  scalar_to_bytes(value, out.scalar_type(), bits);
  const size_t n = out.numel();
  switch (out.element_size()) {
    case 1: fill_bits<uint8_t>(out.mutable_data(), n, bits); break;
    case 2: fill_bits<uint16_t>(out.mutable_data(), n, bits); break;
    case 4: fill_bits<uint32_t>(out.mutable_data(), n, bits); break;
    case 8: fill_bits<uint64_t>(out.mutable_data(), n, bits); break;
    default: break;
  }
}

}  // namespace tri
