#include "cpp/formats/bef/bef_location.h"

#include <cstring>

#include "cpp/formats/bef/bef_cursor.h"

namespace tri::bef {
namespace {

constexpr int kMaxLocationDepth = 16;

const char* location_string(const BefFile& file, uint32_t offset) {
  const Span<const uint8_t> strings = file.section(SectionId::LocationStrings);
  if (offset >= strings.size()) return nullptr;
  if (std::memchr(strings.data() + offset, 0, strings.size() - offset) == nullptr) return nullptr;
  return reinterpret_cast<const char*>(strings.data() + offset);
}

// Reads one record, filling `found` with the first file location inside it.
// Returns false when the record is malformed.
bool read_record(const BefFile& file, BefCursor& cursor, int depth, SourceLocation* found) {
  if (depth > kMaxLocationDepth) return false;
  uint8_t tag = 0;
  if (!cursor.read_byte(&tag)) return false;
  switch (tag) {
    case 0:  // unknown
      return true;
    case 1: {  // file, line, column
      uint32_t name = 0, line = 0, column = 0;
      if (!cursor.read_vbr(&name) || !cursor.read_vbr(&line) || !cursor.read_vbr(&column)) {
        return false;
      }
      if (found->filename == nullptr) {
        found->filename = location_string(file, name);
        found->line = line;
        found->column = column;
      }
      return true;
    }
    case 2: {  // name, then the child location
      uint32_t name = 0;
      return cursor.read_vbr(&name) && read_record(file, cursor, depth + 1, found);
    }
    case 3:  // callee, then caller
      return read_record(file, cursor, depth + 1, found) &&
             read_record(file, cursor, depth + 1, found);
    case 4: {  // fused
      uint32_t count = 0;
      if (!cursor.read_vbr(&count) || count > cursor.remaining()) return false;
      for (uint32_t i = 0; i < count; ++i) {
        if (!read_record(file, cursor, depth + 1, found)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

SourceLocation decode_location(const BefFile& file, uint32_t offset) {
  const Span<const uint8_t> locations = file.section(SectionId::Locations);
  if (locations.data() == nullptr || offset >= locations.size()) return {};
  BefCursor cursor(locations.data() + offset, locations.data() + locations.size());
  SourceLocation found;
  if (!read_record(file, cursor, 0, &found)) return {};
  return found;
}

}  // namespace tri::bef
