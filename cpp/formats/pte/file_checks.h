// The first checks every flatbuffer-based reader (.pte, .ptd, .bpte) makes
// before it trusts a byte: the file is large enough and suitably aligned, and
// the 4-byte identifier ("ET12", "FT01", "BP08": two letters, then a two-digit
// version) is the one this reader understands.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/span.h"

namespace tri::pte {

// Where a flatbuffer's file identifier sits: after the 4-byte root offset.
constexpr size_t kFileIdentifierOffset = 4;

// Four file bytes as printable text for messages ('.' for anything else).
struct TagText {
  char text[5];
};
TagText format_tag(const uint8_t* bytes);

// Fails with `code` unless `file` has bytes and at least `min_size` of them.
// `what` starts the message ("bundled program", ".ptd", ".pte").
Error check_file_size(ByteSpan file, size_t min_size, Error code,
                      const char* what);

// Fails with InvalidArgument unless the bytes start at an address that is a
// multiple of `alignment`.
Error check_file_alignment(ByteSpan file, size_t alignment, const char* what);

// check_file_size (InvalidArgument), then check_file_alignment.
Error check_file_start(ByteSpan file, size_t min_size, size_t alignment,
                       const char* what);

// The version of a 4-byte identifier made of `letters` (2 characters) and two
// decimal digits ("ET12" with "ET" -> 12), or -1 when `id` is not one.
int32_t identifier_version(const uint8_t* id, const char* letters);

// True when `file` holds the 4 bytes `expected` at `offset`.
bool has_identifier(ByteSpan file, size_t offset, const char* expected);

// Checks the 4 bytes at `offset` against `expected` ("BP08"). The same two
// letters with other digits are another version of the format: NotSupported,
// "<kind> version 'BP07' (bytes 4..8) is not supported; Trident reads 'BP08'".
// Anything else is not this format at all: `not_this_format`,
// "not a <kind>: identifier 'ET12' at bytes 4..8, expected 'BP08'".
Error check_identifier(ByteSpan file, size_t offset, const char* expected,
                       Error not_this_format, const char* kind);

}  // namespace tri::pte
