#include "cpp/runtime/core/evalue.h"

namespace tri {

const char* tag_name(Tag tag) {
  switch (tag) {
    case Tag::None: return "None";
    case Tag::Int: return "Int";
    case Tag::Double: return "Double";
    case Tag::Bool: return "Bool";
    case Tag::String: return "String";
    case Tag::Tensor: return "Tensor";
    case Tag::IntList: return "IntList";
    case Tag::DoubleList: return "DoubleList";
    case Tag::BoolList: return "BoolList";
    case Tag::TensorList: return "TensorList";
    case Tag::OptionalTensorList: return "OptionalTensorList";
  }
  return "Unknown";
}

Error read_int_list(const EValue& value, Span<const int64_t>* out) {
  TRI_CHECK(value.tag == Tag::IntList, Error::InvalidType,
            "expected IntList, got %s", tag_name(value.tag));
  const BoxedIntList& list = value.payload.as_int_list;
  for (size_t i = 0; i < list.size; ++i) {
    const EValue* item = list.items[i];
    TRI_CHECK(item->is_int(), Error::InvalidType,
              "IntList item %zu is %s, expected Int", i, tag_name(item->tag));
    list.scratch[i] = item->to_int();
  }
  *out = Span<const int64_t>(list.scratch, list.size);
  return Error::Ok;
}

Error read_tensor_list(const EValue& value, Span<Tensor* const>* out) {
  const bool optional = value.tag == Tag::OptionalTensorList;
  TRI_CHECK(value.tag == Tag::TensorList || optional, Error::InvalidType,
            "expected TensorList, got %s", tag_name(value.tag));
  const BoxedTensorList& list = value.payload.as_tensor_list;
  for (size_t i = 0; i < list.size; ++i) {
    const EValue* item = list.items[i];
    if (optional && item->is_none()) {
      list.scratch[i] = nullptr;
      continue;
    }
    TRI_CHECK(item->is_tensor(), Error::InvalidType,
              "%s item %zu is %s, expected Tensor", tag_name(value.tag), i,
              tag_name(item->tag));
    list.scratch[i] = item->payload.as_tensor;
  }
  *out = Span<Tensor* const>(list.scratch, list.size);
  return Error::Ok;
}

}  // namespace tri
