// MLIR text to the translator's IR: the generic op form plus the custom forms
// of the tfrt, tfrt_test, tfrt_dht, tfrt_dht_sync and ts ops the corpus uses
// (see MANIFEST.md "Translator syntax subset"). Result types of custom-form
// ops come from the op definitions in TFRT's .td files.
#pragma once

#include <string_view>

#include "cpp/formats/bef/host/mlir_to_bef/mlir_ast.h"

namespace tri::bef::mlir {

// Parses one module (an explicit `module {...}` or the functions of the whole
// text). On failure fills `diag` with the first error and returns false.
bool parse_mlir_module(std::string_view source, Module* out, Diag* diag);

}  // namespace tri::bef::mlir
