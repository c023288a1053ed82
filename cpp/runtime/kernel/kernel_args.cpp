#include "cpp/runtime/kernel/kernel_args.h"

namespace tri {
namespace {

Error wrong_kind(size_t i, const char* expected, Tag got) {
  return fail(Error::InvalidType, "argument %zu: expected %s, got %s", i,
              expected, tag_name(got));
}

}  // namespace

Error KernelArgs::check_index(size_t i) const {
  TRI_CHECK(i < size_, Error::InvalidArgument,
            "argument %zu requested but the call has %zu", i, size_);
  return Error::Ok;
}

Result<EValue*> KernelArgs::slot(size_t i) const {
  TRI_TRY(check_index(i));
  return args_[i];
}

Result<Tensor*> KernelArgs::tensor(size_t i) const {
  TRI_TRY(check_index(i));
  const EValue& v = *args_[i];
  if (!v.is_tensor()) {
    return wrong_kind(i, "Tensor", v.tag);
  }
  return v.payload.as_tensor;
}

Result<Tensor*> KernelArgs::optional_tensor(size_t i) const {
  TRI_TRY(check_index(i));
  const EValue& v = *args_[i];
  if (v.is_none()) {
    return static_cast<Tensor*>(nullptr);
  }
  if (!v.is_tensor()) {
    return wrong_kind(i, "Tensor or None", v.tag);
  }
  return v.payload.as_tensor;
}

Result<int64_t> KernelArgs::int_value(size_t i) const {
  TRI_TRY(check_index(i));
  const EValue& v = *args_[i];
  if (v.is_int()) {
    return v.to_int();
  }
  if (v.is_bool()) {
    return static_cast<int64_t>(v.to_bool() ? 1 : 0);
  }
  return wrong_kind(i, "Int", v.tag);
}

Result<Optional<int64_t>> KernelArgs::optional_int(size_t i) const {
  TRI_TRY(check_index(i));
  if (args_[i]->is_none()) {
    return Optional<int64_t>{};
  }
  TRI_ASSIGN_OR_RETURN(const int64_t value, int_value(i));
  return Optional<int64_t>{true, value};
}

Result<double> KernelArgs::double_value(size_t i) const {
  TRI_TRY(check_index(i));
  const EValue& v = *args_[i];
  if (v.is_double()) {
    return v.to_double();
  }
  if (v.is_int()) {
    return static_cast<double>(v.to_int());
  }
  return wrong_kind(i, "Double", v.tag);
}

Result<Optional<double>> KernelArgs::optional_double(size_t i) const {
  TRI_TRY(check_index(i));
  if (args_[i]->is_none()) {
    return Optional<double>{};
  }
  TRI_ASSIGN_OR_RETURN(const double value, double_value(i));
  return Optional<double>{true, value};
}

Result<bool> KernelArgs::bool_value(size_t i) const {
  TRI_TRY(check_index(i));
  const EValue& v = *args_[i];
  if (v.is_bool()) {
    return v.to_bool();
  }
  return wrong_kind(i, "Bool", v.tag);
}

Result<Optional<bool>> KernelArgs::optional_bool(size_t i) const {
  TRI_TRY(check_index(i));
  if (args_[i]->is_none()) {
    return Optional<bool>{};
  }
  TRI_ASSIGN_OR_RETURN(const bool value, bool_value(i));
  return Optional<bool>{true, value};
}

Result<Scalar> KernelArgs::scalar(size_t i) const {
  TRI_TRY(check_index(i));
  const EValue& v = *args_[i];
  Scalar s;
  s.tag = v.tag;
  switch (v.tag) {
    case Tag::Int: s.i = v.to_int(); return s;
    case Tag::Double: s.d = v.to_double(); return s;
    case Tag::Bool: s.b = v.to_bool(); return s;
    default: return wrong_kind(i, "Scalar (Int, Double or Bool)", v.tag);
  }
}

Result<Optional<Scalar>> KernelArgs::optional_scalar(size_t i) const {
  TRI_TRY(check_index(i));
  if (args_[i]->is_none()) {
    return Optional<Scalar>{};
  }
  TRI_ASSIGN_OR_RETURN(const Scalar value, scalar(i));
  return Optional<Scalar>{true, value};
}

Result<Optional<ScalarType>> KernelArgs::optional_scalar_type(size_t i) const {
  TRI_TRY(check_index(i));
  const EValue& v = *args_[i];
  if (v.is_none()) {
    return Optional<ScalarType>{};
  }
  if (!v.is_int()) {
    return wrong_kind(i, "ScalarType (Int) or None", v.tag);
  }
  const int64_t n = v.to_int();
  TRI_CHECK(n >= -128 && n <= 127 && is_valid_scalar_type(static_cast<int32_t>(n)),
            Error::InvalidArgument, "argument %zu: %lld is not a scalar type",
            i, static_cast<long long>(n));
  return Optional<ScalarType>{true, static_cast<ScalarType>(n)};
}

Result<Span<const int64_t>> KernelArgs::int_list(size_t i) const {
  TRI_TRY(check_index(i));
  Span<const int64_t> out;
  TRI_TRY_CONTEXT(read_int_list(*args_[i], &out), "argument %zu", i);
  return out;
}

Result<Optional<Span<const int64_t>>> KernelArgs::optional_int_list(
    size_t i) const {
  TRI_TRY(check_index(i));
  if (args_[i]->is_none()) {
    return Optional<Span<const int64_t>>{};
  }
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> value, int_list(i));
  return Optional<Span<const int64_t>>{true, value};
}

Result<Span<const double>> KernelArgs::double_list(size_t i) const {
  TRI_TRY(check_index(i));
  const EValue& v = *args_[i];
  if (v.tag != Tag::DoubleList) {
    return wrong_kind(i, "DoubleList", v.tag);
  }
  return Span<const double>(v.payload.as_double_list.data,
                            v.payload.as_double_list.size);
}

Result<Span<const bool>> KernelArgs::bool_list(size_t i) const {
  TRI_TRY(check_index(i));
  const EValue& v = *args_[i];
  if (v.tag != Tag::BoolList) {
    return wrong_kind(i, "BoolList", v.tag);
  }
  return Span<const bool>(v.payload.as_bool_list.data,
                          v.payload.as_bool_list.size);
}

Result<Span<Tensor* const>> KernelArgs::tensor_list(size_t i) const {
  TRI_TRY(check_index(i));
  Span<Tensor* const> out;
  TRI_TRY_CONTEXT(read_tensor_list(*args_[i], &out), "argument %zu", i);
  return out;
}

Result<Span<const char>> KernelArgs::string(size_t i) const {
  TRI_TRY(check_index(i));
  const EValue& v = *args_[i];
  if (v.tag != Tag::String) {
    return wrong_kind(i, "String", v.tag);
  }
  return Span<const char>(v.payload.as_string.data, v.payload.as_string.size);
}

}  // namespace tri
