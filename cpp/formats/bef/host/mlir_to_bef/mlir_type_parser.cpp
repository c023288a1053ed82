// Types, printed back the way MLIR prints them, since the spelling is what
// the BEF Types section stores.
#include <cstdint>
#include <string>
#include <vector>

#include "cpp/formats/bef/host/mlir_to_bef/mlir_parser_impl.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_types.h"

namespace tri::bef::mlir {

namespace {

constexpr size_t kMaxDimensions = 1024;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  return out;
}

bool is_float_keyword(std::string_view word) {
  if (word == "f16" || word == "bf16" || word == "f32" || word == "f64" || word == "f80" ||
      word == "f128" || word == "tf32") {
    return true;
  }
  // The small float formats: f8E4M3FN, f8E5M2, f6E3M2FN, f4E2M1FN, ...
  return word.size() > 3 && word[0] == 'f' && (word[1] == '8' || word[1] == '6' || word[1] == '4') &&
         word[2] == 'E';
}

}  // namespace

bool Parser::skip_balanced(std::string* raw) {
  const std::string_view src = lexer_.source();
  std::vector<char> stack;
  size_t i = tok_.begin;
  for (; i < src.size(); ++i) {
    const char c = src[i];
    if (c == '"') {
      // Strings may hold any bracket; skip to the closing quote.
      for (++i; i < src.size() && src[i] != '"'; ++i) {
        if (src[i] == '\\') ++i;
      }
      if (i >= src.size()) break;
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      if (stack.size() >= static_cast<size_t>(kMaxNestingDepth)) {
        return fail("nesting is deeper than " + std::to_string(kMaxNestingDepth) + " levels");
      }
      stack.push_back(c);
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (c == '>' && i > 0 && src[i - 1] == '-') continue;  // an arrow
      const char open = c == '>' ? '<' : c == ')' ? '(' : c == ']' ? '[' : '{';
      if (stack.empty() || stack.back() != open) return fail("unbalanced '" + std::string(1, c) + "'");
      stack.pop_back();
      if (stack.empty()) {
        raw->assign(src.substr(tok_.begin, i + 1 - tok_.begin));
        lexer_.seek(tok_, i + 1);
        tok_ = lexer_.next();
        return true;
      }
    }
  }
  return fail("unbalanced '<' (no matching '>')");
}

bool Parser::parse_type_list(std::vector<std::string>* out) {
  while (true) {
    std::string type;
    if (!parse_type(&type)) return false;
    out->push_back(std::move(type));
    if (!consume_if(TokenKind::Comma)) return true;
  }
}

bool Parser::parse_paren_type_list(std::vector<std::string>* out) {
  if (!expect(TokenKind::LParen, "'(' to start a type list")) return false;
  if (consume_if(TokenKind::RParen)) return true;
  return parse_type_list(out) && expect(TokenKind::RParen, "')' to end a type list");
}

bool Parser::parse_result_types(std::vector<std::string>* out) {
  if (!at(TokenKind::LParen)) {
    std::string type;
    if (!parse_type(&type)) return false;
    out->push_back(std::move(type));
    return true;
  }
  advance();
  if (consume_if(TokenKind::RParen)) return true;
  while (true) {
    std::string type;
    if (!parse_type(&type)) return false;
    out->push_back(std::move(type));
    std::vector<NamedAttr> ignored;
    if (!parse_optional_attribute_dict(&ignored)) return false;
    if (consume_if(TokenKind::RParen)) return true;
    if (!expect(TokenKind::Comma, "')' or ','")) return false;
  }
}

bool Parser::parse_function_type(std::vector<std::string>* inputs,
                                 std::vector<std::string>* results) {
  if (!at(TokenKind::LParen)) return fail_expected("'(' to start a function type");
  return parse_paren_type_list(inputs) && expect(TokenKind::Arrow, "'->' in a function type") &&
         parse_result_types(results);
}

bool Parser::parse_dimension_list(std::vector<int64_t>* dims, bool allow_unranked,
                                  bool* unranked, bool* trailing_x) {
  *unranked = false;
  *trailing_x = false;
  while (true) {
    if (at(TokenKind::Star) && allow_unranked && dims->empty() && !*unranked) {
      *unranked = true;
      advance();
    } else if (at(TokenKind::Question) && !*unranked) {
      dims->push_back(-1);
      advance();
    } else if (at(TokenKind::Integer) && !*unranked) {
      const std::string_view digits = spelling();
      if (digits.size() > 1 && digits[1] == 'x') {
        // `0x3` lexed as hex: MLIR reads it as the dimension 0 then `x3`.
        dims->push_back(0);
        lexer_.seek(tok_, tok_.begin + 1);
        tok_ = lexer_.next();
      } else {
        uint64_t value = 0;
        if (!parse_unsigned(digits, &value) || value > static_cast<uint64_t>(INT64_MAX)) {
          return fail("invalid dimension");
        }
        dims->push_back(static_cast<int64_t>(value));
        advance();
      }
    } else {
      return true;
    }
    if (dims->size() > kMaxDimensions) return fail("too many dimensions");
    *trailing_x = false;
    if (!at(TokenKind::BareIdentifier) || spelling()[0] != 'x') return true;
    if (spelling().size() == 1) {
      advance();
    } else {
      lexer_.seek(tok_, tok_.begin + 1);
      tok_ = lexer_.next();
    }
    *trailing_x = true;
  }
}

bool Parser::parse_shaped_type(const std::string& keyword, TypeInfo* info) {
  advance();
  if (!expect(TokenKind::Less, "'<'")) return false;
  bool unranked = false;
  bool trailing_x = false;
  if (!parse_dimension_list(&info->dims, keyword == "tensor", &unranked, &trailing_x)) {
    return false;
  }
  if ((unranked || !info->dims.empty()) && !trailing_x) {
    return fail("expected 'x' in dimension list");
  }
  if (!parse_type(&info->element)) return false;
  if (at(TokenKind::Comma)) return fail("tensor encodings are not supported");
  if (!expect(TokenKind::Greater, "'>'")) return false;
  info->shaped = true;
  info->ranked = !unranked;
  std::string spelling_out = keyword + "<";
  if (unranked) spelling_out += "*x";
  for (int64_t dim : info->dims) {
    spelling_out += dim < 0 ? std::string("?") : std::to_string(dim);
    spelling_out += "x";
  }
  spelling_out += info->element + ">";
  info->spelling = std::move(spelling_out);
  return true;
}

bool Parser::parse_dialect_type(std::string* out) {
  const std::string* alias = nullptr;
  if (!parse_dialect_symbol(type_aliases_, out, &alias)) return false;
  if (alias != nullptr) *out = *alias;
  return true;
}

bool Parser::parse_type(std::string* out, TypeInfo* info) {
  if (!enter_nesting()) return false;
  struct Leave {
    Parser* p;
    ~Leave() { p->leave_nesting(); }
  } leave{this};
  TypeInfo local;
  TypeInfo* detail = info != nullptr ? info : &local;
  *detail = TypeInfo();
  if (at(TokenKind::LParen)) {
    std::vector<std::string> inputs;
    std::vector<std::string> results;
    if (!parse_function_type(&inputs, &results)) return false;
    *out = "(" + join(inputs) + ") -> ";
    if (results.size() == 1 && results[0][0] != '(') {
      *out += results[0];
    } else {
      *out += "(" + join(results) + ")";
    }
    detail->spelling = *out;
    return true;
  }
  if (at(TokenKind::ExclamationIdentifier)) {
    if (!parse_dialect_type(out)) return false;
    detail->spelling = *out;
    return true;
  }
  if (!at(TokenKind::BareIdentifier)) return fail_expected("type");
  const std::string word(spelling());
  if (integer_type_info(word).valid || is_float_keyword(word) || word == "index" ||
      word == "none") {
    advance();
    *out = word;
  } else if (word == "complex") {
    advance();
    std::string element;
    if (!expect(TokenKind::Less, "'<'") || !parse_type(&element) ||
        !expect(TokenKind::Greater, "'>'")) {
      return false;
    }
    *out = "complex<" + element + ">";
  } else if (word == "tensor" || word == "vector") {
    if (!parse_shaped_type(word, detail)) return false;
    *out = detail->spelling;
    return true;
  } else if (word == "memref" || word == "tuple") {
    advance();
    if (!at(TokenKind::Less)) return fail_expected("'<'");
    std::string body;
    if (!skip_balanced(&body)) return false;
    *out = word + body;
  } else {
    return fail("expected non-function type");
  }
  detail->spelling = *out;
  return true;
}

}  // namespace tri::bef::mlir
