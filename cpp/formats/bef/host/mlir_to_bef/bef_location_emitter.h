// The LocationStrings (6) and Locations (7) sections, as TFRT's
// BefLocationEmitter writes them: file names de-duplicated in first-use
// order, and one `01 VBR(file) VBR(line) VBR(column)` record per request,
// never de-duplicated.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "cpp/formats/bef/host/mlir_to_bef/bef_emitter.h"
#include "cpp/formats/bef/host/mlir_to_bef/mlir_ast.h"

namespace tri::bef {

class BefLocationEmitter : public ByteEmitter {
 public:
  // Appends a file/line/column record and returns its offset.
  size_t emit_file_line_col(const std::string& filename, mlir::SourceLoc loc);

  size_t location_count() const { return count_; }
  const ByteEmitter& strings() const { return strings_; }

 private:
  size_t string_offset(const std::string& str);

  ByteEmitter strings_;
  std::map<std::string, size_t> string_offsets_;
  size_t count_ = 0;
};

}  // namespace tri::bef
