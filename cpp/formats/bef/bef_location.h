// Decoding of BEF location records (FORMAT-NOTES §9), so that a runtime error
// can point at the source op's file:line:col.
#pragma once

#include <cstdint>

#include "cpp/formats/bef/bef_file.h"
#include "cpp/runtime/async/host_context.h"

namespace tri::bef {

using async::SourceLocation;

// The first file:line:col found at `offset` in Locations, looking through
// name, call-site (callee first) and fused records. Offsets past the end of
// the section, truncated records and records nested deeper than a small
// limit mean "no location", as in TFRT.
SourceLocation decode_location(const BefFile& file, uint32_t offset);

}  // namespace tri::bef
