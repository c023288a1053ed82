// The ExecuTorch formats' entries in the host's format registry: programs
// (.pte), bundled programs (.bpte) and external tensor data (.ptd).
#pragma once

#include <memory>

#include "cpp/host/format_registry.h"

namespace tri::pte {

bool sniff_pte(ByteSpan head);
bool sniff_bpte(ByteSpan head);
bool sniff_ptd(ByteSpan head);
Result<std::unique_ptr<host::LoadedFile>> open_pte(ByteSpan bytes, const host::OpenOptions& options);
Result<std::unique_ptr<host::LoadedFile>> open_bpte(ByteSpan bytes,
                                                    const host::OpenOptions& options);
Result<std::unique_ptr<host::LoadedDataFile>> open_ptd(ByteSpan bytes);

}  // namespace tri::pte
