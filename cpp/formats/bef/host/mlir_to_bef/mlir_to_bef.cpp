#include "cpp/formats/bef/host/mlir_to_bef/mlir_to_bef.h"

#include "cpp/formats/bef/bef_encoding.h"

#include "cpp/formats/bef/host/mlir_to_bef/bef_attribute_encoder.h"
#include "cpp/formats/bef/host/mlir_to_bef/bef_emitter.h"
#include "cpp/formats/bef/host/mlir_to_bef/bef_entity_table.h"
#include "cpp/formats/bef/host/mlir_to_bef/bef_function_emitter.h"
#include "cpp/formats/bef/host/mlir_to_bef/bef_location_emitter.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_parser.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_verifier.h"

namespace tri::bef {

namespace {

tri::Error report(const mlir::Diag& diag, std::string_view filename, MlirDiagnostic* out) {
  if (out != nullptr) {
    out->line = diag.loc.line;
    out->column = diag.loc.column;
    out->message = diag.message;
  }
  return tri::fail(Error::InvalidProgram, "%.*s:%u:%u: %s", static_cast<int>(filename.size()),
                   filename.data(), diag.loc.line, diag.loc.column, diag.message.c_str());
}

ByteEmitter strings_section(const EntityTable& table, EntityOffsets* offsets) {
  ByteEmitter section;
  for (const std::string& str : table.strings) {
    offsets->strings[str] = static_cast<uint32_t>(section.size());
    section.emit_bytes(reinterpret_cast<const uint8_t*>(str.data()), str.size());
    section.emit_byte(0);
  }
  return section;
}

// Kernels and Types share a layout: a count, then string offsets.
ByteEmitter name_table_section(const std::vector<std::string>& names,
                               const EntityOffsets& offsets) {
  ByteEmitter section;
  section.emit_vbr(names.size());
  for (const std::string& name : names) section.emit_vbr(offsets.strings.find(name)->second);
  return section;
}

}  // namespace

tri::Result<std::vector<uint8_t>> mlir_to_bef(std::string_view source, std::string_view filename,
                                              const MlirToBefOptions& options,
                                              MlirDiagnostic* diagnostic) {
  mlir::Module module;
  mlir::Diag diag;
  if (!mlir::parse_mlir_module(source, &module, &diag) || !mlir::verify_module(module, &diag)) {
    return report(diag, filename, diagnostic);
  }
  EntityTable table;
  if (!collect_entities(module, options.optional_sections, &table, &diag)) {
    return report(diag, filename, diagnostic);
  }
  const bool optional = options.optional_sections;

  ByteEmitter file;
  const uint8_t header[3] = {0x0B, 0xEF, 0x00};
  file.emit_bytes(header, sizeof(header));

  EntityOffsets offsets;
  file.emit_section(SectionId::Strings, strings_section(table, &offsets));

  BefAttributeEncoder attributes;
  ByteEmitter attribute_types;
  attribute_types.emit_vbr(table.attributes.size());
  for (const mlir::Attribute* attr : table.attributes) {
    const size_t offset = attributes.encode(*attr);
    offsets.attributes.push_back(static_cast<uint32_t>(offset));
    attribute_types.emit_vbr(offset);
    attribute_types.emit_vbr(bef_attribute_type(*attr));
  }
  file.emit_section(SectionId::Attributes, attributes);
  file.emit_section(SectionId::Kernels, name_table_section(table.kernels, offsets));
  file.emit_section(SectionId::Types, name_table_section(table.types, offsets));

  ByteEmitter functions;
  BefLocationEmitter locations;
  ByteEmitter attribute_names;
  ByteEmitter register_types;
  attribute_names.emit_vbr(table.functions.size());
  register_types.emit_vbr(table.functions.size());
  FunctionEmitContext context;
  context.module = &module;
  context.table = &table;
  context.offsets = &offsets;
  context.filename = std::string(filename);
  context.locations = &locations;
  context.attribute_names = optional ? &attribute_names : nullptr;
  context.register_types = optional ? &register_types : nullptr;
  std::vector<size_t> function_offsets;
  for (const FunctionRecord& entry : table.functions) {
    // A native function's offset is meaningless; TFRT writes the section
    // size at that point, as here.
    function_offsets.push_back(functions.size());
    if (entry.kind != FunctionKind::Native) emit_function(entry, context, &functions);
  }

  ByteEmitter function_index;
  function_index.emit_vbr(table.functions.size());
  for (size_t i = 0; i < table.functions.size(); ++i) {
    const FunctionRecord& entry = table.functions[i];
    function_index.emit_byte(static_cast<uint8_t>(entry.kind));
    function_index.emit_vbr(function_offsets[i]);
    function_index.emit_vbr(offsets.strings[entry.name]);
    function_index.emit_vbr(entry.inputs.size());
    for (const std::string& type : entry.inputs) function_index.emit_vbr(table.type_id(type));
    function_index.emit_vbr(entry.results.size());
    for (const std::string& type : entry.results) function_index.emit_vbr(table.type_id(type));
  }
  file.emit_section(SectionId::FunctionIndex, function_index);
  file.emit_section(SectionId::Functions, functions);

  if (locations.location_count() > 0) {
    file.emit_section(SectionId::LocationStrings, locations.strings());
    file.emit_section(SectionId::Locations, locations);
  }
  if (optional) {
    file.emit_section(SectionId::AttributeTypes, attribute_types);
    file.emit_section(SectionId::AttributeNames, attribute_names);
    file.emit_section(SectionId::RegisterTypes, register_types);
  }
  return file.take();
}

}  // namespace tri::bef
