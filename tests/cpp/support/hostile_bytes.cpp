#include "tests/cpp/support/hostile_bytes.h"

#include <cstring>
#include <string>

namespace tri::testing {
namespace {

void put_le(std::vector<uint8_t>& bytes, size_t at, uint64_t value,
            size_t width) {
  ASSERT_LE(at + width, bytes.size())
      << "store at " << at << " is past the end";
  for (size_t i = 0; i < width; ++i) {
    bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
  }
}

}  // namespace

ByteSpan span_of(const std::vector<uint8_t>& bytes) {
  return ByteSpan(bytes.data(), bytes.size());
}

Span<const char> span_of(const char* text) {
  return Span<const char>(text, std::strlen(text));
}

std::string str(Span<const char> text) {
  return std::string(text.data(), text.size());
}

void put_u32(std::vector<uint8_t>& bytes, size_t at, uint32_t value) {
  put_le(bytes, at, value, sizeof(value));
}

void put_u64(std::vector<uint8_t>& bytes, size_t at, uint64_t value) {
  put_le(bytes, at, value, sizeof(value));
}

size_t offset_in(const std::vector<uint8_t>& buffer, const uint8_t* field,
                 uint16_t vt) {
  EXPECT_NE(field, nullptr) << "field " << vt << " is absent";
  const bool inside = field != nullptr && field >= buffer.data() &&
                      field < buffer.data() + buffer.size();
  EXPECT_TRUE(inside) << "the table is not inside this buffer";
  return inside ? static_cast<size_t>(field - buffer.data()) : 0;
}

void expect_error(Error actual, Error code,
                  std::initializer_list<const char*> parts) {
  EXPECT_EQ(actual, code) << error_name(actual) << ": " << last_error_message();
  const std::string message = last_error_message();
  for (const char* part : parts) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "message \"" << message << "\" lacks \"" << part << "\"";
  }
}

}  // namespace tri::testing
