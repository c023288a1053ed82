// A minimal BEF section reader for the translator tests, written from
// FORMAT-NOTES (independent of the translator's own code), so tests can look
// at one section of a translated file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tri::bef::testing {

struct BefSections {
  bool ok = false;
  std::vector<uint8_t> ids;  // in file order
  std::map<uint8_t, std::vector<uint8_t>> payload;
  std::map<uint8_t, size_t> start;  // file offset of each payload
};

inline bool read_vbr(const std::vector<uint8_t>& bytes, size_t* pos, uint64_t* value) {
  *value = 0;
  while (*pos < bytes.size()) {
    const uint8_t b = bytes[(*pos)++];
    *value = (*value << 7) | (b & 0x7F);
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

inline BefSections read_sections(const std::vector<uint8_t>& file) {
  BefSections out;
  if (file.size() < 3 || file[0] != 0x0B || file[1] != 0xEF || file[2] != 0) return out;
  size_t pos = 3;
  while (pos < file.size()) {
    const uint8_t id = file[pos++];
    uint64_t length = 0;
    if (!read_vbr(file, &pos, &length)) return out;
    if (length & 1) {
      if (pos >= file.size()) return out;
      const uint8_t alignment = file[pos++];
      if (alignment == 0) return out;
      while (pos % alignment != 0) {
        if (pos >= file.size() || file[pos] != 0xCC) return out;
        ++pos;
      }
    }
    length >>= 1;
    if (pos + length > file.size()) return out;
    out.ids.push_back(id);
    out.start[id] = pos;
    out.payload[id].assign(file.begin() + static_cast<long>(pos),
                           file.begin() + static_cast<long>(pos + length));
    pos += length;
  }
  out.ok = true;
  return out;
}

// The NUL-terminated strings of a Strings-like section, by offset.
inline std::map<size_t, std::string> read_strings(const std::vector<uint8_t>& section) {
  std::map<size_t, std::string> out;
  size_t start = 0;
  for (size_t i = 0; i < section.size(); ++i) {
    if (section[i] == 0) {
      out[start] = std::string(section.begin() + static_cast<long>(start),
                               section.begin() + static_cast<long>(i));
      start = i + 1;
    }
  }
  return out;
}

// A Kernels or Types section resolved to names.
inline std::vector<std::string> read_name_table(const BefSections& s, uint8_t id) {
  std::vector<std::string> names;
  const std::map<size_t, std::string> strings = read_strings(s.payload.at(0));
  const std::vector<uint8_t>& t = s.payload.at(id);
  size_t pos = 0;
  uint64_t count = 0;
  read_vbr(t, &pos, &count);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t offset = 0;
    read_vbr(t, &pos, &offset);
    auto it = strings.find(offset);
    names.push_back(it == strings.end() ? "<bad offset>" : it->second);
  }
  return names;
}

struct IndexEntry {
  uint8_t kind = 0;
  uint64_t offset = 0;
  std::string name;
  std::vector<std::string> inputs;
  std::vector<std::string> results;
};

inline std::vector<IndexEntry> read_function_index(const BefSections& s) {
  std::vector<IndexEntry> out;
  const std::map<size_t, std::string> strings = read_strings(s.payload.at(0));
  const std::vector<std::string> types = read_name_table(s, 3);
  const std::vector<uint8_t>& t = s.payload.at(4);
  size_t pos = 0;
  uint64_t count = 0;
  read_vbr(t, &pos, &count);
  for (uint64_t i = 0; i < count && pos < t.size(); ++i) {
    IndexEntry e;
    e.kind = t[pos++];
    uint64_t name = 0;
    uint64_t n = 0;
    uint64_t type = 0;
    read_vbr(t, &pos, &e.offset);
    read_vbr(t, &pos, &name);
    e.name = strings.count(name) ? strings.at(name) : "<bad>";
    read_vbr(t, &pos, &n);
    for (uint64_t k = 0; k < n; ++k) {
      read_vbr(t, &pos, &type);
      e.inputs.push_back(type < types.size() ? types[type] : "<bad>");
    }
    read_vbr(t, &pos, &n);
    for (uint64_t k = 0; k < n; ++k) {
      read_vbr(t, &pos, &type);
      e.results.push_back(type < types.size() ? types[type] : "<bad>");
    }
    out.push_back(e);
  }
  return out;
}

}  // namespace tri::bef::testing
