#include "cpp/host/value_descriptor.h"

#include <cstring>

namespace tri::host {
namespace {

uint64_t address_of(const void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }

// Strings, lists and JSON text: where their items are, and how many.
void point_at(const void* items, size_t count, ValueDescriptor* out) {
  out->address = address_of(items);
  out->count = static_cast<uint32_t>(count);
}

void describe_tensor(const Tensor& t, const uint8_t* data, ValueDescriptor* out) {
  out->dtype = static_cast<uint32_t>(t.scalar_type());
  out->count = static_cast<uint32_t>(t.dim());
  for (int32_t d = 0; d < t.dim() && d < static_cast<int32_t>(kTensorDimLimit); ++d) out->sizes[d] = t.size(d);
  out->address = address_of(data != nullptr ? data : t.data());
  out->nbytes = t.nbytes();
}

// How many item records a value needs after the top-level ones.
size_t item_records(const EValue& value) {
  if (value.tag != Tag::TensorList && value.tag != Tag::OptionalTensorList) return 0;
  return value.payload.as_tensor_list.size;
}

}  // namespace

ValueDescriptor* ValueDescriptorTable::reserve(size_t records) {
  // Grows only: a table that has held this many records never allocates again.
  if (records_.size() < records) records_.resize(records);
  return records_.data();
}

const ValueDescriptor* ValueDescriptorTable::fill(Span<const EValue* const> values,
                                                  const uint8_t* const* data_override) {
  size_t total = values.size();
  for (const EValue* v : values) total += item_records(*v);
  ValueDescriptor* records = reserve(total == 0 ? 1 : total);
  std::memset(records, 0, total * sizeof(ValueDescriptor));
  size_t next_item = values.size();
  for (size_t i = 0; i < values.size(); ++i) {
    const EValue& value = *values[i];
    ValueDescriptor* out = &records[i];
    out->kind = static_cast<uint32_t>(value.tag);
    switch (value.tag) {
      case Tag::Int:
        out->int_value = value.to_int();
        break;
      case Tag::Double:
        out->double_value = value.to_double();
        break;
      case Tag::Bool:
        out->int_value = value.to_bool() ? 1 : 0;
        break;
      case Tag::String:
        point_at(value.payload.as_string.data, value.payload.as_string.size, out);
        break;
      case Tag::Tensor:
        describe_tensor(value.to_tensor(), data_override != nullptr ? data_override[i] : nullptr, out);
        break;
      case Tag::IntList: {
        Span<const int64_t> items;
        // Unboxes into the list's own scratch; no memory of ours.
        if (read_int_list(value, &items) == Error::Ok) {
          point_at(items.data(), items.size(), out);
        }
        break;
      }
      case Tag::DoubleList:
        point_at(value.payload.as_double_list.data, value.payload.as_double_list.size, out);
        break;
      case Tag::BoolList:
        point_at(value.payload.as_bool_list.data, value.payload.as_bool_list.size, out);
        break;
      case Tag::TensorList:
      case Tag::OptionalTensorList: {
        Span<Tensor* const> items;
        const size_t n = value.payload.as_tensor_list.size;
        ValueDescriptor* first = &records[next_item];
        point_at(first, n, out);
        if (read_tensor_list(value, &items) == Error::Ok) {
          for (size_t k = 0; k < items.size() && k < n; ++k) {
            if (items[k] == nullptr) {
              first[k].kind = static_cast<uint32_t>(Tag::None);
              continue;
            }
            first[k].kind = static_cast<uint32_t>(Tag::Tensor);
            describe_tensor(*items[k], nullptr, &first[k]);
          }
        }
        next_item += n;
        break;
      }
      case Tag::None:
        break;
    }
  }
  return records;
}

const ValueDescriptor* ValueDescriptorTable::fill_json(const std::vector<std::string>& texts) {
  ValueDescriptor* records = reserve(texts.empty() ? 1 : texts.size());
  std::memset(records, 0, texts.size() * sizeof(ValueDescriptor));
  for (size_t i = 0; i < texts.size(); ++i) {
    records[i].kind = kJsonValueKind;
    point_at(texts[i].data(), texts[i].size(), &records[i]);
  }
  return records;
}

}  // namespace tri::host
