// TFRT's formats in the host's format registry: BEF files (.bef), and TFRT
// MLIR text (.mlir), which is translated to BEF first. Both open as a
// FunctionProgram (bef_functions.h).
#pragma once

#include <memory>

#include "cpp/host/format_registry.h"

namespace tri::bef {

bool sniff_bef(ByteSpan head);
// MLIR text: printable ASCII that starts, after blanks, with a comment, a
// func.func, a module or an attribute alias.
bool sniff_mlir(ByteSpan head);
Result<std::unique_ptr<host::LoadedFile>> open_bef(ByteSpan bytes, const host::OpenOptions& options);
Result<std::unique_ptr<host::LoadedFile>> open_mlir(ByteSpan bytes, const host::OpenOptions& options);

}  // namespace tri::bef
