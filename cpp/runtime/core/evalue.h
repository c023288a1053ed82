// EValue: one slot of a method's value table, holding any of the kinds a
// program can pass to an operator. Lists refer to other slots ("boxed"), as in
// ExecuTorch, so that a value computed at run time (a symbolic size, a tensor
// replaced by a MoveCall) is seen by every list that names its slot.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/span.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

enum class Tag : uint8_t {
  None,
  Int,
  Double,
  Bool,
  String,
  Tensor,
  IntList,
  DoubleList,
  BoolList,
  TensorList,
  OptionalTensorList,
};

const char* tag_name(Tag tag);

struct EValue;

// A list of Int slots, unboxed into `scratch` on each read.
struct BoxedIntList {
  EValue* const* items;
  int64_t* scratch;
  size_t size;
};

// A list of Tensor slots (or None, for OptionalTensorList), unboxed into
// `scratch` on each read; a None item reads as nullptr.
struct BoxedTensorList {
  EValue* const* items;
  Tensor** scratch;
  size_t size;
};

struct EValue {
  Tag tag = Tag::None;
  union Payload {
    int64_t as_int;
    double as_double;
    bool as_bool;
    struct {
      const char* data;
      size_t size;
    } as_string;
    Tensor* as_tensor;
    BoxedIntList as_int_list;
    struct {
      const double* data;
      size_t size;
    } as_double_list;
    struct {
      const bool* data;
      size_t size;
    } as_bool_list;
    BoxedTensorList as_tensor_list;
  } payload = {0};

  static EValue none() { return EValue(); }
  static EValue from_int(int64_t v) {
    EValue e;
    e.tag = Tag::Int;
    e.payload.as_int = v;
    return e;
  }
  static EValue from_double(double v) {
    EValue e;
    e.tag = Tag::Double;
    e.payload.as_double = v;
    return e;
  }
  static EValue from_bool(bool v) {
    EValue e;
    e.tag = Tag::Bool;
    e.payload.as_bool = v;
    return e;
  }
  static EValue from_tensor(Tensor* t) {
    EValue e;
    e.tag = Tag::Tensor;
    e.payload.as_tensor = t;
    return e;
  }

  bool is_none() const { return tag == Tag::None; }
  bool is_int() const { return tag == Tag::Int; }
  bool is_double() const { return tag == Tag::Double; }
  bool is_bool() const { return tag == Tag::Bool; }
  bool is_tensor() const { return tag == Tag::Tensor; }
  bool is_scalar() const { return is_int() || is_double() || is_bool(); }

  // Unchecked accessors: callers check the tag first (see KernelArgs for the
  // checked ones kernels use).
  int64_t to_int() const { return payload.as_int; }
  double to_double() const { return payload.as_double; }
  bool to_bool() const { return payload.as_bool; }
  Tensor& to_tensor() const { return *payload.as_tensor; }
};

// Reads an IntList: every item must be an Int slot. Writes the unboxed values
// into the list's scratch and returns them.
Error read_int_list(const EValue& value, Span<const int64_t>* out);

// Reads a TensorList (every item a Tensor) or an OptionalTensorList (items
// Tensor or None, None read as nullptr).
Error read_tensor_list(const EValue& value, Span<Tensor* const>* out);

}  // namespace tri
