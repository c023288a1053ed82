// The fixed bytes at the start of a .pte file: the flatbuffer root offset,
// the "ET" file magic, and the optional "eh" extended header that says where
// the program data ends and the segments begin.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace tri::pte {

struct PteHeader {
  // "ET12" -> 12.
  uint32_t file_version = 0;
  bool has_extended_header = false;
  // Length of the extended header as written: 24 (older files, no
  // segment_data_size) or 32.
  uint32_t extended_header_length = 0;
  // Bytes of flatbuffer data from offset 0 (the whole file when there is no
  // extended header).
  uint64_t program_size = 0;
  // Where segment offsets count from (0 when there is no extended header).
  uint64_t segment_base_offset = 0;
  // Only in 32-byte headers; 0 otherwise.
  uint64_t segment_data_size = 0;
};

// True when `data` carries the .pte magic ("ET" + two digits at offset 4).
bool looks_like_pte(ByteSpan data);

// Parses and checks the header against the file's size.
Result<PteHeader> parse_pte_header(ByteSpan data);

}  // namespace tri::pte
