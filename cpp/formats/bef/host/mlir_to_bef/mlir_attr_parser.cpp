// Attribute literals: scalars at their MLIR types (an integer without a type
// is i64, a float f64), strings, arrays, dictionaries, symbol references,
// type attributes, dense elements and #corert.shape.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "cpp/formats/bef/host/mlir_to_bef/mlir_parser_impl.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_types.h"

namespace tri::bef::mlir {

namespace {

std::string shape_string(const std::vector<int64_t>& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(dims[i]);
  }
  return out + "]";
}

// strtod rather than std::from_chars: Emscripten 3.1.6's libc++ has no
// floating-point from_chars. The runtime never calls setlocale, so the
// decimal point is '.'.
bool parse_double(std::string_view text, double* value) {
  if (text.empty()) return false;
  const std::string copy(text);
  char* end = nullptr;
  *value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

void append_le(std::vector<uint8_t>* out, uint64_t bits, uint32_t bytes) {
  for (uint32_t i = 0; i < bytes; ++i) out->push_back(static_cast<uint8_t>(bits >> (8 * i)));
}

// Checks an integer literal against `info` and returns its bits at the width.
bool integer_bits(const IntTypeInfo& info, uint64_t magnitude, bool negative, uint64_t* bits,
                  std::string* error) {
  const uint32_t w = info.width;
  if (negative) {
    if (info.is_unsigned) {
      *error = "negative integer literal not valid for unsigned integer type";
      return false;
    }
    const uint64_t limit = w >= 64 ? (uint64_t{1} << 63) : (uint64_t{1} << (w - 1));
    if (magnitude > limit) {
      *error = "integer constant out of range for attribute";
      return false;
    }
    *bits = truncate_bits(~magnitude + 1, w);
    return true;
  }
  if (w < 64 && magnitude >> w != 0) {
    *error = "integer constant out of range for attribute";
    return false;
  }
  *bits = magnitude;
  return true;
}

}  // namespace

bool Parser::add_attribute(std::vector<NamedAttr>* attrs, NamedAttr attr, SourceLoc loc) {
  for (const NamedAttr& existing : *attrs) {
    if (existing.name == attr.name) {
      return fail_at(loc, "duplicate key '" + attr.name + "' in dictionary attribute");
    }
  }
  attrs->push_back(std::move(attr));
  return true;
}

bool Parser::parse_attribute_dict(std::vector<NamedAttr>* out) {
  if (!expect(TokenKind::LBrace, "'{' to start an attribute dictionary")) return false;
  if (consume_if(TokenKind::RBrace)) return true;
  std::set<std::string> names;
  for (const NamedAttr& existing : *out) names.insert(existing.name);
  while (true) {
    NamedAttr attr;
    const SourceLoc loc = tok_.loc;
    if (at(TokenKind::BareIdentifier)) {
      attr.name = std::string(spelling());
    } else if (at(TokenKind::String)) {
      if (!decode_string_literal(spelling(), &attr.name)) return fail("invalid string literal");
    } else {
      return fail_expected("attribute name");
    }
    advance();
    if (consume_if(TokenKind::Equal)) {
      if (!parse_attribute(&attr.value)) return false;
    }
    if (!names.insert(attr.name).second) {
      return fail_at(loc, "duplicate key '" + attr.name + "' in dictionary attribute");
    }
    out->push_back(std::move(attr));
    if (consume_if(TokenKind::RBrace)) return true;
    if (!expect(TokenKind::Comma, "',' or '}' in an attribute dictionary")) return false;
  }
}

bool Parser::parse_optional_attribute_dict(std::vector<NamedAttr>* out) {
  if (!at(TokenKind::LBrace)) return true;
  return parse_attribute_dict(out);
}

bool Parser::parse_number_attribute(Attribute* out, bool negative, const std::string* type) {
  const Token literal = tok_;
  const std::string_view text = spelling();
  const bool is_float = at(TokenKind::Float);
  advance();
  std::string t;
  if (type != nullptr) {
    t = *type;
  } else if (consume_if(TokenKind::Colon)) {
    if (!parse_type(&t)) return false;
  } else {
    t = is_float ? "f64" : "i64";
  }
  if (is_float) {
    if (float_type_width(t) == 0) {
      return fail_at(literal.loc, "floating point value not valid for specified type");
    }
    double value = 0;
    if (!parse_double(text, &value)) return fail_at(literal.loc, "invalid floating point literal");
    if (negative) value = -value;
    out->kind = AttrKind::Float;
    out->type = t;
    return float_bits_for_type(value, t, &out->bits);
  }
  uint64_t magnitude = 0;
  if (!parse_unsigned(text, &magnitude)) {
    return fail_at(literal.loc, "integer constant out of range for attribute");
  }
  const IntTypeInfo info = integer_type_info(t);
  if (info.valid) {
    std::string error;
    if (!integer_bits(info, magnitude, negative, &out->bits, &error)) {
      return fail_at(literal.loc, error);
    }
    out->kind = AttrKind::Integer;
    out->type = t;
    return true;
  }
  if (t == "index") {
    out->kind = AttrKind::Integer;
    out->type = t;
    out->bits = negative ? ~magnitude + 1 : magnitude;
    return true;
  }
  const uint32_t width = float_type_width(t);
  if (width != 0) {
    if (text.size() < 2 || text[1] != 'x') {
      return fail_at(literal.loc, "unexpected decimal integer literal for a floating point value");
    }
    if (negative) {
      return fail_at(literal.loc, "hexadecimal float literal should not have a leading minus");
    }
    if (width < 64 && magnitude >> width != 0) {
      return fail_at(literal.loc, "hexadecimal float constant out of range for type");
    }
    out->kind = AttrKind::Float;
    out->type = t;
    out->bits = magnitude;
    return true;
  }
  return fail_at(literal.loc, "integer literal not valid for specified type");
}

bool Parser::parse_dense_item(std::vector<DenseScalarRef>* flat, std::vector<int64_t>* shape,
                              bool* is_list) {
  if (!enter_nesting()) return false;
  struct Leave {
    Parser* p;
    ~Leave() { p->leave_nesting(); }
  } leave{this};
  shape->clear();
  if (at(TokenKind::LSquare)) {
    *is_list = true;
    advance();
    int64_t count = 0;
    std::vector<int64_t> child;
    if (!consume_if(TokenKind::RSquare)) {
      while (true) {
        std::vector<int64_t> item_shape;
        bool item_list = false;
        if (!parse_dense_item(flat, &item_shape, &item_list)) return false;
        if (count == 0) {
          child = item_shape;
        } else if (item_shape != child) {
          return fail("tensor literal is invalid; ranks are not consistent between elements");
        }
        ++count;
        if (consume_if(TokenKind::RSquare)) break;
        if (!expect(TokenKind::Comma, "',' or ']' in a tensor literal")) return false;
      }
    }
    shape->push_back(count);
    shape->insert(shape->end(), child.begin(), child.end());
    return true;
  }
  *is_list = false;
  DenseScalarRef scalar;
  auto parse_part = [&](int i) {
    if (consume_if(TokenKind::Minus)) {
      scalar.negative[i] = true;
      if (!at(TokenKind::Integer) && !at(TokenKind::Float)) return fail_expected("number");
    }
    if (!at(TokenKind::Integer) && !at(TokenKind::Float) && !at_keyword("true") &&
        !at_keyword("false") && !at(TokenKind::String)) {
      return fail_expected("element literal");
    }
    scalar.parts[i] = tok_;
    advance();
    return true;
  };
  if (consume_if(TokenKind::LParen)) {
    scalar.count = 2;
    if (!parse_part(0) || !expect(TokenKind::Comma, "','") || !parse_part(1) ||
        !expect(TokenKind::RParen, "')'")) {
      return false;
    }
  } else if (!parse_part(0)) {
    return false;
  }
  flat->push_back(scalar);
  return true;
}

bool Parser::dense_scalar_bits(const Token& token, bool negative, const std::string& element,
                               uint64_t* bits) {
  const std::string_view text = lexer_.spelling(token);
  if (token.kind == TokenKind::String) return fail_at(token.loc, "hex dense literals are not supported");
  const IntTypeInfo info = integer_type_info(element);
  if (info.valid) {
    if (token.kind == TokenKind::Float) {
      return fail_at(token.loc, "expected integer elements, but parsed floating-point");
    }
    if (token.kind == TokenKind::BareIdentifier) {  // true / false
      if (info.width != 1) return fail_at(token.loc, "expected i1 type for 'true' or 'false' values");
      *bits = text == "true" ? 1 : 0;
      return true;
    }
    uint64_t magnitude = 0;
    std::string error = "integer constant out of range for attribute";
    if (!parse_unsigned(text, &magnitude) ||
        !integer_bits(info, magnitude, negative, bits, &error)) {
      return fail_at(token.loc, error);
    }
    return true;
  }
  if (token.kind == TokenKind::BareIdentifier) {
    return fail_at(token.loc, "expected floating-point elements, but parsed bool");
  }
  double value = 0;
  if (token.kind == TokenKind::Integer && text.size() > 1 && text[1] == 'x') {
    uint64_t raw = 0;
    if (!parse_unsigned(text, &raw)) return fail_at(token.loc, "hexadecimal constant out of range");
    *bits = raw;
    return true;
  }
  if (!parse_double(text, &value)) return fail_at(token.loc, "invalid floating point literal");
  if (negative) value = -value;
  float_bits_for_type(value, element, bits);
  return true;
}

bool Parser::parse_dense(Attribute* out) {
  advance();
  if (!expect(TokenKind::Less, "'<' after 'dense'")) return false;
  std::vector<DenseScalarRef> flat;
  std::vector<int64_t> literal_shape;
  bool is_list = false;
  if (!parse_dense_item(&flat, &literal_shape, &is_list)) return false;
  if (!expect(TokenKind::Greater, "'>' to end a dense literal")) return false;
  if (!expect(TokenKind::Colon, "':' and the type of a dense literal")) return false;
  const SourceLoc type_loc = tok_.loc;
  TypeInfo info;
  std::string type;
  if (!parse_type(&type, &info)) return false;
  if (!info.shaped || !info.ranked) {
    return fail_at(type_loc, "elements literal must be a ranked tensor or vector type");
  }
  uint64_t count = 1;
  for (int64_t dim : info.dims) {
    if (dim < 0) return fail_at(type_loc, "elements literal type must have static shape");
    if (dim != 0 && count > (uint64_t{1} << 40) / static_cast<uint64_t>(dim)) {
      return fail_at(type_loc, "dense attribute is too large");
    }
    count *= static_cast<uint64_t>(dim);
  }
  if (is_list && literal_shape != info.dims) {
    return fail_at(type_loc, "inferred shape of elements literal (" + shape_string(literal_shape) +
                                 ") does not match type (" + shape_string(info.dims) + ")");
  }
  const std::string& element = info.element;
  const IntTypeInfo int_info = integer_type_info(element);
  const bool is_complex = element == "complex<f32>" || element == "complex<f64>";
  const std::string part_type = element == "complex<f32>"   ? "f32"
                                : element == "complex<f64>" ? "f64"
                                                            : element;
  uint32_t part_bytes = 0;
  if (int_info.valid && (int_info.width == 1 || int_info.width % 8 == 0)) {
    part_bytes = int_info.width == 1 ? 1 : int_info.width / 8;
  } else if (float_type_width(part_type) != 0) {
    part_bytes = float_type_width(part_type) / 8;
  }
  out->kind = AttrKind::Dense;
  out->type = element;
  out->text = type;
  out->shape = info.dims;
  if (part_bytes == 0) return true;  // not encodable; kept only to be reported
  const uint32_t parts = is_complex ? 2 : 1;
  const uint64_t bytes = count * part_bytes * parts;
  if (bytes > kMaxDenseBytes - dense_bytes_) {
    return fail_at(type_loc, "dense attributes are too large");
  }
  dense_bytes_ += bytes;
  std::vector<uint8_t> one;
  std::vector<uint8_t>& data = out->data;
  data.reserve(static_cast<size_t>(bytes));
  for (size_t i = 0; i < flat.size(); ++i) {
    const DenseScalarRef& scalar = flat[i];
    if (scalar.count != static_cast<int>(parts)) {
      return fail_at(scalar.parts[0].loc, is_complex ? "expected complex element (re, im)"
                                                      : "unexpected complex element");
    }
    std::vector<uint8_t>& sink = is_list ? data : one;
    for (uint32_t p = 0; p < parts; ++p) {
      uint64_t bits = 0;
      if (!dense_scalar_bits(scalar.parts[p], scalar.negative[p], part_type, &bits)) return false;
      append_le(&sink, bits, part_bytes);
    }
  }
  if (!is_list) {
    for (uint64_t i = 0; i < count; ++i) data.insert(data.end(), one.begin(), one.end());
  }
  return true;
}

bool Parser::parse_shape_attribute(Attribute* out) {
  advance();
  if (!expect(TokenKind::Less, "'<' after '#corert.shape'")) return false;
  out->kind = AttrKind::Shape;
  if (consume_if(TokenKind::Star)) {
    out->ranked = false;
  } else {
    bool unranked = false;
    bool trailing_x = false;
    if (!parse_dimension_list(&out->shape, false, &unranked, &trailing_x)) return false;
    if (trailing_x) return fail_expected("dimension");
  }
  return expect(TokenKind::Greater, "'>' to end '#corert.shape'");
}

bool Parser::parse_dialect_attribute(Attribute* out) {
  std::string text;
  const Attribute* alias = nullptr;
  if (!parse_dialect_symbol(attribute_aliases_, &text, &alias)) return false;
  if (alias != nullptr) {
    *out = *alias;
    return true;
  }
  out->kind = AttrKind::Other;
  out->text = std::move(text);
  return true;
}

bool Parser::parse_attribute(Attribute* out, const std::string* type) {
  if (!enter_nesting()) return false;
  struct Leave {
    Parser* p;
    ~Leave() { p->leave_nesting(); }
  } leave{this};
  *out = Attribute();
  switch (tok_.kind) {
    case TokenKind::Minus:
      advance();
      if (!at(TokenKind::Integer) && !at(TokenKind::Float)) return fail_expected("number after '-'");
      return parse_number_attribute(out, /*negative=*/true, type);
    case TokenKind::Integer:
    case TokenKind::Float:
      return parse_number_attribute(out, /*negative=*/false, type);
    case TokenKind::String: {
      out->kind = AttrKind::String;
      if (!decode_string_literal(spelling(), &out->text)) return fail("invalid string literal");
      advance();
      if (type == nullptr && consume_if(TokenKind::Colon)) return parse_type(&out->type);
      return true;
    }
    case TokenKind::LSquare: {
      out->kind = AttrKind::Array;
      advance();
      if (consume_if(TokenKind::RSquare)) return true;
      while (true) {
        Attribute element;
        if (!parse_attribute(&element)) return false;
        out->elements.push_back(std::move(element));
        if (consume_if(TokenKind::RSquare)) return true;
        if (!expect(TokenKind::Comma, "',' or ']' in an array attribute")) return false;
      }
    }
    case TokenKind::LBrace: {
      std::vector<NamedAttr> entries;
      if (!parse_attribute_dict(&entries)) return false;
      out->kind = AttrKind::Other;
      out->text = "{dictionary}";
      return true;
    }
    case TokenKind::AtIdentifier: {
      out->kind = AttrKind::SymbolRef;
      std::string_view body = spelling().substr(1);
      if (!body.empty() && body.front() == '"') {
        if (!decode_string_literal(body, &out->text)) return fail("invalid symbol name");
      } else {
        out->text = std::string(body);
      }
      advance();
      // `@a::@b`: two adjacent colons then another symbol.
      while (at(TokenKind::Colon) && tok_.begin + 1 < lexer_.source().size() &&
             lexer_.source()[tok_.begin + 1] == ':') {
        advance();
        advance();
        if (!at(TokenKind::AtIdentifier)) return fail_expected("nested symbol reference");
        out->nested_symbol = true;
        out->text += "::" + std::string(spelling());
        advance();
      }
      return true;
    }
    case TokenKind::HashIdentifier:
      if (spelling() == "#corert.shape") return parse_shape_attribute(out);
      return parse_dialect_attribute(out);
    case TokenKind::BareIdentifier: {
      const std::string_view word = spelling();
      if (word == "true" || word == "false") {
        out->kind = AttrKind::Integer;
        out->type = "i1";
        out->bits = word == "true" ? 1 : 0;
        advance();
        return true;
      }
      if (word == "unit") {
        advance();
        return true;
      }
      if (word == "dense") return parse_dense(out);
      if (word == "array" || word == "sparse" || word == "dense_resource" ||
          word == "affine_map" || word == "affine_set" || word == "strided" ||
          word == "distinct" || word == "loc") {
        const std::string keyword(word);
        advance();
        if (!at(TokenKind::Less) && !at(TokenKind::LParen) && !at(TokenKind::LSquare)) {
          return fail_expected("'<'");
        }
        std::string body;
        if (!skip_balanced(&body)) return false;
        if (keyword == "distinct" && at(TokenKind::Less)) {
          std::string inner;
          if (!skip_balanced(&inner)) return false;
          body += inner;
        }
        out->kind = AttrKind::Other;
        out->text = keyword + body;
        return true;
      }
      out->kind = AttrKind::Type;
      return parse_type(&out->type);
    }
    case TokenKind::ExclamationIdentifier:
    case TokenKind::LParen:
      out->kind = AttrKind::Type;
      return parse_type(&out->type);
    default:
      return fail_expected("attribute value");
  }
}

}  // namespace tri::bef::mlir
