#include "cpp/formats/bef/host/mlir_to_bef/mlir_parser.h"

#include <algorithm>
#include <utility>

#include "cpp/formats/bef/host/mlir_to_bef/mlir_custom_ops.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_parser_impl.h"

namespace tri::bef::mlir {

namespace {

// Result groups larger than this (`%x:N`, `%x#N`) are refused before any
// table is sized from them.
constexpr uint64_t kMaxResultNumber = 1u << 16;

std::string symbol_name(std::string_view spelling) {
  // `@name` or `@"quoted name"`.
  std::string_view body = spelling.substr(1);
  if (!body.empty() && body.front() == '"') {
    std::string decoded;
    if (decode_string_literal(body, &decoded)) return decoded;
  }
  return std::string(body);
}

}  // namespace

bool parse_unsigned(std::string_view spelling, uint64_t* value) {
  uint64_t result = 0;
  if (spelling.size() > 2 && spelling[0] == '0' && spelling[1] == 'x') {
    for (char c : spelling.substr(2)) {
      const uint64_t digit = (c >= '0' && c <= '9')   ? static_cast<uint64_t>(c - '0')
                             : (c >= 'a' && c <= 'f') ? static_cast<uint64_t>(c - 'a' + 10)
                                                      : static_cast<uint64_t>(c - 'A' + 10);
      if (result >> 60) return false;
      result = result * 16 + digit;
    }
  } else {
    if (spelling.empty()) return false;
    for (char c : spelling) {
      if (c < '0' || c > '9') return false;
      const uint64_t digit = static_cast<uint64_t>(c - '0');
      if (result > (UINT64_MAX - digit) / 10) return false;
      result = result * 10 + digit;
    }
  }
  *value = result;
  return true;
}

Parser::Parser(std::string_view source) : lexer_(source) {}

void Parser::advance() {
  // An Error token is sticky: the next expect() reports it.
  if (tok_.kind == TokenKind::Error) return;
  tok_ = lexer_.next();
}

bool Parser::at_keyword(std::string_view word) const {
  return tok_.kind == TokenKind::BareIdentifier && spelling() == word;
}

bool Parser::consume_if(TokenKind kind) {
  if (!at(kind)) return false;
  advance();
  return true;
}

bool Parser::consume_keyword_if(std::string_view word) {
  if (!at_keyword(word)) return false;
  advance();
  return true;
}

bool Parser::fail_at(SourceLoc loc, const std::string& message) {
  if (!failed_) {
    failed_ = true;
    diag_.loc = loc;
    diag_.message = message;
  }
  return false;
}

bool Parser::fail_expected(const char* what) {
  if (at(TokenKind::Error)) return fail(lexer_.error());
  if (at(TokenKind::Eof)) return fail(std::string("expected ") + what + ", found end of input");
  return fail(std::string("expected ") + what);
}

bool Parser::expect(TokenKind kind, const char* what) {
  if (consume_if(kind)) return true;
  return fail_expected(what);
}

bool Parser::expect_keyword(std::string_view word) {
  if (consume_keyword_if(word)) return true;
  const std::string what = "'" + std::string(word) + "'";
  return fail_expected(what.c_str());
}

bool Parser::enter_nesting() {
  if (++depth_ > kMaxNestingDepth) {
    --depth_;
    return fail("nesting is deeper than " + std::to_string(kMaxNestingDepth) + " levels");
  }
  return true;
}

// --- module level -----------------------------------------------------------

bool Parser::parse_module(Module* out) {
  advance();
  bool saw_module = false;
  bool saw_function = false;
  while (!at(TokenKind::Eof)) {
    if (at(TokenKind::ExclamationIdentifier) || at(TokenKind::HashIdentifier)) {
      if (!parse_alias_definition()) return false;
      continue;
    }
    if (at_keyword("module") || at_keyword("builtin.module")) {
      if (saw_module || saw_function) {
        return fail("only one top-level module is supported");
      }
      saw_module = true;
      advance();
      if (at(TokenKind::AtIdentifier)) advance();
      if (consume_keyword_if("attributes")) {
        if (!at(TokenKind::LBrace)) return fail_expected("'{'");
        if (!parse_attribute_dict(&out->attributes)) return false;
      }
      if (!expect(TokenKind::LBrace, "'{' to begin the module body")) return false;
      while (!at(TokenKind::RBrace)) {
        if (at(TokenKind::ExclamationIdentifier) || at(TokenKind::HashIdentifier)) {
          if (!parse_alias_definition()) return false;
        } else if (at_keyword("func.func")) {
          if (!parse_function(out)) return false;
        } else {
          return fail_expected("'func.func'");
        }
      }
      advance();
      continue;
    }
    if (at_keyword("func.func")) {
      if (saw_module) return fail("only one top-level module is supported");
      saw_function = true;
      if (!parse_function(out)) return false;
      continue;
    }
    return fail_expected("'func.func' or 'module'");
  }
  return true;
}

bool Parser::parse_alias_definition() {
  const bool is_type = at(TokenKind::ExclamationIdentifier);
  const std::string name(spelling().substr(1));
  const SourceLoc loc = tok_.loc;
  advance();
  if (!at(TokenKind::Equal)) {
    return fail_at(loc, is_type ? "expected 'func.func' or 'module' (a type alias needs '=')"
                                : "expected 'func.func' or 'module' (an attribute alias needs '=')");
  }
  advance();
  if (is_type) {
    std::string type;
    if (!parse_type(&type)) return false;
    if (!type_aliases_.emplace(name, type).second) {
      return fail_at(loc, "redefinition of type alias id '" + name + "'");
    }
    return true;
  }
  Attribute attr;
  if (!parse_attribute(&attr)) return false;
  if (!attribute_aliases_.emplace(name, std::move(attr)).second) {
    return fail_at(loc, "redefinition of attribute alias id '" + name + "'");
  }
  return true;
}

bool Parser::parse_func_arguments(Function* fn, std::vector<UnresolvedOperand>* names) {
  if (!expect(TokenKind::LParen, "'(' in function signature")) return false;
  if (consume_if(TokenKind::RParen)) return true;
  while (true) {
    if (at(TokenKind::PercentIdentifier)) {
      UnresolvedOperand name;
      if (!parse_unresolved(&name)) return false;
      if (!expect(TokenKind::Colon, "':'")) return false;
      names->push_back(std::move(name));
    } else if (!names->empty()) {
      return fail_expected("SSA identifier");
    }
    std::string type;
    if (!parse_type(&type)) return false;
    fn->input_types.push_back(std::move(type));
    std::vector<NamedAttr> ignored;
    if (!parse_optional_attribute_dict(&ignored)) return false;
    if (!skip_trailing_location()) return false;
    if (consume_if(TokenKind::RParen)) return true;
    if (!expect(TokenKind::Comma, "')' or ','")) return false;
  }
}

bool Parser::parse_function(Module* module) {
  Function fn;
  fn.loc = tok_.loc;
  advance();
  if (at_keyword("private") || at_keyword("public") || at_keyword("nested")) advance();
  if (!at(TokenKind::AtIdentifier)) return fail_expected("function name (@name)");
  fn.name = symbol_name(spelling());
  const SourceLoc name_loc = tok_.loc;
  advance();
  std::vector<UnresolvedOperand> arg_names;
  if (!parse_func_arguments(&fn, &arg_names)) return false;
  if (consume_if(TokenKind::Arrow)) {
    if (!parse_result_types(&fn.result_types)) return false;
  }
  if (consume_keyword_if("attributes")) {
    if (!at(TokenKind::LBrace)) return fail_expected("'{'");
    if (!parse_attribute_dict(&fn.attributes)) return false;
  }
  if (at(TokenKind::LBrace)) {
    if (arg_names.size() != fn.input_types.size()) {
      return fail_at(fn.loc, "a function with a body needs named arguments");
    }
    if (!parse_region(&fn.body, arg_names, fn.input_types, /*isolated=*/true, fn.loc)) {
      return false;
    }
    // `{}` without arguments is an empty region, which MLIR treats as a
    // declaration.
    fn.has_body = !(fn.body.block.ops.empty() && fn.input_types.empty());
    if (fn.has_body && fn.body.block.ops.empty()) {
      return fail_at(fn.body.loc, "empty block: expect at least a terminator");
    }
  }
  if (!function_names_.insert(fn.name).second) {
    return fail_at(name_loc, "redefinition of symbol named '" + fn.name + "'");
  }
  module->functions.push_back(std::move(fn));
  return true;
}

// --- values -------------------------------------------------------------------

bool Parser::parse_unresolved(UnresolvedOperand* out) {
  if (!at(TokenKind::PercentIdentifier)) return fail_expected("SSA operand");
  out->name = std::string(spelling());
  out->loc = tok_.loc;
  out->number = 0;
  advance();
  if (at(TokenKind::HashIdentifier)) {
    uint64_t number = 0;
    if (!parse_unsigned(spelling().substr(1), &number) || number >= kMaxResultNumber) {
      return fail("invalid SSA value result number");
    }
    out->number = static_cast<uint32_t>(number);
    advance();
  }
  return true;
}

bool Parser::parse_unresolved_list(std::vector<UnresolvedOperand>* out) {
  if (!at(TokenKind::PercentIdentifier)) return true;
  while (true) {
    UnresolvedOperand use;
    if (!parse_unresolved(&use)) return false;
    out->push_back(std::move(use));
    if (!consume_if(TokenKind::Comma)) return true;
  }
}

bool Parser::resolve(const UnresolvedOperand& use, Operand* out) {
  for (size_t i = scopes_.size(); i-- > 0;) {
    const Scope& scope = scopes_[i];
    auto it = scope.names.find(use.name);
    if (it != scope.names.end()) {
      if (use.number >= it->second.size() || !it->second[use.number].valid) {
        return fail_at(use.loc, "reference to invalid result number");
      }
      const ValueSlot& slot = it->second[use.number];
      out->op = slot.op;
      out->index = slot.index;
      out->outer = i + 1 != scopes_.size();
      return true;
    }
    if (scope.isolated) break;
  }
  return fail_at(use.loc, "use of undeclared SSA value name '" + use.name + "'");
}

bool Parser::resolve_all(const std::vector<UnresolvedOperand>& uses, std::vector<Operand>* out) {
  for (const UnresolvedOperand& use : uses) {
    Operand operand;
    if (!resolve(use, &operand)) return false;
    out->push_back(operand);
  }
  return true;
}

bool Parser::define(const UnresolvedOperand& name, ValueSlot slot) {
  std::vector<ValueSlot>& slots = scopes_.back().names[name.name];
  if (slots.size() <= name.number) slots.resize(name.number + 1);
  if (slots[name.number].valid) {
    return fail_at(name.loc, "redefinition of SSA value '" + name.name + "'");
  }
  slot.valid = true;
  slots[name.number] = slot;
  return true;
}

// --- regions --------------------------------------------------------------------

bool Parser::parse_block_body(Region* region, SourceLoc owner) {
  while (!at(TokenKind::RBrace)) {
    if (at(TokenKind::CaretIdentifier)) {
      return fail_at(owner, "multi-block regions cannot be emitted to BEF files");
    }
    if (at(TokenKind::Eof) || at(TokenKind::Error)) return fail_expected("'}' to end the region");
    if (!parse_operation(&region->block)) return false;
  }
  advance();
  return true;
}

// Consumes the region's '{' and opens its scope; parse_block_body and the
// caller's pop of scopes_ and leave_nesting() close it.
bool Parser::open_region(Region* region, bool isolated) {
  if (!at(TokenKind::LBrace)) return fail_expected("'{' to begin a region");
  region->loc = tok_.loc;
  advance();
  if (!enter_nesting()) return false;
  Scope scope;
  scope.block = &region->block;
  scope.isolated = isolated;
  scopes_.push_back(std::move(scope));
  return true;
}

bool Parser::parse_region(Region* region, const std::vector<UnresolvedOperand>& names,
                          const std::vector<std::string>& types, bool isolated, SourceLoc owner) {
  if (!open_region(region, isolated)) return false;
  bool ok = true;
  for (size_t i = 0; ok && i < names.size(); ++i) {
    region->block.arg_types.push_back(i < types.size() ? types[i] : std::string());
    ValueSlot slot;
    slot.op = -1;
    slot.index = static_cast<uint32_t>(i);
    ok = define(names[i], slot);
  }
  if (ok && at(TokenKind::CaretIdentifier)) {
    ok = fail(names.empty() ? "block labels are not supported in this region"
                            : "invalid block name in region with named arguments");
  }
  ok = ok && parse_block_body(region, owner);
  scopes_.pop_back();
  leave_nesting();
  return ok;
}

bool Parser::parse_generic_region(Region* region, bool isolated, SourceLoc owner) {
  if (!open_region(region, isolated)) return false;
  bool ok = true;
  if (at(TokenKind::CaretIdentifier)) {
    advance();
    if (consume_if(TokenKind::LParen) && !consume_if(TokenKind::RParen)) {
      while (ok) {
        UnresolvedOperand name;
        std::string type;
        ok = parse_unresolved(&name) && expect(TokenKind::Colon, "':'") && parse_type(&type) &&
             skip_trailing_location();
        if (!ok) break;
        ValueSlot slot;
        slot.op = -1;
        slot.index = static_cast<uint32_t>(region->block.arg_types.size());
        region->block.arg_types.push_back(std::move(type));
        ok = define(name, slot);
        if (!ok || consume_if(TokenKind::RParen)) break;
        ok = expect(TokenKind::Comma, "')' or ','");
      }
    }
    ok = ok && expect(TokenKind::Colon, "':' after block name");
  }
  ok = ok && parse_block_body(region, owner);
  scopes_.pop_back();
  leave_nesting();
  return ok;
}

// --- operations -------------------------------------------------------------------

bool Parser::skip_trailing_location() {
  if (at_keyword("loc")) return fail("trailing loc(...) locations are not supported");
  return true;
}

bool Parser::parse_operation(Block* block) {
  const SourceLoc loc = tok_.loc;
  std::vector<std::pair<UnresolvedOperand, uint32_t>> results;
  uint64_t bound = 0;
  if (at(TokenKind::PercentIdentifier)) {
    while (true) {
      UnresolvedOperand name;
      name.name = std::string(spelling());
      name.loc = tok_.loc;
      advance();
      uint64_t count = 1;
      if (consume_if(TokenKind::Colon)) {
        if (!at(TokenKind::Integer) || !parse_unsigned(spelling(), &count) || count == 0 ||
            count >= kMaxResultNumber) {
          return fail_expected("result count (a positive integer)");
        }
        advance();
      }
      bound += count;
      results.emplace_back(std::move(name), static_cast<uint32_t>(count));
      if (!consume_if(TokenKind::Comma)) break;
      if (!at(TokenKind::PercentIdentifier)) return fail_expected("SSA value name");
    }
    if (!expect(TokenKind::Equal, "'=' after the result list")) return false;
  }
  Op op;
  // MLIR locates an op at its name, not at its result list (OperationParser::
  // parseGenericOperation / parseCustomOperation take the name token's
  // position); the result list's position only reports a binding mismatch.
  op.loc = tok_.loc;
  if (at(TokenKind::String)) {
    if (!decode_string_literal(spelling(), &op.name) || op.name.empty()) {
      return fail("invalid operation name");
    }
    advance();
    if (!parse_generic_op(&op)) return false;
  } else if (at(TokenKind::BareIdentifier)) {
    op.name = std::string(spelling());
    const SourceLoc name_loc = tok_.loc;
    advance();
    if (!parse_custom_op(&op, name_loc)) return false;
  } else {
    return fail_expected("operation name");
  }
  if (!skip_trailing_location()) return false;
  std::stable_sort(op.attributes.begin(), op.attributes.end(),
                   [](const NamedAttr& a, const NamedAttr& b) { return a.name < b.name; });
  if (!results.empty() && bound != op.result_types.size()) {
    return fail_at(loc, "operation defines " + std::to_string(op.result_types.size()) +
                            " results but was provided " + std::to_string(bound) + " to bind");
  }
  const int32_t index = static_cast<int32_t>(block->ops.size());
  uint32_t first = 0;
  for (const auto& [name, count] : results) {
    for (uint32_t k = 0; k < count; ++k) {
      UnresolvedOperand slot_name = name;
      slot_name.number = k;
      ValueSlot slot;
      slot.op = index;
      slot.index = first + k;
      if (!define(slot_name, slot)) return false;
    }
    first += count;
  }
  block->ops.push_back(std::move(op));
  return true;
}

bool Parser::parse_generic_op(Op* op) {
  if (!expect(TokenKind::LParen, "'(' to start the operand list")) return false;
  std::vector<UnresolvedOperand> uses;
  if (!parse_unresolved_list(&uses)) return false;
  if (!expect(TokenKind::RParen, "')' to end the operand list")) return false;
  if (!resolve_all(uses, &op->operands)) return false;
  if (at(TokenKind::LSquare)) return fail("successor lists are not supported");
  if (at(TokenKind::Less)) {
    // Properties `<{...}>`: kept as attributes, which is how they reach the
    // attribute dictionary the encoder reads.
    advance();
    if (!at(TokenKind::LBrace)) return fail_expected("'{' in properties");
    std::vector<NamedAttr> props;
    if (!parse_attribute_dict(&props)) return false;
    if (!expect(TokenKind::Greater, "'>' to end properties")) return false;
    for (NamedAttr& attr : props) {
      if (!add_attribute(&op->attributes, std::move(attr), op->loc)) return false;
    }
  }
  if (consume_if(TokenKind::LParen)) {
    const bool isolated = is_registered_op(op->name);
    while (true) {
      Region region;
      if (!parse_generic_region(&region, isolated, op->loc)) return false;
      op->regions.push_back(std::move(region));
      if (consume_if(TokenKind::RParen)) break;
      if (!expect(TokenKind::Comma, "')' or ',' in the region list")) return false;
    }
  }
  // Entries already there (properties) count as duplicates of the dictionary.
  if (at(TokenKind::LBrace) && !parse_attribute_dict(&op->attributes)) return false;
  if (!expect(TokenKind::Colon, "':' followed by the operation type")) return false;
  const SourceLoc type_loc = tok_.loc;
  std::vector<std::string> inputs;
  if (!parse_function_type(&inputs, &op->result_types)) return false;
  if (inputs.size() != op->operands.size()) {
    return fail_at(type_loc, "expected " + std::to_string(op->operands.size()) +
                                 " operand types but had " + std::to_string(inputs.size()));
  }
  return true;
}

bool parse_mlir_module(std::string_view source, Module* out, Diag* diag) {
  Parser parser(source);
  if (parser.parse_module(out)) return true;
  if (diag != nullptr) *diag = parser.diag();
  return false;
}

}  // namespace tri::bef::mlir
