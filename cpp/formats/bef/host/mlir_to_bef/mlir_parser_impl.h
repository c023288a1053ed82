// The recursive-descent parser behind parse_mlir_module, shared by the files
// that implement it: mlir_parser.cpp (module, functions, regions, generic
// ops, SSA values), mlir_type_parser.cpp, mlir_attr_parser.cpp and
// mlir_custom_ops.cpp (the custom assembly forms of TFRT's dialects).
//
// Every parse_* returns false after recording the first failure in diag();
// nothing is consumed reliably after a failure, so callers just unwind.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cpp/formats/bef/host/mlir_to_bef/mlir_ast.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_lexer.h"

namespace tri::bef::mlir {

// Nesting beyond this (regions, attributes, types) is refused, so hostile
// input cannot exhaust the stack.
constexpr int kMaxNestingDepth = 64;

// Dense attributes are expanded in memory; this bounds what they may cost
// together.
constexpr uint64_t kMaxDenseBytes = uint64_t{64} << 20;

struct UnresolvedOperand {
  std::string name;  // with the '%'
  uint32_t number = 0;
  SourceLoc loc;
};

// One element of a dense literal: a number or bool, or a (re, im) pair.
struct DenseScalarRef {
  Token parts[2];
  bool negative[2] = {false, false};
  int count = 1;
};

// A type with the parts dense attributes need.
struct TypeInfo {
  std::string spelling;
  bool shaped = false;  // tensor<...> or vector<...>
  bool ranked = false;
  std::vector<int64_t> dims;  // -1 for '?'
  std::string element;
};

class Parser {
 public:
  explicit Parser(std::string_view source);

  bool parse_module(Module* out);
  const Diag& diag() const { return diag_; }

  // --- tokens ------------------------------------------------------------
  void advance();
  bool at(TokenKind kind) const { return tok_.kind == kind; }
  bool at_keyword(std::string_view word) const;
  bool consume_if(TokenKind kind);
  bool consume_keyword_if(std::string_view word);
  bool expect(TokenKind kind, const char* what);
  bool expect_keyword(std::string_view word);
  std::string_view spelling() const { return lexer_.spelling(tok_); }
  SourceLoc loc() const { return tok_.loc; }
  bool fail(const std::string& message) { return fail_at(tok_.loc, message); }
  bool fail_at(SourceLoc loc, const std::string& message);
  // Reports a lexer error token, or "expected <what>" for any other token.
  bool fail_expected(const char* what);
  bool enter_nesting();
  void leave_nesting() { --depth_; }

  // --- types (mlir_type_parser.cpp) ----------------------------------------
  bool parse_type(std::string* out, TypeInfo* info = nullptr);
  bool parse_type_list(std::vector<std::string>* out);  // T (, T)*
  // `( T, ... )` possibly empty.
  bool parse_paren_type_list(std::vector<std::string>* out);
  // `(T, ...) -> T` or `-> (T, ...)`.
  bool parse_function_type(std::vector<std::string>* inputs, std::vector<std::string>* results);
  // Results after `->`: one type, or a parenthesized list (attributes on each
  // element are parsed and dropped, as func.func result attributes).
  bool parse_result_types(std::vector<std::string>* out);
  // `2x?x3x` of a shape; stops before the element type or '>'. Sets
  // *trailing_x when the last dimension was followed by 'x'.
  bool parse_dimension_list(std::vector<int64_t>* dims, bool allow_unranked, bool* unranked,
                            bool* trailing_x);
  // Copies a balanced `<...>` (the current token is '<') verbatim.
  bool skip_balanced(std::string* raw);
  // A dialect attribute or type (`#name...` / `!name...`): its whole
  // spelling in *text, or, for an alias (`#a`, `!a`, no dot), the aliased
  // value in *alias.
  template <typename T>
  bool parse_dialect_symbol(const std::map<std::string, T>& aliases, std::string* text,
                            const T** alias);

  // --- attributes (mlir_attr_parser.cpp) -----------------------------------
  // With `type` set, a literal is parsed at that type (as a custom op's typed
  // attribute is) and no `: type` suffix is read.
  bool parse_attribute(Attribute* out, const std::string* type = nullptr);
  // `{ name = attr, name, ... }` appended to `out`, refusing names already
  // there; the current token is '{'.
  bool parse_attribute_dict(std::vector<NamedAttr>* out);
  bool parse_optional_attribute_dict(std::vector<NamedAttr>* out);
  // Adds `attr` to `attrs`, refusing duplicates.
  bool add_attribute(std::vector<NamedAttr>* attrs, NamedAttr attr, SourceLoc loc);

  // --- values and regions (mlir_parser.cpp) ---------------------------------
  bool parse_unresolved(UnresolvedOperand* out);
  bool parse_unresolved_list(std::vector<UnresolvedOperand>* out);  // possibly empty
  bool resolve(const UnresolvedOperand& use, Operand* out);
  bool resolve_all(const std::vector<UnresolvedOperand>& uses, std::vector<Operand>* out);
  // The type of a resolved operand of the block being parsed.
  const std::string& operand_type(const Operand& operand) const;
  // A region whose entry block takes `args` (named after `names`, which may
  // shadow outer values) of `types`. Isolated regions see no outer values.
  bool parse_region(Region* region, const std::vector<UnresolvedOperand>& names,
                    const std::vector<std::string>& types, bool isolated, SourceLoc owner);
  // A region of the generic form, whose block may have a `^bb0(...)` label.
  bool parse_generic_region(Region* region, bool isolated, SourceLoc owner);
  bool open_region(Region* region, bool isolated);

  // --- custom forms (mlir_custom_ops.cpp) ------------------------------------
  // The op name has been consumed; fills operands, results, attributes and
  // regions of `op`.
  bool parse_custom_op(Op* op, SourceLoc name_loc);

 private:
  struct ValueSlot {
    bool valid = false;
    int32_t op = -1;
    uint32_t index = 0;
  };
  struct Scope {
    Block* block = nullptr;
    bool isolated = true;
    std::map<std::string, std::vector<ValueSlot>> names;
  };

  bool parse_function(Module* module);
  bool parse_func_arguments(Function* fn, std::vector<UnresolvedOperand>* names);
  bool parse_alias_definition();
  bool parse_operation(Block* block);
  bool parse_generic_op(Op* op);
  bool parse_block_body(Region* region, SourceLoc owner);
  bool define(const UnresolvedOperand& name, ValueSlot slot);
  bool skip_trailing_location();

  // Literals (mlir_attr_parser.cpp).
  bool parse_number_attribute(Attribute* out, bool negative, const std::string* type);
  bool parse_dense(Attribute* out);
  // One item of a dense literal (a scalar or a nested list), appended to
  // `flat`; `shape` is the shape of the item.
  bool parse_dense_item(std::vector<DenseScalarRef>* flat, std::vector<int64_t>* shape,
                        bool* is_list);
  bool dense_scalar_bits(const Token& token, bool negative, const std::string& element,
                         uint64_t* bits);
  bool parse_shape_attribute(Attribute* out);
  bool parse_dialect_attribute(Attribute* out);

  // Types (mlir_type_parser.cpp).
  bool parse_shaped_type(const std::string& keyword, TypeInfo* info);
  bool parse_dialect_type(std::string* out);

  Lexer lexer_;
  Token tok_;
  Diag diag_;
  bool failed_ = false;
  int depth_ = 0;
  std::vector<Scope> scopes_;
  std::map<std::string, std::string> type_aliases_;
  std::map<std::string, Attribute> attribute_aliases_;
  std::set<std::string> function_names_;
  uint64_t dense_bytes_ = 0;  // all dense data expanded so far
};

// Parses an unsigned decimal or 0x-hex integer spelling; false on overflow.
bool parse_unsigned(std::string_view spelling, uint64_t* value);

template <typename T>
bool Parser::parse_dialect_symbol(const std::map<std::string, T>& aliases, std::string* text,
                                  const T** alias) {
  const std::string name(spelling());
  const SourceLoc loc = tok_.loc;
  advance();
  *alias = nullptr;
  if (at(TokenKind::Less)) {
    std::string body;
    if (!skip_balanced(&body)) return false;
    *text = name + body;
    return true;
  }
  if (name.find('.') == std::string::npos) {
    auto it = aliases.find(name.substr(1));
    if (it == aliases.end()) {
      return fail_at(loc, "undefined symbol alias id '" + name.substr(1) + "'");
    }
    *alias = &it->second;
    return true;
  }
  *text = name;
  return true;
}

}  // namespace tri::bef::mlir
