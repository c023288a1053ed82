#include "cpp/kernels/tfrt/tensor/dtype.h"

#include <cinttypes>
#include <cmath>
#include <cstring>

namespace tri::tfrt_kernels {
namespace {

struct DTypePair {
  DType dtype;
  ScalarType type;
};

constexpr DTypePair kPairs[] = {
    {DType::UI8, ScalarType::Byte},          {DType::UI16, ScalarType::UInt16},
    {DType::UI32, ScalarType::UInt32},       {DType::UI64, ScalarType::UInt64},
    {DType::I1, ScalarType::Bool},           {DType::I8, ScalarType::Char},
    {DType::I16, ScalarType::Short},         {DType::I32, ScalarType::Int},
    {DType::I64, ScalarType::Long},          {DType::F32, ScalarType::Float},
    {DType::F64, ScalarType::Double},        {DType::Complex64, ScalarType::ComplexFloat},
    {DType::Complex128, ScalarType::ComplexDouble},
};

template <typename T>
T load(const void* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// llvm::write_double with FloatStyle::Exponent, which raw_ostream uses for
// every float and double.
void write_float(TextOut& out, double v) {
  if (std::isnan(v)) {
    out.write("nan");
  } else if (std::isinf(v)) {
    out.write(std::signbit(v) ? "-INF" : "INF");
  } else {
    out.format("%.6e", v);
  }
}

}  // namespace

bool scalar_type_of(DType dtype, ScalarType* out) {
  for (const DTypePair& pair : kPairs) {
    if (pair.dtype == dtype) {
      *out = pair.type;
      return true;
    }
  }
  return false;
}

DType dtype_of(ScalarType type) {
  for (const DTypePair& pair : kPairs) {
    if (pair.type == type) return pair.dtype;
  }
  return DType::Unsupported;
}

const char* dtype_name(DType dtype) {
  return dtype == DType::Unsupported ? "<unsupported dtype>"
                                     : async::dtype_name(static_cast<uint8_t>(dtype));
}

void write_element(TextOut& out, ScalarType type, const void* p) {
  switch (type) {
    case ScalarType::Byte: out.format("%u", static_cast<unsigned>(load<uint8_t>(p))); return;
    case ScalarType::UInt16: out.format("%u", static_cast<unsigned>(load<uint16_t>(p))); return;
    case ScalarType::UInt32: out.format("%" PRIu32, load<uint32_t>(p)); return;
    case ScalarType::UInt64: out.format("%" PRIu64, load<uint64_t>(p)); return;
    // A byte the file wrote through a buffer may be neither 0 nor 1; reading
    // it as bool would be undefined.
    case ScalarType::Bool: out.write(load<uint8_t>(p) != 0 ? "1" : "0"); return;
    case ScalarType::Char: out.format("%d", static_cast<int>(load<int8_t>(p))); return;
    case ScalarType::Short: out.format("%d", static_cast<int>(load<int16_t>(p))); return;
    case ScalarType::Int: out.format("%" PRId32, load<int32_t>(p)); return;
    case ScalarType::Long: out.format("%" PRId64, load<int64_t>(p)); return;
    case ScalarType::Float: write_float(out, static_cast<double>(load<float>(p))); return;
    case ScalarType::Double: write_float(out, load<double>(p)); return;
    case ScalarType::ComplexFloat:
      out.write("(");
      write_float(out, static_cast<double>(load<float>(p)));
      out.write(",");
      write_float(out, static_cast<double>(load<float>(static_cast<const uint8_t*>(p) + 4)));
      out.write(")");
      return;
    case ScalarType::ComplexDouble:
      out.write("(");
      write_float(out, load<double>(p));
      out.write(",");
      write_float(out, load<double>(static_cast<const uint8_t*>(p) + 8));
      out.write(")");
      return;
    default:
      out.write("?");
      return;
  }
}

}  // namespace tri::tfrt_kernels
