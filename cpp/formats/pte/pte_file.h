// A verified .pte file: its bytes, header and flatbuffer root, and checked
// access to its segments. Small and copyable, so views that need segments
// (named data, delegate blobs) can hold one.
#pragma once

#include <cstddef>

#include "cpp/formats/pte/pte_header.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace executorch_flatbuffer {
struct Program;
}

namespace tri::pte {

struct PteFile {
  ByteSpan bytes;
  PteHeader header;
  const executorch_flatbuffer::Program* program = nullptr;

  // Parses the header and verifies the flatbuffer and the segment table.
  static Result<PteFile> open(ByteSpan bytes);

  size_t num_segments() const;
  // Segment `index`, checked to lie inside the file.
  Result<ByteSpan> segment(size_t index) const;
};

}  // namespace tri::pte
