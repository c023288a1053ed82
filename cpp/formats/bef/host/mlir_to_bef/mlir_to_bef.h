// MLIR text to TFRT's Binary Executable Format, byte for byte as
// `tfrt_translate -mlir-to-bef` lays it out (TFRT's ConvertMLIRToBEF):
// header `0B EF 00`, then the Strings, Attributes, Kernels, Types,
// FunctionIndex and Functions sections, LocationStrings and Locations, and
// (unless disabled) the AttributeTypes, AttributeNames and RegisterTypes
// sections that only BEF-to-MLIR reads.
//
// The translator knows no kernels: any op name becomes a kernel name. It
// parses the generic op form and the custom forms of the TFRT dialects used
// by the BEF corpus.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cpp/runtime/core/result.h"

namespace tri::bef {

struct MlirDiagnostic {
  uint32_t line = 0;
  uint32_t column = 0;
  std::string message;
};

struct MlirToBefOptions {
  // Sections 8, 9 and 10, which tfrt_translate writes by default.
  bool optional_sections = true;
};

// `filename` is recorded in LocationStrings, as tfrt_translate records its
// input path. On failure the error message is "FILE:LINE:COL: MESSAGE" and
// `diagnostic`, if given, holds its parts.
tri::Result<std::vector<uint8_t>> mlir_to_bef(std::string_view source, std::string_view filename,
                                              const MlirToBefOptions& options = {},
                                              MlirDiagnostic* diagnostic = nullptr);

}  // namespace tri::bef
