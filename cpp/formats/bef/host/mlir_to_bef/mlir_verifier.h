// The op verifiers MLIR runs on a parsed module before tfrt_translate sees
// it, for the ops whose checks decide what the translator may assume: callees
// of tfrt.call/cond/parallel_call exist and take the operand count given,
// tfrt.return matches its function, and region ops end in tfrt.return with
// their result count.
#pragma once

#include "cpp/formats/bef/host/mlir_to_bef/mlir_ast.h"

namespace tri::bef::mlir {

// Returns false with the first failure in `diag`.
bool verify_module(const Module& module, Diag* diag);

}  // namespace tri::bef::mlir
