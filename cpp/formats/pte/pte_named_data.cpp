#include "cpp/formats/pte/pte_named_data.h"

#include <cstring>

#include "cpp/formats/pte/schema/program_generated.h"

namespace tri::pte {

Result<ByteSpan> PteNamedData::get(Span<const char> key) const {
  const auto* entries = file_.program ? file_.program->named_data() : nullptr;
  const size_t n = entries ? entries->size() : 0;
  for (size_t i = 0; i < n; ++i) {
    const auto* entry = entries->Get(static_cast<flatbuffers::uoffset_t>(i));
    const flatbuffers::String* k = entry->key();
    if (k != nullptr && k->size() == key.size() &&
        memcmp(k->data(), key.data(), key.size()) == 0) {
      Result<ByteSpan> data = file_.segment(entry->segment_index());
      if (!data.ok()) {
        return add_context(data.error(), "named data '%.*s'",
                           static_cast<int>(key.size()), key.data());
      }
      return data.take();
    }
  }
  return fail(Error::NotFound, "the program has no named data '%.*s'",
              static_cast<int>(key.size()), key.data());
}

size_t PteNamedData::size() const {
  const auto* entries = file_.program ? file_.program->named_data() : nullptr;
  return entries ? entries->size() : 0;
}

Result<Span<const char>> PteNamedData::key_at(size_t index) const {
  TRI_CHECK(index < size(), Error::InvalidArgument,
            "named data index %zu out of range", index);
  const flatbuffers::String* k =
      file_.program->named_data()->Get(static_cast<flatbuffers::uoffset_t>(index))->key();
  TRI_CHECK(k != nullptr, Error::InvalidProgram, "named data %zu has no key",
            index);
  return Span<const char>(k->data(), k->size());
}

}  // namespace tri::pte
