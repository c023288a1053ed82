#include "cpp/formats/bef/host/mlir_to_bef/bef_location_emitter.h"

namespace tri::bef {

namespace {
constexpr uint8_t kFileLineColLocation = 1;
}  // namespace

size_t BefLocationEmitter::string_offset(const std::string& str) {
  auto it = string_offsets_.find(str);
  if (it != string_offsets_.end()) return it->second;
  const size_t offset = strings_.size();
  strings_.emit_bytes(reinterpret_cast<const uint8_t*>(str.data()), str.size());
  strings_.emit_byte(0);
  string_offsets_.emplace(str, offset);
  return offset;
}

size_t BefLocationEmitter::emit_file_line_col(const std::string& filename, mlir::SourceLoc loc) {
  const size_t offset = size();
  emit_byte(kFileLineColLocation);
  emit_vbr(string_offset(filename));
  emit_vbr(loc.line);
  emit_vbr(loc.column);
  ++count_;
  return offset;
}

}  // namespace tri::bef
