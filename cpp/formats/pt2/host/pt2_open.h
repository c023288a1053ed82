// The PT2 format's entry in the host's format registry.
#pragma once

#include <memory>

#include "cpp/host/format_registry.h"

namespace tri::pt2 {

bool sniff_pt2(ByteSpan head);
Result<std::unique_ptr<host::LoadedFile>> open_pt2(ByteSpan bytes, const host::OpenOptions& options);

}  // namespace tri::pt2
