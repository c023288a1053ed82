// Building hostile variants of real files (a word overwritten, a flatbuffer
// field moved) and checking that a reader refuses them with the right error;
// and reading what a reader hands out for the files it accepts.
#pragma once

#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/span.h"

namespace tri::testing {

ByteSpan span_of(const std::vector<uint8_t>& bytes);
// A C string as the Span<const char> that readers take for names and keys.
Span<const char> span_of(const char* text);

// What readers hand out, as values to compare.
std::string str(Span<const char> text);
template <typename T>
std::vector<T> values_of(ByteSpan bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

// Little-endian stores, as the file formats are little-endian.
void put_u32(std::vector<uint8_t>& bytes, size_t at, uint32_t value);
void put_u64(std::vector<uint8_t>& bytes, size_t at, uint64_t value);

// Offset in `buffer` of `field`, the address of flatbuffer field `vt`; the
// field must be present and inside the buffer.
size_t offset_in(const std::vector<uint8_t>& buffer, const uint8_t* field,
                 uint16_t vt);

// Offset in `buffer` of field `vt` of a flatbuffer table (which must be
// present), for building hostile variants.
template <typename T>
size_t field_offset(const std::vector<uint8_t>& buffer, const T* table,
                    uint16_t vt) {
  return offset_in(
      buffer,
      reinterpret_cast<const flatbuffers::Table*>(table)->GetAddressOf(vt), vt);
}

// Expects `actual` to be `code`, and every one of `parts` to be in the
// current error message.
void expect_error(Error actual, Error code,
                  std::initializer_list<const char*> parts);

// Loads `bytes` with `Reader::load`, expecting failure with `code` and every
// one of `parts` in the message.
template <typename Reader>
void expect_load_error(ByteSpan bytes, Error code,
                       std::initializer_list<const char*> parts) {
  clear_error();
  auto loaded = Reader::load(bytes);
  ASSERT_FALSE(loaded.ok());
  expect_error(loaded.error(), code, parts);
}

template <typename Reader>
void expect_load_error(const std::vector<uint8_t>& bytes, Error code,
                       std::initializer_list<const char*> parts) {
  expect_load_error<Reader>(span_of(bytes), code, parts);
}

// Loads every proper prefix of `file`, each in an allocation of exactly its
// size (so ASan catches any read past the end), and expects every one to
// fail with a message. Wrap in ASSERT_NO_FATAL_FAILURE.
template <typename Reader>
void expect_every_truncation_fails(const std::vector<uint8_t>& file) {
  for (size_t n = 0; n < file.size(); ++n) {
    const std::vector<uint8_t> cut(file.begin(), file.begin() + n);
    clear_error();
    auto loaded = Reader::load(span_of(cut));
    ASSERT_FALSE(loaded.ok()) << "loaded a " << n << "-byte prefix";
    ASSERT_STRNE(last_error_message(), "") << n;
  }
}

struct CorruptionCounts {
  size_t loaded = 0;
  size_t refused = 0;
};

// Flips each byte of `file` with each of `masks` and loads the copy. A
// refusal must come with a message; what loads is handed to
// `check(reader, bytes)`. Counts both into `counts`. Stops at the first fatal
// failure; wrap in ASSERT_NO_FATAL_FAILURE.
template <typename Reader, typename Check>
void corrupt_every_byte(const std::vector<uint8_t>& file,
                        std::initializer_list<uint8_t> masks, Check check,
                        CorruptionCounts* counts) {
  for (size_t i = 0; i < file.size(); ++i) {
    for (uint8_t mask : masks) {
      std::vector<uint8_t> bad = file;
      bad[i] ^= mask;
      clear_error();
      auto loaded = Reader::load(span_of(bad));
      if (loaded.ok()) {
        ++counts->loaded;
        check(loaded.get(), bad);
        if (::testing::Test::HasFatalFailure()) return;
      } else {
        ++counts->refused;
        ASSERT_STRNE(last_error_message(), "") << "byte " << i;
      }
    }
  }
}

}  // namespace tri::testing
