#include "cpp/formats/pte/file_checks.h"

#include <cstring>

namespace tri::pte {
namespace {

constexpr size_t kIdentifierSize = 4;

bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }

}  // namespace

TagText format_tag(const uint8_t* bytes) {
  TagText tag;
  for (size_t i = 0; i < kIdentifierSize; ++i) {
    const uint8_t c = bytes[i];
    tag.text[i] = (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '.';
  }
  tag.text[kIdentifierSize] = '\0';
  return tag;
}

Error check_file_size(ByteSpan file, size_t min_size, Error code,
                      const char* what) {
  TRI_CHECK(file.data() != nullptr && file.size() >= min_size, code,
            "%s: the file is %zu bytes, too small for its header (at least "
            "%zu bytes)",
            what, file.size(), min_size);
  return Error::Ok;
}

Error check_file_alignment(ByteSpan file, size_t alignment, const char* what) {
  TRI_CHECK(reinterpret_cast<uintptr_t>(file.data()) % alignment == 0,
            Error::InvalidArgument,
            "%s: the file's bytes must start at an address aligned to %zu "
            "bytes (they start at %p)",
            what, alignment, static_cast<const void*>(file.data()));
  return Error::Ok;
}

Error check_file_start(ByteSpan file, size_t min_size, size_t alignment,
                       const char* what) {
  TRI_TRY(check_file_size(file, min_size, Error::InvalidArgument, what));
  return check_file_alignment(file, alignment, what);
}

int32_t identifier_version(const uint8_t* id, const char* letters) {
  if (id[0] != static_cast<uint8_t>(letters[0]) ||
      id[1] != static_cast<uint8_t>(letters[1]) || !is_digit(id[2]) ||
      !is_digit(id[3])) {
    return -1;
  }
  return (id[2] - '0') * 10 + (id[3] - '0');
}

bool has_identifier(ByteSpan file, size_t offset, const char* expected) {
  return file.data() != nullptr && file.size() >= offset + kIdentifierSize &&
         memcmp(file.data() + offset, expected, kIdentifierSize) == 0;
}

Error check_identifier(ByteSpan file, size_t offset, const char* expected,
                       Error not_this_format, const char* kind) {
  const size_t end = offset + kIdentifierSize;
  TRI_CHECK(file.data() != nullptr && file.size() >= end, not_this_format,
            "not a %s: the file is %zu bytes, too small for an identifier at "
            "bytes %zu..%zu",
            kind, file.size(), offset, end);
  if (has_identifier(file, offset, expected)) {
    return Error::Ok;
  }
  const uint8_t* id = file.data() + offset;
  if (identifier_version(id, expected) >= 0) {
    return fail(Error::NotSupported,
                "%s version '%s' (bytes %zu..%zu) is not supported; Trident "
                "reads '%.4s'",
                kind, format_tag(id).text, offset, end, expected);
  }
  return fail(not_this_format,
              "not a %s: identifier '%s' at bytes %zu..%zu, expected '%.4s'",
              kind, format_tag(id).text, offset, end, expected);
}

}  // namespace tri::pte
