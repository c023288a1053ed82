#include "cpp/formats/bef/host/mlir_to_bef/mlir_lexer.h"

namespace tri::bef::mlir {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Characters of a `%`/`^`/`#`/`!` suffix after its first one.
bool is_suffix_char(char c) {
  return is_letter(c) || is_digit(c) || c == '$' || c == '.' || c == '_' || c == '-';
}

int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

}  // namespace

bool is_bare_identifier_start(char c) { return is_letter(c) || c == '_'; }

bool is_bare_identifier_char(char c) {
  return is_letter(c) || is_digit(c) || c == '_' || c == '$' || c == '.';
}

SourceLoc Lexer::loc_at(size_t offset) const {
  SourceLoc loc;
  loc.line = line_;
  loc.column = static_cast<uint32_t>(offset - line_start_ + 1);
  return loc;
}

Token Lexer::make(TokenKind kind, size_t begin) const {
  Token token;
  token.kind = kind;
  token.begin = begin;
  token.end = pos_;
  token.loc = loc_at(begin);
  return token;
}

Token Lexer::fail(size_t begin, const char* message) {
  error_ = message;
  Token token = make(TokenKind::Error, begin);
  // An error token never advances past the end, so a caller that keeps asking
  // sees the same error instead of looping.
  return token;
}

void Lexer::seek(const Token& from, size_t offset) {
  line_ = from.loc.line;
  line_start_ = from.begin - (from.loc.column - 1);
  if (offset > source_.size()) offset = source_.size();
  for (size_t i = from.begin; i < offset; ++i) {
    if (source_[i] == '\n') {
      ++line_;
      line_start_ = i + 1;
    }
  }
  pos_ = offset;
}

void Lexer::skip_space_and_comments() {
  while (pos_ < source_.size()) {
    const char c = source_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < source_.size() && source_[pos_ + 1] == '/') {
      while (pos_ < source_.size() && source_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  skip_space_and_comments();
  const size_t begin = pos_;
  if (pos_ >= source_.size()) return make(TokenKind::Eof, begin);
  const char c = source_[pos_];
  if (is_bare_identifier_start(c)) {
    ++pos_;
    while (pos_ < source_.size() && is_bare_identifier_char(source_[pos_])) ++pos_;
    return make(TokenKind::BareIdentifier, begin);
  }
  if (is_digit(c)) return lex_number(begin);
  ++pos_;
  switch (c) {
    case '(': return make(TokenKind::LParen, begin);
    case ')': return make(TokenKind::RParen, begin);
    case '{': return make(TokenKind::LBrace, begin);
    case '}': return make(TokenKind::RBrace, begin);
    case '[': return make(TokenKind::LSquare, begin);
    case ']': return make(TokenKind::RSquare, begin);
    case '<': return make(TokenKind::Less, begin);
    case '>': return make(TokenKind::Greater, begin);
    case ':': return make(TokenKind::Colon, begin);
    case ',': return make(TokenKind::Comma, begin);
    case '=': return make(TokenKind::Equal, begin);
    case '+': return make(TokenKind::Plus, begin);
    case '*': return make(TokenKind::Star, begin);
    case '?': return make(TokenKind::Question, begin);
    case '-':
      if (pos_ < source_.size() && source_[pos_] == '>') {
        ++pos_;
        return make(TokenKind::Arrow, begin);
      }
      return make(TokenKind::Minus, begin);
    case '"': return lex_string(begin);
    case '%': return lex_prefixed(begin, TokenKind::PercentIdentifier);
    case '^': return lex_prefixed(begin, TokenKind::CaretIdentifier);
    case '#': return lex_prefixed(begin, TokenKind::HashIdentifier);
    case '!': return lex_prefixed(begin, TokenKind::ExclamationIdentifier);
    case '@': {
      if (pos_ < source_.size() && source_[pos_] == '"') {
        ++pos_;
        Token str = lex_string(pos_ - 1);
        if (str.kind == TokenKind::Error) return str;
        return make(TokenKind::AtIdentifier, begin);
      }
      if (pos_ >= source_.size() || !is_bare_identifier_start(source_[pos_])) {
        pos_ = begin;
        return fail(begin, "expected valid @-identifier");
      }
      while (pos_ < source_.size() && is_bare_identifier_char(source_[pos_])) ++pos_;
      return make(TokenKind::AtIdentifier, begin);
    }
    default:
      pos_ = begin;
      return fail(begin, "unexpected character");
  }
}

Token Lexer::lex_prefixed(size_t begin, TokenKind kind) {
  if (pos_ >= source_.size()) {
    pos_ = begin;
    return fail(begin, "invalid identifier");
  }
  const char first = source_[pos_];
  if (is_digit(first)) {
    while (pos_ < source_.size() && is_digit(source_[pos_])) ++pos_;
  } else if (is_letter(first) || first == '$' || first == '.' || first == '_' || first == '-') {
    ++pos_;
    while (pos_ < source_.size() && is_suffix_char(source_[pos_])) ++pos_;
  } else {
    pos_ = begin;
    return fail(begin, "invalid identifier");
  }
  return make(kind, begin);
}

Token Lexer::lex_number(size_t begin) {
  if (source_[pos_] == '0' && pos_ + 2 < source_.size() && source_[pos_ + 1] == 'x' &&
      is_hex_digit(source_[pos_ + 2])) {
    pos_ += 2;
    while (pos_ < source_.size() && is_hex_digit(source_[pos_])) ++pos_;
    return make(TokenKind::Integer, begin);
  }
  while (pos_ < source_.size() && is_digit(source_[pos_])) ++pos_;
  if (pos_ >= source_.size() || source_[pos_] != '.') return make(TokenKind::Integer, begin);
  ++pos_;
  while (pos_ < source_.size() && is_digit(source_[pos_])) ++pos_;
  if (pos_ < source_.size() && (source_[pos_] == 'e' || source_[pos_] == 'E')) {
    size_t p = pos_ + 1;
    if (p < source_.size() && (source_[p] == '-' || source_[p] == '+')) ++p;
    if (p < source_.size() && is_digit(source_[p])) {
      pos_ = p;
      while (pos_ < source_.size() && is_digit(source_[pos_])) ++pos_;
    }
  }
  return make(TokenKind::Float, begin);
}

Token Lexer::lex_string(size_t begin) {
  while (pos_ < source_.size()) {
    const char c = source_[pos_];
    if (c == '"') {
      ++pos_;
      return make(TokenKind::String, begin);
    }
    if (c == '\n') break;
    if (c == '\\') {
      ++pos_;
      if (pos_ >= source_.size() || source_[pos_] == '\n') break;
    }
    ++pos_;
  }
  pos_ = begin;
  return fail(begin, "expected '\"' in string literal");
}

bool decode_string_literal(std::string_view spelling, std::string* out) {
  out->clear();
  if (spelling.size() < 2 || spelling.front() != '"' || spelling.back() != '"') return false;
  const std::string_view body = spelling.substr(1, spelling.size() - 2);
  for (size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (i + 1 >= body.size()) return false;
    const char e = body[++i];
    switch (e) {
      case '\\': out->push_back('\\'); break;
      case '"': out->push_back('"'); break;
      case 'n': out->push_back('\n'); break;
      case 't': out->push_back('\t'); break;
      default:
        if (i + 1 < body.size() && is_hex_digit(e) && is_hex_digit(body[i + 1])) {
          out->push_back(static_cast<char>(hex_value(e) * 16 + hex_value(body[i + 1])));
          ++i;
        } else {
          return false;
        }
    }
  }
  return true;
}

}  // namespace tri::bef::mlir
