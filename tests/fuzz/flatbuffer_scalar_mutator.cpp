#include "tests/fuzz/flatbuffer_scalar_mutator.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace tri::fuzz {

namespace {

// Deep enough for any ExecuTorch schema; a bound all the same.
constexpr int kMaxDepth = 32;
// A buffer with more scalars than this is sampled by its first ones.
constexpr size_t kMaxSlots = size_t{1} << 18;

bool is_scalar(reflection::BaseType type) {
  return type >= reflection::UType && type <= reflection::Double;
}

bool is_signed(reflection::BaseType type) {
  return type == reflection::Byte || type == reflection::Short || type == reflection::Int ||
         type == reflection::Long;
}

// A new value for an integer of `bytes` bytes now holding `current`: the
// edges of its type, zero and one, small numbers (indices, dims), near the
// current value, or anything.
int64_t pick_integer(int64_t current, size_t bytes, bool is_signed_type, std::minstd_rand& rng) {
  const int bits = static_cast<int>(bytes * 8);
  const uint64_t max_signed = (uint64_t{1} << (bits - 1)) - 1;
  // Unsigned arithmetic: wrapping at the type's edges is the point.
  const uint64_t now = static_cast<uint64_t>(current);
  uint64_t value;
  switch (rng() % 10) {
    case 0: value = 0; break;
    case 1: value = is_signed_type ? ~uint64_t{0} : 1; break;
    case 2: value = now + 1; break;
    case 3: value = now - 1; break;
    case 4: value = now + rng() % 33 - 16; break;
    case 5: value = rng() % 64; break;
    case 6: value = max_signed; break;
    case 7: value = is_signed_type ? ~max_signed : ~uint64_t{0}; break;  // min, or all ones
    case 8: value = now * 2 + 1; break;
    default: value = (uint64_t{rng()} << 32) ^ rng(); break;
  }
  return static_cast<int64_t>(value);
}

double pick_float(double current, std::minstd_rand& rng) {
  switch (rng() % 8) {
    case 0: return 0.0;
    case 1: return -current;
    case 2: return std::numeric_limits<double>::quiet_NaN();
    case 3: return std::numeric_limits<double>::infinity();
    case 4: return -std::numeric_limits<double>::infinity();
    case 5: return 1e30;
    case 6: return current * 2;
    default: return static_cast<double>(static_cast<int32_t>(rng())) / 65536.0;
  }
}

}  // namespace

FlatbufferScalarMutator::FlatbufferScalarMutator(const std::vector<uint8_t>& bfbs) {
  flatbuffers::Verifier verifier(bfbs.data(), bfbs.size());
  if (reflection::VerifySchemaBuffer(verifier)) schema_ = reflection::GetSchema(bfbs.data());
}

void FlatbufferScalarMutator::collect_struct(const reflection::Object& object, uint8_t* address) {
  for (const reflection::Field* field : *object.fields()) {
    const reflection::Type& type = *field->type();
    if (is_scalar(type.base_type())) {
      slots_.push_back({address + field->offset(), type.base_type(), 1});
    } else if (type.base_type() == reflection::Obj) {
      collect_struct(*schema_->objects()->Get(type.index()), address + field->offset());
    }
  }
}

void FlatbufferScalarMutator::collect_field_value(const reflection::Field& field,
                                                  const reflection::Type& type,
                                                  flatbuffers::Table* table,
                                                  const reflection::Object& owner, int depth) {
  const reflection::BaseType base = type.base_type();
  if (base == reflection::Obj) {
    const reflection::Object& object = *schema_->objects()->Get(type.index());
    if (object.is_struct()) {
      uint8_t* address = const_cast<uint8_t*>(table->GetStruct<const uint8_t*>(field.offset()));
      if (address != nullptr) collect_struct(object, address);
    } else {
      auto* child = table->GetPointer<flatbuffers::Table*>(field.offset());
      if (child != nullptr) collect_table(object, child, depth + 1);
    }
    return;
  }
  if (base == reflection::Union) {
    const std::string type_name = field.name()->str() + "_type";
    const reflection::Field* type_field = owner.fields()->LookupByKey(type_name.c_str());
    if (type_field == nullptr) return;
    const int64_t which = table->GetField<uint8_t>(type_field->offset(), 0);
    const reflection::Enum& options = *schema_->enums()->Get(type.index());
    const reflection::EnumVal* option = options.values()->LookupByKey(which);
    auto* child = table->GetPointer<flatbuffers::Table*>(field.offset());
    if (option == nullptr || option->union_type() == nullptr || child == nullptr) return;
    const reflection::BaseType member = option->union_type()->base_type();
    if (member != reflection::Obj) return;
    const reflection::Object& object = *schema_->objects()->Get(option->union_type()->index());
    if (!object.is_struct()) collect_table(object, child, depth + 1);
    return;
  }
  if (base != reflection::Vector) return;
  auto* vector = table->GetPointer<flatbuffers::VectorOfAny*>(field.offset());
  if (vector == nullptr || vector->size() == 0) return;
  uint8_t* elements = const_cast<uint8_t*>(vector->Data());
  const reflection::BaseType element = type.element();
  if (is_scalar(element)) {
    slots_.push_back({elements, element, vector->size()});
    return;
  }
  if (element != reflection::Obj) return;
  const reflection::Object& object = *schema_->objects()->Get(type.index());
  for (uint32_t i = 0; i < vector->size() && slots_.size() < kMaxSlots; ++i) {
    if (object.is_struct()) {
      collect_struct(object, elements + size_t{i} * object.bytesize());
    } else {
      uint8_t* at = elements + size_t{i} * sizeof(flatbuffers::uoffset_t);
      auto* child = reinterpret_cast<flatbuffers::Table*>(at + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(at));
      collect_table(object, child, depth + 1);
    }
  }
}

void FlatbufferScalarMutator::collect_table(const reflection::Object& object,
                                            flatbuffers::Table* table, int depth) {
  if (depth > kMaxDepth) return;
  for (const reflection::Field* field : *object.fields()) {
    if (slots_.size() >= kMaxSlots) return;
    const reflection::Type& type = *field->type();
    if (is_scalar(type.base_type())) {
      // Only fields the buffer stores: an absent one has no bytes to edit.
      const flatbuffers::voffset_t at = table->GetOptionalFieldOffset(field->offset());
      if (at != 0) {
        slots_.push_back({reinterpret_cast<uint8_t*>(table) + at, type.base_type(), 1});
      }
      continue;
    }
    collect_field_value(*field, type, table, object, depth);
  }
}

void FlatbufferScalarMutator::edit(const Slot& slot, std::minstd_rand& rng) {
  const size_t bytes = flatbuffers::GetTypeSize(slot.type);
  uint8_t* at = slot.address + bytes * (rng() % slot.count);
  if (slot.type == reflection::Float) {
    float value;
    std::memcpy(&value, at, sizeof value);
    value = static_cast<float>(pick_float(value, rng));
    std::memcpy(at, &value, sizeof value);
    return;
  }
  if (slot.type == reflection::Double) {
    double value;
    std::memcpy(&value, at, sizeof value);
    value = pick_float(value, rng);
    std::memcpy(at, &value, sizeof value);
    return;
  }
  if (slot.type == reflection::Bool) {
    *at = *at ? 0 : static_cast<uint8_t>(1 + rng() % 2);
    return;
  }
  // Little-endian in the buffer, as on every host this runs on.
  int64_t current = 0;
  std::memcpy(&current, at, bytes);
  if (is_signed(slot.type) && bytes < 8) {
    const int shift = static_cast<int>(64 - bytes * 8);
    current = static_cast<int64_t>(static_cast<uint64_t>(current) << shift) >> shift;
  }
  const int64_t value = pick_integer(current, bytes, is_signed(slot.type), rng);
  std::memcpy(at, &value, bytes);
}

bool FlatbufferScalarMutator::mutate(uint8_t* buffer, size_t size, int edits,
                                     std::minstd_rand& rng) {
  if (schema_ == nullptr || size < sizeof(flatbuffers::uoffset_t)) return false;
  slots_.clear();
  collect_table(*schema_->root_table(), flatbuffers::GetAnyRoot(buffer), 0);
  if (slots_.empty()) return false;
  for (int i = 0; i < edits; ++i) edit(slots_[rng() % slots_.size()], rng);
  return true;
}

}  // namespace tri::fuzz
