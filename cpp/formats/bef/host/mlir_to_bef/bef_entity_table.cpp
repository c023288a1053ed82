#include "cpp/formats/bef/host/mlir_to_bef/bef_entity_table.h"

#include <cstring>
#include <utility>

#include "cpp/formats/bef/host/mlir_to_bef/bef_attribute_encoder.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_lexer.h"

namespace tri::bef {

using mlir::Attribute;
using mlir::Block;
using mlir::Diag;
using mlir::Op;

namespace {

void append_u64(std::string* out, uint64_t value) {
  char raw[8];
  std::memcpy(raw, &value, sizeof(raw));
  out->append(raw, sizeof(raw));
}

void append_sized(std::string* out, const std::string& text) {
  append_u64(out, text.size());
  out->append(text);
}

// How MLIR prints a symbol reference: bare when it is an identifier.
std::string print_symbol(const std::string& name) {
  bool bare = !name.empty() && mlir::is_bare_identifier_start(name[0]);
  for (char c : name) bare = bare && mlir::is_bare_identifier_char(c);
  if (bare) return "@" + name;
  std::string out = "@\"";
  for (char c : name) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

class Collector {
 public:
  Collector(const mlir::Module& module, bool optional_sections, EntityTable* table, Diag* diag)
      : module_(module), optional_(optional_sections), t_(*table), diag_(*diag) {}

  bool run() {
    for (const mlir::Function& fn : module_.functions) {
      if (fn.has_body && !walk_block(fn.body.block)) return false;
      if (!visit_function(fn)) return false;
    }
    for (const auto& [name, loc] : function_refs_) {
      if (t_.function_named(name) < 0) {
        return fail(loc, "function " + print_symbol(name) + " not defined");
      }
    }
    return true;
  }

 private:
  bool fail(mlir::SourceLoc loc, const std::string& message) {
    diag_.loc = loc;
    diag_.message = message;
    return false;
  }

  void add_string(const std::string& str) { t_.strings.insert(str); }

  void add_type(const std::string& type) {
    if (t_.type_ids.emplace(type, static_cast<uint32_t>(t_.types.size())).second) {
      t_.types.push_back(type);
      add_string(type);
    }
  }

  void add_kernel(const std::string& name) {
    if (t_.kernel_ids.emplace(name, static_cast<uint32_t>(t_.kernels.size())).second) {
      t_.kernels.push_back(name);
      add_string(name);
    }
  }

  void add_attribute(const Attribute& attr) {
    if (t_.attribute_ids.emplace(attribute_key(attr), static_cast<uint32_t>(t_.attributes.size()))
            .second) {
      t_.attributes.push_back(&attr);
    }
  }

  // The attribute types registered for the optional sections: those of
  // integers and floats, also inside arrays.
  void add_attribute_types(const Attribute& attr) {
    if (attr.kind == mlir::AttrKind::Integer || attr.kind == mlir::AttrKind::Float) {
      add_type(attr.type);
    }
    if (attr.kind == mlir::AttrKind::Array) {
      for (const Attribute& element : attr.elements) add_attribute_types(element);
    }
  }

  bool add_function(const mlir::Region& region, const std::string& name, FunctionKind kind,
                    mlir::SourceLoc owner_loc, const mlir::Function* function) {
    const Block& block = region.block;
    if (block.ops.empty()) return fail(region.loc, "empty block: expect at least a terminator");
    const Op& last = block.ops.back();
    // The function's results are what its tfrt.return returns.
    if (!mlir::is_return(last)) return fail(last.loc, "all functions need to have a tfrt.return");
    for (const std::string& type : block.arg_types) add_type(type);
    add_string(name);
    FunctionRecord entry;
    entry.name = name;
    entry.kind = kind;
    entry.region = &region;
    entry.inputs = block.arg_types;
    for (const mlir::Operand& operand : last.operands) {
      if (operand.outer) {
        return fail(last.loc,
                    "BEF executor only supports references to kernels within the current region");
      }
      entry.results.push_back(operand.op < 0
                                  ? block.arg_types[operand.index]
                                  : block.ops[static_cast<size_t>(operand.op)]
                                        .result_types[operand.index]);
    }
    entry.owner_loc = owner_loc;
    entry.function = function;
    const uint32_t id = static_cast<uint32_t>(t_.functions.size());
    t_.region_ids[&region] = id;
    t_.named_ids[name] = id;
    t_.functions.push_back(std::move(entry));
    return true;
  }

  bool walk_block(const Block& block) {
    for (size_t i = 0; i < block.ops.size(); ++i) {
      const Op& op = block.ops[i];
      for (const mlir::Region& region : op.regions) {
        if (!walk_block(region.block)) return false;
      }
      if (!visit_op(op, i + 1 == block.ops.size())) return false;
    }
    return true;
  }

  bool visit_op(const Op& op, bool is_last) {
    if (mlir::is_return(op)) {
      if (!is_last) return fail(op.loc, "return op must be at the end of its block");
      return true;
    }
    for (const std::string& type : op.result_types) add_type(type);
    for (const mlir::Operand& operand : op.operands) {
      if (operand.outer) {
        return fail(op.loc,
                    "BEF executor only supports references to kernels within the current region");
      }
    }
    add_kernel(op.name);
    for (const mlir::NamedAttr& attr : op.attributes) {
      // The cost only guides stream analysis; kernels never see it.
      if (attr.name == "_tfrt_cost") continue;
      if (!is_encodable_attribute(attr.value)) {
        return fail(op.loc, "BEF files cannot encode the '" + attr.name + "' attribute");
      }
      if (attr.value.kind == mlir::AttrKind::SymbolRef) {
        function_refs_.emplace_back(attr.value.text, op.loc);
        continue;
      }
      if (optional_) {
        add_string(attr.name);
        add_attribute_types(attr.value);
      }
      if (is_function_array(attr.value)) continue;
      add_attribute(attr.value);
    }
    for (const mlir::Region& region : op.regions) {
      if (!add_function(region, "", FunctionKind::Async, op.loc, nullptr)) return false;
    }
    return true;
  }

  bool visit_function(const mlir::Function& fn) {
    if (fn.attribute("tfrt.native") != nullptr) {
      for (const std::string& type : fn.input_types) add_type(type);
      for (const std::string& type : fn.result_types) add_type(type);
      add_string(fn.name);
      FunctionRecord entry;
      entry.name = fn.name;
      entry.kind = FunctionKind::Native;
      entry.inputs = fn.input_types;
      entry.results = fn.result_types;
      entry.owner_loc = fn.loc;
      entry.function = &fn;
      t_.named_ids[fn.name] = static_cast<uint32_t>(t_.functions.size());
      t_.functions.push_back(std::move(entry));
      return true;
    }
    if (!fn.has_body) return fail(fn.loc, "external functions are not allowed");
    const Op& last = fn.body.block.ops.back();
    if (!mlir::is_return(last)) return fail(last.loc, "all functions need to have a tfrt.return");
    const bool sync = fn.attribute("tfrt.sync") != nullptr;
    if (sync) {
      for (size_t i = 0; i < last.operands.size(); ++i) {
        const mlir::Operand& operand = last.operands[i];
        if (operand.op < 0) {
          return fail(last.loc, "return value " + std::to_string(i) +
                                    " is an argument in a sync function");
        }
        for (size_t j = 0; j < i; ++j) {
          if (last.operands[j].op == operand.op && last.operands[j].index == operand.index) {
            return fail(last.loc, "return value " + std::to_string(i) +
                                      " is duplicated in a sync function");
          }
        }
      }
    }
    return add_function(fn.body, fn.name, sync ? FunctionKind::Sync : FunctionKind::Async,
                        fn.loc, &fn);
  }

  const mlir::Module& module_;
  const bool optional_;
  EntityTable& t_;
  Diag& diag_;
  std::vector<std::pair<std::string, mlir::SourceLoc>> function_refs_;
};

}  // namespace

std::string attribute_key(const Attribute& attr) {
  std::string key;
  key += static_cast<char>('A' + static_cast<int>(attr.kind));
  append_sized(&key, attr.type);
  append_u64(&key, attr.bits);
  append_sized(&key, attr.text);
  key += attr.ranked ? 'r' : 'u';
  key += attr.nested_symbol ? 'n' : 'f';
  append_u64(&key, attr.shape.size());
  for (int64_t dim : attr.shape) append_u64(&key, static_cast<uint64_t>(dim));
  append_u64(&key, attr.data.size());
  key.append(reinterpret_cast<const char*>(attr.data.data()), attr.data.size());
  append_u64(&key, attr.elements.size());
  for (const Attribute& element : attr.elements) append_sized(&key, attribute_key(element));
  return key;
}

int64_t EntityTable::function_named(const std::string& name) const {
  auto it = named_ids.find(name);
  return it == named_ids.end() ? -1 : static_cast<int64_t>(it->second);
}

uint32_t EntityTable::type_id(const std::string& type) const {
  auto it = type_ids.find(type);
  return it == type_ids.end() ? 0 : it->second;
}

uint32_t EntityTable::kernel_id(const std::string& name) const {
  auto it = kernel_ids.find(name);
  return it == kernel_ids.end() ? 0 : it->second;
}

uint32_t EntityTable::attribute_id(const Attribute& attr) const {
  auto it = attribute_ids.find(attribute_key(attr));
  return it == attribute_ids.end() ? 0 : it->second;
}

bool collect_entities(const mlir::Module& module, bool optional_sections, EntityTable* table,
                      Diag* diag) {
  return Collector(module, optional_sections, table, diag).run();
}

}  // namespace tri::bef
