// One function body of the Functions section, as TFRT's BEFFunctionEmitter
// writes it: location offset, register table (use counts), kernel table
// (offset, operand count, stream id per kernel), result registers, padding,
// then the fixed32 kernel records, starting with the pseudo kernel that
// publishes the arguments and triggers the kernels without operands.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cpp/formats/bef/host/mlir_to_bef/bef_emitter.h"
#include "cpp/formats/bef/host/mlir_to_bef/bef_entity_table.h"
#include "cpp/formats/bef/host/mlir_to_bef/bef_location_emitter.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_ast.h"

namespace tri::bef {

// Where the earlier sections put each entity.
struct EntityOffsets {
  std::map<std::string, uint32_t> strings;  // offset in Strings
  std::vector<uint32_t> attributes;         // offset in Attributes, by attribute id
};

struct FunctionEmitContext {
  const mlir::Module* module = nullptr;
  const EntityTable* table = nullptr;
  const EntityOffsets* offsets = nullptr;
  std::string filename;
  BefLocationEmitter* locations = nullptr;
  ByteEmitter* attribute_names = nullptr;  // section 9, or nullptr
  ByteEmitter* register_types = nullptr;   // section 10, or nullptr
};

// Appends the body of `entry` (not a native function) to `out`.
void emit_function(const FunctionRecord& entry, const FunctionEmitContext& context,
                   ByteEmitter* out);

}  // namespace tri::bef
