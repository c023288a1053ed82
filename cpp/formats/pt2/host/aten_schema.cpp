#include "cpp/formats/pt2/host/aten_schema.h"

#include <map>

namespace tri::pt2 {
namespace {

struct SchemaPair {
  const char* functional;
  const char* out;
};

constexpr SchemaPair kSchemas[] = {
#include "cpp/formats/pt2/host/aten_schemas.inc"
};

std::string trim(const std::string& s) {
  size_t a = 0;
  size_t b = s.size();
  while (a < b && s[a] == ' ') ++a;
  while (b > a && s[b - 1] == ' ') --b;
  return s.substr(a, b - a);
}

// Splits at top-level commas (brackets and parentheses nest).
std::vector<std::string> split_top(const std::string& text) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty()) parts.push_back(trim(current));
  return parts;
}

struct Table {
  std::vector<OpLowering> lowerings;
  size_t unparsed = 0;
  std::map<std::string, size_t> by_functional;
  std::map<std::string, size_t> by_out;
};

const Table& table() {
  static const Table* built = [] {
    Table* t = new Table();
    for (const SchemaPair& pair : kSchemas) {
      OpLowering lowering;
      // The table is generated from PyTorch's schemas; a parse failure is a
      // generator bug that the aten_schema unit test catches.
      if (pair.functional[0] != '\0') {
        Result<AtenSchema> f = parse_schema(pair.functional);
        if (!f.ok()) {
          ++t->unparsed;
          continue;
        }
        lowering.functional = std::move(*f);
      }
      if (pair.out[0] != '\0') {
        Result<AtenSchema> o = parse_schema(pair.out);
        if (!o.ok()) {
          ++t->unparsed;
          continue;
        }
        lowering.out = std::move(*o);
      }
      const size_t index = t->lowerings.size();
      if (!lowering.functional.name.empty()) {
        t->by_functional.emplace(lowering.functional.full_name(), index);
      }
      if (!lowering.out.name.empty()) t->by_out.emplace(lowering.out.full_name(), index);
      t->lowerings.push_back(std::move(lowering));
    }
    return t;
  }();
  return *built;
}

}  // namespace

const SchemaArg* AtenSchema::arg(const std::string& arg_name) const {
  for (const SchemaArg& a : args) {
    if (a.name == arg_name) return &a;
  }
  return nullptr;
}

size_t AtenSchema::num_outs() const {
  size_t n = 0;
  for (const SchemaArg& a : args) n += a.is_out ? 1 : 0;
  return n;
}

Result<AtenSchema> parse_schema(const std::string& text) {
  const size_t open = text.find('(');
  const size_t arrow = text.rfind(") -> ");
  TRI_CHECK(open != std::string::npos && arrow != std::string::npos && arrow > open,
            Error::InvalidArgument, "not an operator schema: '%s'", text.c_str());
  AtenSchema schema;
  const std::string qualified = text.substr(0, open);
  const size_t dot = qualified.find('.');
  schema.name = qualified.substr(0, dot);
  if (dot != std::string::npos) schema.overload = qualified.substr(dot + 1);
  bool keyword_only = false;
  for (const std::string& part : split_top(text.substr(open + 1, arrow - open - 1))) {
    if (part == "*") {
      keyword_only = true;
      continue;
    }
    SchemaArg arg;
    const size_t eq = part.find('=');
    const std::string decl = trim(part.substr(0, eq));
    if (eq != std::string::npos) {
      arg.has_default = true;
      arg.default_text = trim(part.substr(eq + 1));
    }
    const size_t space = decl.rfind(' ');
    TRI_CHECK(space != std::string::npos, Error::InvalidArgument,
              "schema '%s': argument '%s' has no name", text.c_str(), decl.c_str());
    arg.name = decl.substr(space + 1);
    std::string type = decl.substr(0, space);
    // "Tensor(a!)" -> "Tensor", remembering the mutation.
    const size_t alias = type.find('(');
    const bool mutable_arg = type.find("!)") != std::string::npos;
    if (alias != std::string::npos) type = type.substr(0, alias) + type.substr(type.find(')') + 1);
    arg.type = type;
    arg.keyword_only = keyword_only;
    arg.is_out = keyword_only && mutable_arg;
    schema.args.push_back(std::move(arg));
  }
  std::string returns = trim(text.substr(arrow + 5));
  if (returns.size() >= 2 && returns.front() == '(' && returns.back() == ')') {
    schema.tuple_return = true;
    returns = returns.substr(1, returns.size() - 2);
  }
  for (const std::string& r : split_top(returns)) schema.returns.push_back(r);
  if (schema.returns.size() == 1 && schema.tuple_return) {
    // "(Tensor)" would be a one-element tuple; ATen writes none, keep it as one.
  }
  return schema;
}

const std::vector<OpLowering>& all_lowerings() { return table().lowerings; }
size_t unparsed_schemas() { return table().unparsed; }

const OpLowering* find_lowering(const std::string& full_name) {
  const Table& t = table();
  auto it = t.by_functional.find(full_name);
  return it == t.by_functional.end() ? nullptr : &t.lowerings[it->second];
}

const AtenSchema* find_out_schema(const std::string& full_name) {
  const Table& t = table();
  auto it = t.by_out.find(full_name);
  return it == t.by_out.end() ? nullptr : &t.lowerings[it->second].out;
}

}  // namespace tri::pt2
