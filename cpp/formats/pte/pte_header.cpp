#include "cpp/formats/pte/pte_header.h"

#include <cinttypes>

#include "cpp/runtime/core/byte_reader.h"
#include "cpp/formats/pte/file_checks.h"

namespace tri::pte {
namespace {

constexpr size_t kExtendedHeaderOffset = 8;
// magic(4) + length(4) + program_size(8) + segment_base_offset(8).
constexpr uint32_t kMinExtendedHeaderLength = 24;

bool has_magic(ByteSpan data, size_t offset, const char* letters) {
  return data.size() >= offset + 4 &&
         identifier_version(data.data() + offset, letters) >= 0;
}

}  // namespace

bool looks_like_pte(ByteSpan data) {
  return has_magic(data, kFileIdentifierOffset, "ET");
}

Result<PteHeader> parse_pte_header(ByteSpan data) {
  TRI_TRY(check_file_size(data, kFileIdentifierOffset + 4,
                          Error::InvalidProgram, ".pte"));
  if (!looks_like_pte(data)) {
    return fail(Error::InvalidProgram,
                "not a .pte file: bytes 4..7 are %02x %02x %02x %02x ('%s'), "
                "expected \"ET\" and two digits",
                data[4], data[5], data[6], data[7],
                format_tag(data.data() + kFileIdentifierOffset).text);
  }
  PteHeader header;
  header.file_version = static_cast<uint32_t>(
      identifier_version(data.data() + kFileIdentifierOffset, "ET"));
  header.program_size = data.size();
  if (!has_magic(data, kExtendedHeaderOffset, "eh")) {
    return header;
  }
  header.has_extended_header = true;
  TRI_CHECK(data.size() >= kExtendedHeaderOffset + kMinExtendedHeaderLength,
            Error::InvalidProgram,
            "extended header at offset 8 is cut off: file is %zu bytes",
            data.size());
  const uint32_t length = read_u32_le(data.data() + 12);
  TRI_CHECK(length >= kMinExtendedHeaderLength, Error::InvalidProgram,
            "extended header length %" PRIu32 " at offset 12 is below the "
            "minimum of %" PRIu32,
            length, kMinExtendedHeaderLength);
  TRI_CHECK(kExtendedHeaderOffset + static_cast<uint64_t>(length) <= data.size(),
            Error::InvalidProgram,
            "extended header length %" PRIu32 " runs past the end of the "
            "%zu-byte file",
            length, data.size());
  header.extended_header_length = length;
  header.program_size = read_u64_le(data.data() + 16);
  header.segment_base_offset = read_u64_le(data.data() + 24);
  if (length >= 32) {
    header.segment_data_size = read_u64_le(data.data() + 32);
  }
  TRI_CHECK(header.program_size <= data.size(), Error::InvalidProgram,
            "extended header says the program data is %" PRIu64
            " bytes but the file is %zu (truncated?)",
            header.program_size, data.size());
  TRI_CHECK(header.segment_base_offset == 0 ||
                header.segment_base_offset >= header.program_size,
            Error::InvalidProgram,
            "segment base offset %" PRIu64 " lies inside the program data (%" PRIu64
            " bytes)",
            header.segment_base_offset, header.program_size);
  TRI_CHECK(header.segment_base_offset <= data.size(), Error::InvalidProgram,
            "segment base offset %" PRIu64 " is past the end of the %zu-byte "
            "file (truncated?)",
            header.segment_base_offset, data.size());
  return header;
}

}  // namespace tri::pte
