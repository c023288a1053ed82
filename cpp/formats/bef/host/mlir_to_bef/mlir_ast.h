// The small IR the MLIR front end builds for the BEF translator: a module of
// functions, each a single-block region of operations. It keeps only what the
// encoder reads: op names, operands as (defining op, result) pairs, result
// types as their printed spelling, attributes sorted by name, nested regions
// and the source position of every op and function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tri::bef::mlir {

struct SourceLoc {
  uint32_t line = 0;
  uint32_t column = 0;
};

// A failure with the position it is reported at.
struct Diag {
  SourceLoc loc;
  std::string message;
};

enum class AttrKind : uint8_t {
  Unit,       // `unit`, or a bare name in a dictionary
  Integer,    // 42 : i32, true
  Float,      // 1.0 : f32
  String,     // "text" (optionally typed)
  Type,       // i32 used as an attribute value
  Array,      // [a, b, ...]
  Dense,      // dense<...> : tensor<...>
  SymbolRef,  // @name
  Shape,      // #corert.shape<2x?x3>
  Other,      // anything parsed but not encodable (dictionaries, dialect attrs)
};

struct Attribute {
  AttrKind kind = AttrKind::Unit;
  // Integer/Float: the value type; Type: the type itself; Dense: the element
  // type; String: its type when one was written.
  std::string type;
  // Integer: the value in two's complement, truncated to the type's width.
  // Float: the IEEE bit pattern at the type's width.
  uint64_t bits = 0;
  // String: the decoded bytes; SymbolRef: the symbol name; Other: a spelling
  // used only to tell attributes apart.
  std::string text;
  std::vector<Attribute> elements;  // Array
  std::vector<int64_t> shape;       // Dense dims; Shape dims (-1 unknown)
  bool ranked = true;               // Shape
  bool nested_symbol = false;       // SymbolRef written as @a::@b
  // Dense: every element expanded (splats included), little endian, one byte
  // per i1, complex values as (re, im).
  std::vector<uint8_t> data;
};

struct NamedAttr {
  std::string name;
  Attribute value;
};

// A use of a value. `op` is the index of the defining op in the block, or -1
// for a block argument; `outer` marks a value of an enclosing region, which
// BEF cannot express.
struct Operand {
  int32_t op = -1;
  uint32_t index = 0;
  bool outer = false;
};

struct Op;

struct Block {
  std::vector<std::string> arg_types;
  std::vector<Op> ops;
};

struct Region {
  SourceLoc loc;  // the opening brace
  Block block;
};

struct Op {
  std::string name;
  SourceLoc loc;  // the op name, where MLIR locates an op
  std::vector<Operand> operands;
  std::vector<std::string> result_types;
  std::vector<NamedAttr> attributes;  // sorted by name, unique
  std::vector<Region> regions;

  const Attribute* attribute(const std::string& attr_name) const;
};

struct Function {
  std::string name;
  SourceLoc loc;  // the `func.func` keyword
  std::vector<std::string> input_types;
  std::vector<std::string> result_types;
  std::vector<NamedAttr> attributes;
  bool has_body = false;
  Region body;

  const Attribute* attribute(const std::string& attr_name) const;
};

struct Module {
  std::vector<NamedAttr> attributes;
  std::vector<Function> functions;

  const Function* function(const std::string& name) const;
  const Attribute* attribute(const std::string& attr_name) const;
};

inline const Attribute* find_attribute(const std::vector<NamedAttr>& attrs,
                                       const std::string& name) {
  for (const NamedAttr& attr : attrs) {
    if (attr.name == name) return &attr.value;
  }
  return nullptr;
}

inline const Attribute* Op::attribute(const std::string& attr_name) const {
  return find_attribute(attributes, attr_name);
}

inline const Attribute* Function::attribute(const std::string& attr_name) const {
  return find_attribute(attributes, attr_name);
}

inline const Attribute* Module::attribute(const std::string& attr_name) const {
  return find_attribute(attributes, attr_name);
}

inline const Function* Module::function(const std::string& fn_name) const {
  for (const Function& fn : functions) {
    if (fn.name == fn_name) return &fn;
  }
  return nullptr;
}

constexpr const char* kReturnOpName = "tfrt.return";
constexpr const char* kChainType = "!tfrt.chain";

inline bool is_return(const Op& op) { return op.name == kReturnOpName; }

}  // namespace tri::bef::mlir
