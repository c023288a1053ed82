#include "cpp/kernels/util/convert.h"

#include <cstring>
#include <limits>

namespace tri {
namespace {

// Conversions are written once per (dtype, compute type) pair that needs its
// own code; rarer pairs chain two of them through a stack buffer (Half to
// double goes through float, Float to Int through int64), and strided rows
// are gathered into / scattered from a contiguous buffer. That keeps this
// file small; the pairs models use (Half <-> float, the integers <-> int64,
// Bool -> anything) are single loops.
constexpr int64_t kChunk = 256;

// Loops for rare conversions (and strided gathers, which SIMD128 cannot
// vectorize) are kept scalar: vectorized, each would be several times
// larger, for pairs models do not run in bulk.
#if defined(__clang__)
#define TRI_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#else
#define TRI_SCALAR_LOOP
#endif


// The pairs worth vectorized loops: Half/BFloat16 <-> float, Int/Bool/Byte/
// Char -> float, Float <-> double, the narrow integers <-> int64.
template <typename To, typename From>
constexpr bool hot_pair() {
  constexpr bool from_small_int = std::is_same<From, bool>::value ||
                                  std::is_same<From, uint8_t>::value ||
                                  std::is_same<From, int8_t>::value ||
                                  std::is_same<From, int32_t>::value;
  constexpr bool to_small_int = std::is_same<To, bool>::value || std::is_same<To, uint8_t>::value ||
                                std::is_same<To, int8_t>::value || std::is_same<To, int32_t>::value;
  if (std::is_same<To, float>::value) {
    return from_small_int || is_reduced_float_v<From> || std::is_same<From, double>::value;
  }
  if (std::is_same<From, float>::value) {
    return is_reduced_float_v<To> || std::is_same<To, double>::value || std::is_same<To, bool>::value;
  }
  if (std::is_same<To, double>::value) return std::is_same<From, int32_t>::value;
  if (std::is_same<To, int64_t>::value) return from_small_int;
  if (std::is_same<From, int64_t>::value) return to_small_int;
  return false;
}

template <typename T>
void gather_as(const char* src, int64_t stride, int64_t n, char* dst) {
  T* d = reinterpret_cast<T*>(dst);
  TRI_SCALAR_LOOP
  for (int64_t i = 0; i < n; ++i) std::memcpy(&d[i], src + i * stride, sizeof(T));
}

template <typename T>
void scatter_as(const char* src, char* dst, int64_t stride, int64_t n) {
  const T* s = reinterpret_cast<const T*>(src);
  TRI_SCALAR_LOOP
  for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * stride, &s[i], sizeof(T));
}

// n elements of `size` bytes at `stride` <-> contiguous. Not inlined: one
// copy serves every load_row / store_row.
#if defined(__GNUC__)
#define TRI_NOINLINE __attribute__((noinline))
#else
#define TRI_NOINLINE
#endif

TRI_NOINLINE void gather(const char* src, int64_t stride, int64_t n, size_t size, char* dst) {
  switch (size) {
    case 1: return gather_as<uint8_t>(src, stride, n, dst);
    case 2: return gather_as<uint16_t>(src, stride, n, dst);
    case 4: return gather_as<uint32_t>(src, stride, n, dst);
    default: return gather_as<uint64_t>(src, stride, n, dst);
  }
}

TRI_NOINLINE void scatter(const char* src, char* dst, int64_t stride, int64_t n, size_t size) {
  switch (size) {
    case 1: return scatter_as<uint8_t>(src, dst, stride, n);
    case 2: return scatter_as<uint16_t>(src, dst, stride, n);
    case 4: return scatter_as<uint32_t>(src, dst, stride, n);
    default: return scatter_as<uint64_t>(src, dst, stride, n);
  }
}

// dst[i] = src[i] as To, cast_value's rules; Bool is read as a byte (any
// non-zero byte is true), so malformed bool data cannot make an invalid bool.
template <typename To, typename From>
void convert(const void* src, int64_t n, void* dst) {
  To* d = static_cast<To*>(dst);
  if constexpr (std::is_same<To, From>::value) {
    std::memmove(dst, src, static_cast<size_t>(n) * sizeof(To));
  } else if constexpr (std::is_same<From, bool>::value) {
    const uint8_t* s = static_cast<const uint8_t*>(src);
    if constexpr (hot_pair<To, From>()) {
      for (int64_t i = 0; i < n; ++i) d[i] = static_cast<To>(s[i] != 0);
    } else {
      TRI_SCALAR_LOOP
      for (int64_t i = 0; i < n; ++i) d[i] = static_cast<To>(s[i] != 0);
    }
  } else {
    const From* s = static_cast<const From*>(src);
    if constexpr (hot_pair<To, From>()) {
      for (int64_t i = 0; i < n; ++i) d[i] = cast_value<To>(s[i]);
    } else {
      TRI_SCALAR_LOOP
      for (int64_t i = 0; i < n; ++i) d[i] = cast_value<To>(s[i]);
    }
  }
}

// Contiguous `from` -> C.
template <typename C>
void load_contig(ScalarType from, const void* src, int64_t n, C* dst);

template <>
void load_contig<float>(ScalarType from, const void* src, int64_t n, float* dst) {
  switch (from) {
    case ScalarType::Bool: return convert<float, bool>(src, n, dst);
    case ScalarType::Byte: return convert<float, uint8_t>(src, n, dst);
    case ScalarType::Char: return convert<float, int8_t>(src, n, dst);
    case ScalarType::Short: return convert<float, int16_t>(src, n, dst);
    case ScalarType::Int: return convert<float, int32_t>(src, n, dst);
    case ScalarType::Long: return convert<float, int64_t>(src, n, dst);
    case ScalarType::UInt16: return convert<float, uint16_t>(src, n, dst);
    case ScalarType::UInt32: return convert<float, uint32_t>(src, n, dst);
    case ScalarType::UInt64: return convert<float, uint64_t>(src, n, dst);
    case ScalarType::Half: return convert<float, Half>(src, n, dst);
    case ScalarType::BFloat16: return convert<float, BFloat16>(src, n, dst);
    case ScalarType::Float: return convert<float, float>(src, n, dst);
    case ScalarType::Double: return convert<float, double>(src, n, dst);
    default: return;
  }
}

template <>
void load_contig<double>(ScalarType from, const void* src, int64_t n, double* dst) {
  switch (from) {
    case ScalarType::Bool: return convert<double, bool>(src, n, dst);
    case ScalarType::Byte: return convert<double, uint8_t>(src, n, dst);
    case ScalarType::Char: return convert<double, int8_t>(src, n, dst);
    case ScalarType::Short: return convert<double, int16_t>(src, n, dst);
    case ScalarType::Int: return convert<double, int32_t>(src, n, dst);
    case ScalarType::Long: return convert<double, int64_t>(src, n, dst);
    case ScalarType::UInt16: return convert<double, uint16_t>(src, n, dst);
    case ScalarType::UInt32: return convert<double, uint32_t>(src, n, dst);
    case ScalarType::UInt64: return convert<double, uint64_t>(src, n, dst);
    case ScalarType::Float: return convert<double, float>(src, n, dst);
    case ScalarType::Double: return convert<double, double>(src, n, dst);
    case ScalarType::Half:
    case ScalarType::BFloat16: {
      // Exact through float.
      float buf[kChunk];
      const char* s = static_cast<const char*>(src);
      for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t m = n - i < kChunk ? n - i : kChunk;
        load_contig<float>(from, s + i * 2, m, buf);
        convert<double, float>(buf, m, dst + i);
      }
      return;
    }
    default: return;
  }
}

template <>
void load_contig<int64_t>(ScalarType from, const void* src, int64_t n, int64_t* dst) {
  switch (from) {
    case ScalarType::Bool: return convert<int64_t, bool>(src, n, dst);
    case ScalarType::Byte: return convert<int64_t, uint8_t>(src, n, dst);
    case ScalarType::Char: return convert<int64_t, int8_t>(src, n, dst);
    case ScalarType::Short: return convert<int64_t, int16_t>(src, n, dst);
    case ScalarType::Int: return convert<int64_t, int32_t>(src, n, dst);
    case ScalarType::Long: return convert<int64_t, int64_t>(src, n, dst);
    case ScalarType::UInt16: return convert<int64_t, uint16_t>(src, n, dst);
    case ScalarType::UInt32: return convert<int64_t, uint32_t>(src, n, dst);
    case ScalarType::UInt64: return convert<int64_t, uint64_t>(src, n, dst);
    case ScalarType::Half:
    case ScalarType::BFloat16:
    case ScalarType::Float:
    case ScalarType::Double: {
      // Floating to integer: exact in double, then truncated (saturating).
      double buf[kChunk];
      const char* s = static_cast<const char*>(src);
      const int64_t es = static_cast<int64_t>(element_size(from));
      for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t m = n - i < kChunk ? n - i : kChunk;
        load_contig<double>(from, s + i * es, m, buf);
        convert<int64_t, double>(buf, m, dst + i);
      }
      return;
    }
    default: return;
  }
}

// Contiguous C -> `to`.
template <typename C>
void store_contig(ScalarType to, const C* src, int64_t n, void* dst);

template <>
void store_contig<int64_t>(ScalarType to, const int64_t* src, int64_t n, void* dst);

template <>
void store_contig<float>(ScalarType to, const float* src, int64_t n, void* dst) {
  switch (to) {
    case ScalarType::Bool: return convert<bool, float>(src, n, dst);
    case ScalarType::UInt64: return convert<uint64_t, float>(src, n, dst);
    case ScalarType::Half: return convert<Half, float>(src, n, dst);
    case ScalarType::BFloat16: return convert<BFloat16, float>(src, n, dst);
    case ScalarType::Float: return convert<float, float>(src, n, dst);
    case ScalarType::Double: return convert<double, float>(src, n, dst);
    default: {
      // The other integers: truncate (saturating) to int64, then wrap.
      int64_t buf[kChunk];
      char* d = static_cast<char*>(dst);
      const int64_t es = static_cast<int64_t>(element_size(to));
      for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t m = n - i < kChunk ? n - i : kChunk;
        convert<int64_t, float>(src + i, m, buf);
        store_contig<int64_t>(to, buf, m, d + i * es);
      }
      return;
    }
  }
}

template <>
void store_contig<int64_t>(ScalarType to, const int64_t* src, int64_t n, void* dst) {
  switch (to) {
    case ScalarType::Bool: return convert<bool, int64_t>(src, n, dst);
    case ScalarType::Byte: return convert<uint8_t, int64_t>(src, n, dst);
    case ScalarType::Char: return convert<int8_t, int64_t>(src, n, dst);
    case ScalarType::Short: return convert<int16_t, int64_t>(src, n, dst);
    case ScalarType::Int: return convert<int32_t, int64_t>(src, n, dst);
    case ScalarType::Long: return convert<int64_t, int64_t>(src, n, dst);
    case ScalarType::UInt16: return convert<uint16_t, int64_t>(src, n, dst);
    case ScalarType::UInt32: return convert<uint32_t, int64_t>(src, n, dst);
    case ScalarType::UInt64: return convert<uint64_t, int64_t>(src, n, dst);
    case ScalarType::Float: return convert<float, int64_t>(src, n, dst);
    case ScalarType::Double: return convert<double, int64_t>(src, n, dst);
    case ScalarType::Half:
    case ScalarType::BFloat16: {
      // Rounded to float first, as cast_value does.
      float buf[kChunk];
      char* d = static_cast<char*>(dst);
      for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t m = n - i < kChunk ? n - i : kChunk;
        convert<float, int64_t>(src + i, m, buf);
        store_contig<float>(to, buf, m, d + i * 2);
      }
      return;
    }
    default: return;
  }
}

template <>
void store_contig<double>(ScalarType to, const double* src, int64_t n, void* dst) {
  char* d = static_cast<char*>(dst);
  switch (to) {
    case ScalarType::Bool: return convert<bool, double>(src, n, dst);
    case ScalarType::UInt64: return convert<uint64_t, double>(src, n, dst);
    case ScalarType::Float: return convert<float, double>(src, n, dst);
    case ScalarType::Double: return convert<double, double>(src, n, dst);
    case ScalarType::Half:
    case ScalarType::BFloat16: {
      // Rounded to float first, as cast_value does.
      float buf[kChunk];
      for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t m = n - i < kChunk ? n - i : kChunk;
        convert<float, double>(src + i, m, buf);
        store_contig<float>(to, buf, m, d + i * 2);
      }
      return;
    }
    default: {
      int64_t buf[kChunk];
      const int64_t es = static_cast<int64_t>(element_size(to));
      for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t m = n - i < kChunk ? n - i : kChunk;
        convert<int64_t, double>(src + i, m, buf);
        store_contig<int64_t>(to, buf, m, d + i * es);
      }
      return;
    }
  }
}

template <>
void store_contig<bool>(ScalarType to, const bool* src, int64_t n, void* dst) {
  if (to == ScalarType::Bool) {
    std::memmove(dst, src, static_cast<size_t>(n));
    return;
  }
  int64_t buf[kChunk];
  char* d = static_cast<char*>(dst);
  const int64_t es = static_cast<int64_t>(element_size(to));
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    convert<int64_t, bool>(src + i, m, buf);
    store_contig<int64_t>(to, buf, m, d + i * es);
  }
}

// Value range of an integral dtype, as int64 (UInt64's top half does not fit:
// it is only contained in itself and Long, by bits).
bool int_range(ScalarType t, int64_t* lo, int64_t* hi) {
  switch (t) {
    case ScalarType::Bool: *lo = 0; *hi = 1; return true;
    case ScalarType::Byte: *lo = 0; *hi = 255; return true;
    case ScalarType::Char: *lo = -128; *hi = 127; return true;
    case ScalarType::Short: *lo = -32768; *hi = 32767; return true;
    case ScalarType::Int: *lo = INT32_MIN; *hi = INT32_MAX; return true;
    case ScalarType::UInt16: *lo = 0; *hi = 65535; return true;
    case ScalarType::UInt32: *lo = 0; *hi = UINT32_MAX; return true;
    case ScalarType::Long: *lo = INT64_MIN; *hi = INT64_MAX; return true;
    default: return false;
  }
}

template <typename T>
void wrap_as(int64_t* v, int64_t n) {
  TRI_SCALAR_LOOP
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<int64_t>(cast_value<T>(v[i]));
}

}  // namespace

template <typename C>
void load_row(ScalarType from, const void* src, int64_t stride, int64_t n, C* dst) {
  const int64_t es = static_cast<int64_t>(element_size(from));
  if (es == 0) {  // callers validate dtypes first
    for (int64_t i = 0; i < n; ++i) dst[i] = C(0);
    return;
  }
  if (stride == es) {
    load_contig<C>(from, src, n, dst);
    return;
  }
  alignas(8) char buf[kChunk * 8];
  const char* s = static_cast<const char*>(src);
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    gather(s + i * stride, stride, m, static_cast<size_t>(es), buf);
    load_contig<C>(from, buf, m, dst + i);
  }
}

template <typename C>
void store_row(ScalarType to, const C* src, void* dst, int64_t stride, int64_t n) {
  const int64_t es = static_cast<int64_t>(element_size(to));
  if (es == 0) {
    return;
  }
  if (stride == es) {
    store_contig<C>(to, src, n, dst);
    return;
  }
  alignas(8) char buf[kChunk * 8];
  char* d = static_cast<char*>(dst);
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    store_contig<C>(to, src + i, m, buf);
    scatter(buf, d + i * stride, stride, m, static_cast<size_t>(es));
  }
}

template void load_row<int64_t>(ScalarType, const void*, int64_t, int64_t, int64_t*);
template void load_row<float>(ScalarType, const void*, int64_t, int64_t, float*);
template void load_row<double>(ScalarType, const void*, int64_t, int64_t, double*);
template void store_row<int64_t>(ScalarType, const int64_t*, void*, int64_t, int64_t);
template void store_row<float>(ScalarType, const float*, void*, int64_t, int64_t);
template void store_row<double>(ScalarType, const double*, void*, int64_t, int64_t);
template void store_row<bool>(ScalarType, const bool*, void*, int64_t, int64_t);

void wrap_to_dtype(ScalarType t, int64_t* v, int64_t n) {
  switch (t) {
    case ScalarType::Bool:
      TRI_SCALAR_LOOP
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] != 0;
      return;
    case ScalarType::Byte: return wrap_as<uint8_t>(v, n);
    case ScalarType::Char: return wrap_as<int8_t>(v, n);
    case ScalarType::Short: return wrap_as<int16_t>(v, n);
    case ScalarType::Int: return wrap_as<int32_t>(v, n);
    case ScalarType::UInt16: return wrap_as<uint16_t>(v, n);
    case ScalarType::UInt32: return wrap_as<uint32_t>(v, n);
    default:  // Long and UInt64 hold every int64 bit pattern
      return;
  }
}

void round_to_dtype(ScalarType t, float* v, int64_t n) {
  if (t == ScalarType::Half) {
    for (int64_t i = 0; i < n; ++i) v[i] = half_to_float(float_to_half(v[i]));
  } else if (t == ScalarType::BFloat16) {
    for (int64_t i = 0; i < n; ++i) v[i] = bfloat16_to_float(float_to_bfloat16(v[i]));
  }
}

bool needs_wrap(ScalarType from, ScalarType common) {
  int64_t clo, chi, flo, fhi;
  if (from == common || !int_range(common, &clo, &chi)) {
    return false;
  }
  if (common == ScalarType::Long) {
    return false;
  }
  if (!int_range(from, &flo, &fhi)) {
    return true;  // UInt64 or a floating type
  }
  return flo < clo || fhi > chi;
}

int64_t scalar_to_int_in(const Scalar& s, ScalarType common) {
  switch (common) {
    case ScalarType::Bool: return scalar_to<bool>(s) ? 1 : 0;
    case ScalarType::Byte: return scalar_to<uint8_t>(s);
    case ScalarType::Char: return scalar_to<int8_t>(s);
    case ScalarType::Short: return scalar_to<int16_t>(s);
    case ScalarType::Int: return scalar_to<int32_t>(s);
    case ScalarType::UInt16: return scalar_to<uint16_t>(s);
    case ScalarType::UInt32: return scalar_to<uint32_t>(s);
    case ScalarType::UInt64: return static_cast<int64_t>(scalar_to<uint64_t>(s));
    default: return scalar_to<int64_t>(s);
  }
}

void ComputeScalar::set(const Scalar& s, ScalarType common) {
  switch (compute_kind(common)) {
    case ComputeKind::Int:
      type_ = ScalarType::Long;
      i_ = scalar_to_int_in(s, common);
      break;
    case ComputeKind::Float:
      type_ = ScalarType::Float;
      f_ = scalar_to<float>(s);
      break;
    case ComputeKind::Double:
      type_ = ScalarType::Double;
      d_ = scalar_to<double>(s);
      break;
  }
}

TensorView ComputeScalar::view() const {
  const void* p = type_ == ScalarType::Long    ? static_cast<const void*>(&i_)
                  : type_ == ScalarType::Float ? static_cast<const void*>(&f_)
                                               : static_cast<const void*>(&d_);
  return TensorView::scalar(p, type_);
}

void scalar_to_bytes(const Scalar& s, ScalarType type, void* dst) {
  if (s.tag == Tag::Double) {
    store_one<double>(type, s.d, dst);
  } else {
    store_one<int64_t>(type, s.tag == Tag::Bool ? int64_t{s.b} : s.i, dst);
  }
}

}  // namespace tri
