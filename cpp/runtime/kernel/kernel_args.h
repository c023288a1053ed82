// The arguments of one operator call, with checked accessors. A program is
// untrusted input: every accessor checks the slot's kind and reports
// "argument 2: expected Tensor, got Int" instead of misreading memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/core/span.h"

namespace tri {

// An ATen Scalar: Int, Double or Bool.
struct Scalar {
  Tag tag = Tag::Int;
  int64_t i = 0;
  double d = 0;
  bool b = false;

  bool is_integral() const { return tag == Tag::Int || tag == Tag::Bool; }
  bool is_floating() const { return tag == Tag::Double; }
  bool is_bool() const { return tag == Tag::Bool; }
  double as_double() const {
    return tag == Tag::Double ? d : tag == Tag::Int ? static_cast<double>(i)
                                                    : (b ? 1.0 : 0.0);
  }
  int64_t as_int() const {
    return tag == Tag::Int ? i : tag == Tag::Bool ? (b ? 1 : 0)
                                                  : static_cast<int64_t>(d);
  }
};

template <typename T>
struct Optional {
  bool has_value = false;
  T value{};
};

class KernelArgs {
 public:
  KernelArgs(EValue* const* args, size_t size) : args_(args), size_(size) {}

  size_t size() const { return size_; }
  // Unchecked; for kernels that verified size() first.
  EValue& at(size_t i) const { return *args_[i]; }
  // The slot itself, checked, e.g. for prim ops that write their result.
  Result<EValue*> slot(size_t i) const;

  Result<Tensor*> tensor(size_t i) const;
  // nullptr for None.
  Result<Tensor*> optional_tensor(size_t i) const;
  Result<int64_t> int_value(size_t i) const;
  Result<Optional<int64_t>> optional_int(size_t i) const;
  // A `float` schema argument: Double, or Int (the exporter writes integral
  // floats either way).
  Result<double> double_value(size_t i) const;
  Result<Optional<double>> optional_double(size_t i) const;
  Result<bool> bool_value(size_t i) const;
  Result<Optional<bool>> optional_bool(size_t i) const;
  Result<Scalar> scalar(size_t i) const;
  Result<Optional<Scalar>> optional_scalar(size_t i) const;
  // `ScalarType? dtype`: an Int holding the type number, or None.
  Result<Optional<ScalarType>> optional_scalar_type(size_t i) const;
  Result<Span<const int64_t>> int_list(size_t i) const;
  Result<Optional<Span<const int64_t>>> optional_int_list(size_t i) const;
  Result<Span<const double>> double_list(size_t i) const;
  Result<Span<const bool>> bool_list(size_t i) const;
  // TensorList, or OptionalTensorList (None items are nullptr).
  Result<Span<Tensor* const>> tensor_list(size_t i) const;
  Result<Span<const char>> string(size_t i) const;

 private:
  Error check_index(size_t i) const;

  EValue* const* args_;
  size_t size_;
};

}  // namespace tri
