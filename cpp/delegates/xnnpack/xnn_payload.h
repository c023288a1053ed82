// The bytes of an XnnpackBackend payload: the XH00 header, the XNNGraph
// flatbuffer (identifier XN01, or XN00 from older exporters) and the
// constant-data area that follows it. Everything here is checked against the
// blob's size and run through the flatbuffers verifier before anyone reads a
// table: payloads come from files, and files are hostile.
#pragma once

#include <cstdint>

#include "cpp/delegates/xnnpack/schema/xnnpack_graph_generated.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace tri::xnnpack {

namespace fb = ::tri_xnn;

// The payload header as ExecuTorch writes it: 4 zero bytes, "XH00", then
// little-endian u16 header length, u32 flatbuffer offset, u32 flatbuffer
// size, u32 constant-data offset, u64 constant-data size (30 bytes).
struct XnnHeader {
  uint16_t length = 0;
  uint32_t flatbuffer_offset = 0;
  uint32_t flatbuffer_size = 0;
  uint32_t constant_data_offset = 0;
  uint64_t constant_data_size = 0;
};

constexpr size_t kXnnHeaderSize = 30;

struct XnnPayload {
  const fb::XNNGraph* graph = nullptr;
  // Where offset-addressed constants live; empty without a header (then
  // constants come from the graph's in-flatbuffer buffers).
  ByteSpan constant_data;
  bool has_header = false;
  // "XN01" or "XN00".
  char identifier[5] = {};
};

// Reads the header, if the blob has one ("XH00" at offset 4).
Result<XnnHeader> parse_xnn_header(ByteSpan blob);

// Locates and verifies the graph. Errors name what is wrong and where
// (offsets into the blob).
Result<XnnPayload> read_xnn_payload(ByteSpan blob);

}  // namespace tri::xnnpack
