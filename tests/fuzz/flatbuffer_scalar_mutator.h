// A structure-aware mutator for flatbuffers: it walks a valid buffer with its
// schema (a .bfbs, flatc --binary --schema) and rewrites a few of the scalars
// it finds in place: table fields, struct fields, elements of scalar vectors,
// union types. Sizes and offsets of the buffer itself never change, so the
// result still verifies (unless a union's type now names another table), and
// the loader's own checks, not the flatbuffers verifier, meet the lie: a
// value index past the table, a negative size, a dtype that does not exist, a
// jump to nowhere, an offset past a segment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <flatbuffers/reflection.h>

namespace tri::fuzz {

class FlatbufferScalarMutator {
 public:
  // `bfbs` is the binary schema; it must outlive the mutator.
  explicit FlatbufferScalarMutator(const std::vector<uint8_t>& bfbs);

  bool ok() const { return schema_ != nullptr; }

  // Rewrites `edits` scalars of the flatbuffer whose root offset is at
  // `buffer` (already verified by the caller, and aligned as flatbuffers
  // need). False when it holds no scalar to edit.
  bool mutate(uint8_t* buffer, size_t size, int edits, std::minstd_rand& rng);

 private:
  struct Slot {
    uint8_t* address;
    reflection::BaseType type;
    uint32_t count;  // 1 for a field; the length for a scalar vector
  };

  void collect_table(const reflection::Object& object, flatbuffers::Table* table, int depth);
  void collect_struct(const reflection::Object& object, uint8_t* address);
  void collect_field_value(const reflection::Field& field, const reflection::Type& type,
                           flatbuffers::Table* table, const reflection::Object& owner, int depth);
  void edit(const Slot& slot, std::minstd_rand& rng);

  const reflection::Schema* schema_ = nullptr;
  std::vector<Slot> slots_;
};

}  // namespace tri::fuzz
