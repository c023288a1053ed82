// A small zip writer for tests: stored (or claimed-compressed) records
// with real CRCs, optionally in the ZIP64 form with saturated directory
// fields, so tests can build archives that real files do not cover.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tri::testing {

struct ZipRecord {
  std::string name;
  std::string data;
  uint16_t method = 0;
};

void put16(std::vector<uint8_t>& out, uint32_t v);
void put32(std::vector<uint8_t>& out, uint32_t v);
void put64(std::vector<uint8_t>& out, uint64_t v);
void set32(std::vector<uint8_t>& out, size_t at, uint32_t v);

// `zip64_extra` saturates the 32-bit sizes and offsets in the directory and
// puts the real values in a ZIP64 extra field, with ZIP64 end records.
std::vector<uint8_t> make_zip(const std::vector<ZipRecord>& records, bool zip64_extra = false);

}  // namespace tri::testing
