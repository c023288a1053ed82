#include "cpp/formats/pt2/host/pt2_json.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tri::pt2 {
namespace {

// The deepest nesting of arrays and objects in `text`, stopping early once
// it passes the limit; brackets inside strings do not count.
Error check_depth(ByteSpan text, const std::string& what) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const uint8_t c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      TRI_CHECK(++depth <= kMaxJsonDepth, Error::InvalidProgram,
                "%s: JSON nested deeper than %zu levels (at byte %zu)", what.c_str(),
                kMaxJsonDepth, i);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return Error::Ok;
}

const char* kind_of(const Json& value) { return value.type_name(); }

}  // namespace

Result<Json> parse_json(ByteSpan text, const std::string& what) {
  TRI_TRY(check_depth(text, what));
  Json parsed = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  TRI_CHECK(!parsed.is_discarded(), Error::InvalidProgram, "%s: not valid JSON", what.c_str());
  return parsed;
}

Result<const Json*> field(const Json& object, const char* key, const std::string& where) {
  TRI_CHECK(object.is_object(), Error::InvalidProgram, "%s: expected an object, found %s",
            where.c_str(), kind_of(object));
  auto it = object.find(key);
  TRI_CHECK(it != object.end(), Error::InvalidProgram, "%s: missing field '%s'", where.c_str(),
            key);
  return &*it;
}

Result<const Json*> optional_field(const Json& object, const char* key,
                                   const std::string& where) {
  TRI_CHECK(object.is_object(), Error::InvalidProgram, "%s: expected an object, found %s",
            where.c_str(), kind_of(object));
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return static_cast<const Json*>(nullptr);
  return &*it;
}

Result<int64_t> as_int(const Json& value, const std::string& where) {
  if (value.is_number_integer() && !value.is_number_unsigned()) return value.get<int64_t>();
  if (value.is_number_unsigned()) {
    const uint64_t u = value.get<uint64_t>();
    TRI_CHECK(u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
              Error::InvalidProgram, "%s: integer %llu does not fit int64", where.c_str(),
              static_cast<unsigned long long>(u));
    return static_cast<int64_t>(u);
  }
  return fail(Error::InvalidProgram, "%s: expected an integer, found %s%s", where.c_str(),
              kind_of(value),
              value.is_number_float() ? " (integers past int64 are not supported)" : "");
}

Result<bool> as_bool(const Json& value, const std::string& where) {
  TRI_CHECK(value.is_boolean(), Error::InvalidProgram, "%s: expected a boolean, found %s",
            where.c_str(), kind_of(value));
  return value.get<bool>();
}

Result<double> as_float(const Json& value, const std::string& where) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
  }
  return fail(Error::InvalidProgram, "%s: expected a number, found %s", where.c_str(),
              kind_of(value));
}

Result<std::string> as_string(const Json& value, const std::string& where) {
  TRI_CHECK(value.is_string(), Error::InvalidProgram, "%s: expected a string, found %s",
            where.c_str(), kind_of(value));
  return value.get<std::string>();
}

Result<int64_t> as_enum(const Json& value, const char* const* names, const std::string& where) {
  if (value.is_string() && names != nullptr) {
    const std::string& s = value.get_ref<const std::string&>();
    for (int64_t i = 0; names[i] != nullptr; ++i) {
      if (s == names[i]) return i;
    }
    return fail(Error::InvalidProgram, "%s: unknown enum member '%s'", where.c_str(), s.c_str());
  }
  return as_int(value, where);
}

Result<UnionValue> read_union(const Json& value, const char* const* tags,
                              const std::string& where) {
  TRI_CHECK(value.is_object(), Error::InvalidProgram,
            "%s: expected a tagged union (an object), found %s", where.c_str(), kind_of(value));
  UnionValue out;
  for (auto it = value.begin(); it != value.end(); ++it) {
    bool known = tags == nullptr;
    for (size_t i = 0; !known && tags[i] != nullptr; ++i) known = it.key() == tags[i];
    if (!known) {
      std::string list;
      for (size_t i = 0; tags[i] != nullptr; ++i) list += std::string(i ? ", " : "") + tags[i];
      return fail(Error::InvalidProgram, "%s: unknown union key '%s' (known: %s)",
                  where.c_str(), it.key().c_str(), list.c_str());
    }
    // A single-key union may carry null only for as_none-like tags; in the
    // all-tags style null marks the inactive ones.
    if (it->is_null() && value.size() > 1) continue;
    TRI_CHECK(out.value == nullptr, Error::InvalidProgram,
              "%s: union has two active tags, '%s' and '%s'", where.c_str(), out.tag.c_str(),
              it.key().c_str());
    out.tag = it.key();
    out.value = &*it;
  }
  TRI_CHECK(out.value != nullptr, Error::InvalidProgram, "%s: union has no active tag",
            where.c_str());
  return out;
}

}  // namespace tri::pt2
