// TFRT's DTypes for dense host tensors. TFRT's DType enum and BEF's
// attribute type codes 1..23 are the same numbers (async::AttributeType), so
// dense attributes and kernel names map straight onto them; a tensor stores
// the equivalent tri::ScalarType in its tri::Tensor.
#pragma once

#include <complex>
#include <cstdint>

#include "cpp/kernels/tfrt/tensor/text_out.h"
#include "cpp/runtime/async/attribute_type.h"
#include "cpp/runtime/core/scalar_type.h"

namespace tri::tfrt_kernels {

using DType = async::AttributeType;

// False for DTypes a dense host tensor here cannot hold (strings, f16, bf16,
// quantized types, resources).
bool scalar_type_of(DType dtype, ScalarType* out);
// DType::Unsupported when the scalar type has no TFRT equivalent.
DType dtype_of(ScalarType type);
// TFRT's spelling: "i32", "f32", "i1", "u8", "complex64", ...
const char* dtype_name(DType dtype);
inline const char* dtype_name(ScalarType type) { return dtype_name(dtype_of(type)); }

// One element at `p` the way TFRT's DenseHostTensor::Print shows it:
// integers in decimal, i1 as 0/1, floats through LLVM's raw_ostream
// (printf "%.6e", "nan", "INF", "-INF"), complex as "(re,im)".
void write_element(TextOut& out, ScalarType type, const void* p);

// The C++ type of a kernel's dtype suffix.
template <typename T>
struct DTypeOf;
template <>
struct DTypeOf<uint8_t> {
  static constexpr ScalarType kType = ScalarType::Byte;
};
template <>
struct DTypeOf<uint32_t> {
  static constexpr ScalarType kType = ScalarType::UInt32;
};
template <>
struct DTypeOf<uint64_t> {
  static constexpr ScalarType kType = ScalarType::UInt64;
};
template <>
struct DTypeOf<int8_t> {
  static constexpr ScalarType kType = ScalarType::Char;
};
template <>
struct DTypeOf<int32_t> {
  static constexpr ScalarType kType = ScalarType::Int;
};
template <>
struct DTypeOf<int64_t> {
  static constexpr ScalarType kType = ScalarType::Long;
};
template <>
struct DTypeOf<float> {
  static constexpr ScalarType kType = ScalarType::Float;
};
template <>
struct DTypeOf<double> {
  static constexpr ScalarType kType = ScalarType::Double;
};
template <>
struct DTypeOf<bool> {
  static constexpr ScalarType kType = ScalarType::Bool;
};
template <>
struct DTypeOf<std::complex<float>> {
  static constexpr ScalarType kType = ScalarType::ComplexFloat;
};
template <>
struct DTypeOf<std::complex<double>> {
  static constexpr ScalarType kType = ScalarType::ComplexDouble;
};

}  // namespace tri::tfrt_kernels
