// The first phase of TFRT's MLIR-to-BEF conversion (EntityTable::Collect in
// lib/bef_converter/mlir_to_bef/mlir_to_bef.cc): a post-order walk of the
// module that registers, in first-appearance order, the kernels, types,
// attributes and functions the file will hold, and the strings naming them.
// Functions of op regions are registered when their op is visited, after
// everything nested in them, so they precede their owner. This phase also
// reports the translation errors TFRT reports.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cpp/formats/bef/bef_encoding.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_ast.h"

namespace tri::bef {

struct FunctionRecord {
  std::string name;  // "" for the function of an op region
  FunctionKind kind = FunctionKind::Async;
  const mlir::Region* region = nullptr;  // nullptr for native functions
  std::vector<std::string> inputs;
  std::vector<std::string> results;
  mlir::SourceLoc owner_loc;                 // the func.func or the region's op
  const mlir::Function* function = nullptr;  // set when the entry is a func.func
};

// What makes two MLIR attributes the same uniqued attribute.
std::string attribute_key(const mlir::Attribute& attr);

struct EntityTable {
  std::vector<const mlir::Attribute*> attributes;
  std::map<std::string, uint32_t> attribute_ids;  // by attribute_key
  std::vector<std::string> kernels;
  std::map<std::string, uint32_t> kernel_ids;
  std::vector<std::string> types;
  std::map<std::string, uint32_t> type_ids;
  std::set<std::string> strings;  // sorted by bytes, as the Strings section is
  std::vector<FunctionRecord> functions;
  std::map<const mlir::Region*, uint32_t> region_ids;
  std::map<std::string, uint32_t> named_ids;

  // -1 when no function has that name.
  int64_t function_named(const std::string& name) const;
  uint32_t type_id(const std::string& type) const;
  uint32_t kernel_id(const std::string& name) const;
  uint32_t attribute_id(const mlir::Attribute& attr) const;
};

// Fills `table`; with `optional_sections` also registers attribute names and
// the types of integer and float attributes. Returns false with the first
// error TFRT's walk would report.
bool collect_entities(const mlir::Module& module, bool optional_sections, EntityTable* table,
                      mlir::Diag* diag);

}  // namespace tri::bef
