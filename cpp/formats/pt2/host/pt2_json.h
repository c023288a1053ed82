// JSON as PT2 archives write it (Python's json.dumps of torch's export
// dataclasses), read with nlohmann::json after a depth check, plus the
// accessors the reader needs: fields with their path in every message,
// exact integers, Python's float spellings, and the two union encodings.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace tri::pt2 {

using Json = nlohmann::json;

// Deeper nesting is refused before parsing (nlohmann parses recursively; a
// nesting bomb would otherwise exhaust the stack). Real graphs nest < 20.
constexpr size_t kMaxJsonDepth = 200;

// Parses `text` (named `what` in errors).
Result<Json> parse_json(ByteSpan text, const std::string& what);

// `object[key]`, or an error naming `where` and the key.
Result<const Json*> field(const Json& object, const char* key, const std::string& where);
// The same, but null (or absent) gives nullptr.
Result<const Json*> optional_field(const Json& object, const char* key, const std::string& where);

// An integer that fits int64 exactly (a float or a larger number is refused).
Result<int64_t> as_int(const Json& value, const std::string& where);
Result<bool> as_bool(const Json& value, const std::string& where);
// A number, or "Infinity", "-Infinity", "NaN" (json.dumps' spellings).
Result<double> as_float(const Json& value, const std::string& where);
Result<std::string> as_string(const Json& value, const std::string& where);
// An enum written as its integer (or, defensively, as a member name looked
// up in `names`, a nullptr-terminated list indexed by value).
Result<int64_t> as_enum(const Json& value, const char* const* names, const std::string& where);

// One value of a tagged union: torch >= 2.3 writes {"tag": value}; 2.1/2.2
// write every tag, null but for the active one. The tag must be one of
// `tags` (nullptr-terminated) unless `tags` is nullptr.
struct UnionValue {
  std::string tag;
  const Json* value = nullptr;
};
Result<UnionValue> read_union(const Json& value, const char* const* tags, const std::string& where);

}  // namespace tri::pt2
