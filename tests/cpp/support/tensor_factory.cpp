#include "tests/cpp/support/tensor_factory.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace tri::testing {
namespace {

uint16_t float_to_half_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) {
    return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  }
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) half++;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) half++;
  return static_cast<uint16_t>(sign | half);
}

float half_bits_to_float(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  const uint32_t mant = h & 0x3ffu;
  float f;
  if (exp == 0) {
    f = std::ldexp(static_cast<float>(mant), -24);
  } else if (exp == 31) {
    f = mant ? NAN : INFINITY;
  } else {
    f = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
  }
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits |= sign;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t float_to_bf16_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f)) return 0x7fc0;
  const uint32_t rounding = 0x7fffu + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

float bf16_bits_to_float(uint16_t b) {
  const uint32_t x = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

void store(ScalarType type, void* base, size_t index, double v) {
  switch (type) {
    case ScalarType::Bool: static_cast<bool*>(base)[index] = v != 0; break;
    case ScalarType::Byte: static_cast<uint8_t*>(base)[index] = static_cast<uint8_t>(v); break;
    case ScalarType::Char: static_cast<int8_t*>(base)[index] = static_cast<int8_t>(v); break;
    case ScalarType::Short: static_cast<int16_t*>(base)[index] = static_cast<int16_t>(v); break;
    case ScalarType::Int: static_cast<int32_t*>(base)[index] = static_cast<int32_t>(v); break;
    case ScalarType::Long: static_cast<int64_t*>(base)[index] = static_cast<int64_t>(v); break;
    case ScalarType::UInt16: static_cast<uint16_t*>(base)[index] = static_cast<uint16_t>(v); break;
    case ScalarType::UInt32: static_cast<uint32_t*>(base)[index] = static_cast<uint32_t>(v); break;
    case ScalarType::UInt64: static_cast<uint64_t*>(base)[index] = static_cast<uint64_t>(v); break;
    case ScalarType::Float: static_cast<float*>(base)[index] = static_cast<float>(v); break;
    case ScalarType::Double: static_cast<double*>(base)[index] = v; break;
    case ScalarType::Half: static_cast<uint16_t*>(base)[index] = float_to_half_bits(static_cast<float>(v)); break;
    case ScalarType::BFloat16: static_cast<uint16_t*>(base)[index] = float_to_bf16_bits(static_cast<float>(v)); break;
    default: throw std::runtime_error("TensorFactory: unsupported dtype");
  }
}

double load(ScalarType type, const void* base, size_t index) {
  switch (type) {
    case ScalarType::Bool: return static_cast<const bool*>(base)[index] ? 1 : 0;
    case ScalarType::Byte: return static_cast<const uint8_t*>(base)[index];
    case ScalarType::Char: return static_cast<const int8_t*>(base)[index];
    case ScalarType::Short: return static_cast<const int16_t*>(base)[index];
    case ScalarType::Int: return static_cast<const int32_t*>(base)[index];
    case ScalarType::Long: return static_cast<double>(static_cast<const int64_t*>(base)[index]);
    case ScalarType::UInt16: return static_cast<const uint16_t*>(base)[index];
    case ScalarType::UInt32: return static_cast<const uint32_t*>(base)[index];
    case ScalarType::UInt64: return static_cast<double>(static_cast<const uint64_t*>(base)[index]);
    case ScalarType::Float: return static_cast<const float*>(base)[index];
    case ScalarType::Double: return static_cast<const double*>(base)[index];
    case ScalarType::Half: return half_bits_to_float(static_cast<const uint16_t*>(base)[index]);
    case ScalarType::BFloat16: return bf16_bits_to_float(static_cast<const uint16_t*>(base)[index]);
    default: throw std::runtime_error("TensorFactory: unsupported dtype");
  }
}

// Offset in elements of logical (row-major) index `linear` in `t`.
size_t physical_offset(const Tensor& t, size_t linear) {
  size_t offset = 0;
  for (int32_t d = t.dim() - 1; d >= 0; --d) {
    const size_t size = static_cast<size_t>(t.size(d));
    const size_t coord = size ? linear % size : 0;
    linear = size ? linear / size : 0;
    offset += coord * static_cast<size_t>(t.strides()[d]);
  }
  return offset;
}

}  // namespace

Tensor* TensorFactory::make(ScalarType type, std::vector<SizesType> sizes,
                            const std::vector<double>& values,
                            std::vector<DimOrderType> dim_order,
                            ShapeDynamism dynamism) {
  tensors_.emplace_back();
  Tensor* t = &tensors_.back();
  size_t numel = 1;
  for (SizesType s : sizes) numel *= static_cast<size_t>(s);
  storage_.emplace_back(std::max<size_t>(numel * element_size(type), 1) + 16);
  void* data = storage_.back().data();
  if (t->init(type, Span<const SizesType>(sizes.data(), sizes.size()),
              Span<const DimOrderType>(dim_order.data(), dim_order.size()),
              data, numel * element_size(type), dynamism) != Error::Ok) {
    throw std::runtime_error(last_error_message());
  }
  if (!values.empty()) {
    if (values.size() != numel) {
      throw std::runtime_error("TensorFactory: value count does not match sizes");
    }
    for (size_t i = 0; i < numel; ++i) {
      store(type, data, physical_offset(*t, i), values[i]);
    }
  }
  return t;
}

Tensor* TensorFactory::make_long(std::vector<SizesType> sizes,
                                 const std::vector<int64_t>& values) {
  Tensor* t = zeros(ScalarType::Long, std::move(sizes));
  if (values.size() != t->numel()) {
    throw std::runtime_error("TensorFactory: value count does not match sizes");
  }
  std::memcpy(t->mutable_data(), values.data(), values.size() * 8);
  return t;
}

Tensor* TensorFactory::zeros(ScalarType type, std::vector<SizesType> sizes,
                             std::vector<DimOrderType> dim_order,
                             ShapeDynamism dynamism) {
  return make(type, std::move(sizes), {}, std::move(dim_order), dynamism);
}

std::vector<double> TensorFactory::values(const Tensor& t) {
  std::vector<double> out(t.numel());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = load(t.scalar_type(), t.data(), physical_offset(t, i));
  }
  return out;
}

EValue* TensorFactory::value(const EValue& v) {
  values_.push_back(v);
  return &values_.back();
}

EValue* TensorFactory::int_list(const std::vector<int64_t>& items) {
  boxes_.emplace_back();
  for (int64_t item : items) boxes_.back().push_back(value(EValue::from_int(item)));
  int_scratch_.emplace_back(items.size());
  EValue v;
  v.tag = Tag::IntList;
  v.payload.as_int_list = {boxes_.back().data(), int_scratch_.back().data(),
                           items.size()};
  return value(v);
}

EValue* TensorFactory::double_list(const std::vector<double>& items) {
  doubles_.push_back(items);
  EValue v;
  v.tag = Tag::DoubleList;
  v.payload.as_double_list = {doubles_.back().data(), items.size()};
  return value(v);
}

EValue* TensorFactory::bool_list(const std::vector<bool>& items) {
  bools_.emplace_back(new bool[items.size() + 1]);
  for (size_t i = 0; i < items.size(); ++i) bools_.back()[i] = items[i];
  EValue v;
  v.tag = Tag::BoolList;
  v.payload.as_bool_list = {bools_.back().get(), items.size()};
  return value(v);
}

EValue* TensorFactory::tensor_list(const std::vector<Tensor*>& items,
                                   bool optional) {
  boxes_.emplace_back();
  for (Tensor* item : items) {
    boxes_.back().push_back(item ? tensor_value(item) : value(EValue::none()));
  }
  tensor_scratch_.emplace_back(items.size());
  EValue v;
  v.tag = optional ? Tag::OptionalTensorList : Tag::TensorList;
  v.payload.as_tensor_list = {boxes_.back().data(), tensor_scratch_.back().data(),
                              items.size()};
  return value(v);
}

}  // namespace tri::testing
