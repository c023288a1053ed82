// Tokens of MLIR's textual form, with the line and 1-based byte column of
// each, as MLIR's own lexer splits them (so `tfrt.constant.i32` and `x2xi32`
// are single identifiers, `%x#1` is a percent and a hash identifier, and `//`
// starts a comment running to the end of the line).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cpp/formats/bef/host/mlir_to_bef/mlir_ast.h"

namespace tri::bef::mlir {

enum class TokenKind : uint8_t {
  Eof,
  Error,
  BareIdentifier,         // func.func, i32, tensor, true
  PercentIdentifier,      // %x
  AtIdentifier,           // @f, @"quoted"
  CaretIdentifier,        // ^bb0
  HashIdentifier,         // #corert.shape, #1
  ExclamationIdentifier,  // !tfrt.chain
  Integer,                // 42, 0x2A
  Float,                  // 1.0, 1., 2.5e-3
  String,                 // "text"
  LParen,
  RParen,
  LBrace,
  RBrace,
  LSquare,
  RSquare,
  Less,
  Greater,
  Colon,
  Comma,
  Equal,
  Arrow,  // ->
  Minus,
  Plus,
  Star,
  Question,
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  size_t begin = 0;
  size_t end = 0;
  SourceLoc loc;
};

class Lexer {
 public:
  explicit Lexer(std::string_view source) : source_(source) {}

  Token next();
  // Restarts lexing at `offset`, which lies at or after the start of
  // `from`: for the places where MLIR re-splits a token (`2x3xf32` in a shape,
  // `0x3` meaning 0 then `x3`) and for skipping raw dialect bodies.
  void seek(const Token& from, size_t offset);

  std::string_view spelling(const Token& token) const {
    return source_.substr(token.begin, token.end - token.begin);
  }
  // What went wrong for the last Error token.
  const std::string& error() const { return error_; }
  std::string_view source() const { return source_; }

 private:
  Token make(TokenKind kind, size_t begin) const;
  Token fail(size_t begin, const char* message);
  void skip_space_and_comments();
  Token lex_number(size_t begin);
  Token lex_string(size_t begin);
  Token lex_prefixed(size_t begin, TokenKind kind);
  SourceLoc loc_at(size_t offset) const;

  std::string_view source_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  size_t line_start_ = 0;
  std::string error_;
};

// Decodes the body of a String token (MLIR escapes: \\ \" \n \t and two hex
// digits). Returns false on a malformed escape.
bool decode_string_literal(std::string_view spelling, std::string* out);

bool is_bare_identifier_start(char c);
bool is_bare_identifier_char(char c);

}  // namespace tri::bef::mlir
