#include "cpp/host/value_json.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace tri::host {

nlohmann::json value_info_json(const ValueInfo& info) {
  nlohmann::json out;
  out["kind"] = tag_name(info.tag);
  if (info.tag == Tag::Tensor) {
    out["dtype"] = scalar_type_numpy_name(info.dtype);
    out["shape"] = std::vector<int32_t>(info.sizes, info.sizes + info.dim);
    out["dynamism"] = shape_dynamism_name(info.dynamism);
  }
  return out;
}

nlohmann::json value_json(const EValue& value, bool with_pointer) {
  nlohmann::json out;
  out["kind"] = tag_name(value.tag);
  switch (value.tag) {
    case Tag::Int:
      out["value"] = std::to_string(value.to_int());
      break;
    case Tag::Double:
      // Through a string so NaN and infinities survive JSON.
      {
        char text[64];
        snprintf(text, sizeof(text), "%.17g", value.to_double());
        out["value"] = text;
      }
      break;
    case Tag::Bool:
      out["value"] = value.to_bool() ? "true" : "false";
      break;
    case Tag::String:
      out["value"] = std::string(value.payload.as_string.data,
                                 value.payload.as_string.size);
      break;
    case Tag::Tensor: {
      const Tensor& t = value.to_tensor();
      out["dtype"] = scalar_type_numpy_name(t.scalar_type());
      out["shape"] = std::vector<int32_t>(t.sizes().begin(), t.sizes().end());
      out["contiguous"] = t.is_contiguous();
      if (with_pointer) {
        out["ptr"] = reinterpret_cast<uintptr_t>(t.data());
        out["nbytes"] = t.nbytes();
      }
      break;
    }
    case Tag::IntList: {
      Span<const int64_t> items;
      if (read_int_list(value, &items) == Error::Ok) {
        std::vector<std::string> text;
        for (int64_t item : items) text.push_back(std::to_string(item));
        out["value"] = text;
      }
      break;
    }
    case Tag::DoubleList:
      out["value"] = std::vector<double>(
          value.payload.as_double_list.data,
          value.payload.as_double_list.data + value.payload.as_double_list.size);
      break;
    case Tag::BoolList:
      out["value"] = std::vector<bool>(
          value.payload.as_bool_list.data,
          value.payload.as_bool_list.data + value.payload.as_bool_list.size);
      break;
    case Tag::TensorList:
    case Tag::OptionalTensorList: {
      Span<Tensor* const> items;
      nlohmann::json list = nlohmann::json::array();
      if (read_tensor_list(value, &items) == Error::Ok) {
        for (Tensor* item : items) {
          list.push_back(item ? value_json(EValue::from_tensor(item), with_pointer)
                              : nlohmann::json{{"kind", "None"}});
        }
      }
      out["items"] = std::move(list);
      break;
    }
    default:
      break;
  }
  return out;
}

namespace {

template <typename T>
T load_element(const uint8_t* data, size_t i) {
  T v;
  std::memcpy(&v, data + i * sizeof(T), sizeof(T));
  return v;
}

float half_to_float(uint16_t h) {
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
  return sign ? -f : f;
}

nlohmann::json float_json(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

}  // namespace

nlohmann::json tensor_values_json(ScalarType dtype, const uint8_t* data,
                                  size_t numel) {
  nlohmann::json values = nlohmann::json::array();
  for (size_t i = 0; i < numel; ++i) {
    switch (dtype) {
      case ScalarType::Float: values.push_back(float_json(load_element<float>(data, i))); break;
      case ScalarType::Double: values.push_back(float_json(load_element<double>(data, i))); break;
      case ScalarType::Half: values.push_back(float_json(half_to_float(load_element<uint16_t>(data, i)))); break;
      case ScalarType::BFloat16: {
        const uint32_t bits = static_cast<uint32_t>(load_element<uint16_t>(data, i)) << 16;
        float f;
        std::memcpy(&f, &bits, 4);
        values.push_back(float_json(f));
        break;
      }
      case ScalarType::Bool: values.push_back(data[i] != 0); break;
      case ScalarType::Byte: values.push_back(load_element<uint8_t>(data, i)); break;
      case ScalarType::Char: values.push_back(load_element<int8_t>(data, i)); break;
      case ScalarType::Short: values.push_back(load_element<int16_t>(data, i)); break;
      case ScalarType::Int: values.push_back(load_element<int32_t>(data, i)); break;
      case ScalarType::Long: values.push_back(load_element<int64_t>(data, i)); break;
      case ScalarType::UInt16: values.push_back(load_element<uint16_t>(data, i)); break;
      case ScalarType::UInt32: values.push_back(load_element<uint32_t>(data, i)); break;
      case ScalarType::UInt64: values.push_back(load_element<uint64_t>(data, i)); break;
      default: return nullptr;
    }
  }
  return values;
}

nlohmann::json bundled_value_json(const pte::BundledValue& value) {
  switch (value.kind) {
    case pte::BundledValueKind::Tensor: {
      size_t numel = 1;
      for (int32_t s : value.sizes) numel *= static_cast<size_t>(s);
      return {{"dtype", scalar_type_numpy_name(value.dtype)},
              {"shape", std::vector<int32_t>(value.sizes.begin(), value.sizes.end())},
              {"values", tensor_values_json(value.dtype, value.data.data(), numel)}};
    }
    case pte::BundledValueKind::Int:
      return {{"type", "Int"}, {"value", value.int_value}};
    case pte::BundledValueKind::Double:
      return {{"type", "Double"}, {"value", float_json(value.double_value)}};
    case pte::BundledValueKind::Bool:
      return {{"type", "Bool"}, {"value", value.bool_value}};
    case pte::BundledValueKind::None:
      break;
  }
  return {{"type", "None"}};
}

std::string dump_json(const nlohmann::json& json) {
  return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tri::host
