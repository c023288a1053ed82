#include "cpp/delegates/xnnpack/xnn_payload.h"

#include <cinttypes>
#include <cstring>

#include "cpp/runtime/core/byte_reader.h"

namespace tri::xnnpack {
namespace {

bool has_magic(ByteSpan bytes, const char* magic) {
  return bytes.size() >= 8 && memcmp(bytes.data() + 4, magic, 4) == 0;
}

// The verifier's limits: far above any real graph (the largest exports hold
// a few thousand values), low enough that a hostile blob cannot make it work
// for long.
constexpr flatbuffers::uoffset_t kMaxDepth = 64;
constexpr flatbuffers::uoffset_t kMaxTables = 4000000;

}  // namespace

Result<XnnHeader> parse_xnn_header(ByteSpan blob) {
  TRI_CHECK(has_magic(blob, "XH00"), Error::NotFound,
            "the payload has no XH00 header");
  TRI_CHECK(blob.size() >= kXnnHeaderSize, Error::InvalidProgram,
            "XNNPACK payload of %zu bytes is shorter than its %zu-byte XH00 header",
            blob.size(), kXnnHeaderSize);
  XnnHeader h;
  h.length = read_u16_le(blob.data() + 8);
  h.flatbuffer_offset = read_u32_le(blob.data() + 10);
  h.flatbuffer_size = read_u32_le(blob.data() + 14);
  h.constant_data_offset = read_u32_le(blob.data() + 18);
  h.constant_data_size = read_u64_le(blob.data() + 22);
  TRI_CHECK(h.length >= kXnnHeaderSize, Error::InvalidProgram,
            "XH00 header gives its length as %u bytes (at least %zu expected)",
            static_cast<unsigned>(h.length), kXnnHeaderSize);
  const uint64_t fb_end = uint64_t{h.flatbuffer_offset} + h.flatbuffer_size;
  TRI_CHECK(h.flatbuffer_offset >= kXnnHeaderSize && fb_end <= blob.size(),
            Error::InvalidProgram,
            "XH00 header puts the flatbuffer at [%" PRIu32 ", %" PRIu64
            ") in a payload of %zu bytes",
            h.flatbuffer_offset, fb_end, blob.size());
  TRI_CHECK(h.constant_data_offset <= blob.size() &&
                h.constant_data_size <= blob.size() - h.constant_data_offset,
            Error::InvalidProgram,
            "XH00 header puts %" PRIu64 " bytes of constant data at offset %" PRIu32
            " in a payload of %zu bytes",
            h.constant_data_size, h.constant_data_offset, blob.size());
  return h;
}

Result<XnnPayload> read_xnn_payload(ByteSpan blob) {
  XnnPayload payload;
  ByteSpan flatbuffer = blob;
  Result<XnnHeader> header = parse_xnn_header(blob);
  if (header.ok()) {
    payload.has_header = true;
    flatbuffer = ByteSpan(blob.data() + header->flatbuffer_offset, header->flatbuffer_size);
    payload.constant_data = ByteSpan(blob.data() + header->constant_data_offset,
                                     static_cast<size_t>(header->constant_data_size));
  } else if (header.error() != Error::NotFound) {
    return header.error();
  }
  TRI_CHECK(flatbuffer.size() >= 8, Error::InvalidProgram,
            "XNNPACK payload: the graph flatbuffer is %zu bytes long", flatbuffer.size());
  TRI_CHECK(reinterpret_cast<uintptr_t>(flatbuffer.data()) % 4 == 0, Error::InvalidProgram,
            "XNNPACK payload: the graph flatbuffer is not 4-byte aligned");
  if (has_magic(flatbuffer, "XN01")) {
    memcpy(payload.identifier, "XN01", 4);
  } else if (has_magic(flatbuffer, "XN00")) {
    memcpy(payload.identifier, "XN00", 4);
  } else {
    char seen[5] = {};
    for (int i = 0; i < 4; ++i) {
      const uint8_t c = flatbuffer[4 + static_cast<size_t>(i)];
      seen[i] = c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?';
    }
    return fail(Error::InvalidProgram,
                "XNNPACK payload: the graph's identifier is '%s', expected XN01 or "
                "XN00%s",
                seen, payload.has_header ? "" : " (and there is no XH00 header)");
  }
  flatbuffers::Verifier verifier(flatbuffer.data(), flatbuffer.size(), kMaxDepth, kMaxTables);
  TRI_CHECK(verifier.VerifyBuffer<fb::XNNGraph>(nullptr), Error::InvalidProgram,
            "XNNPACK payload: the %s graph flatbuffer (%zu bytes) fails verification",
            payload.identifier, flatbuffer.size());
  payload.graph = flatbuffers::GetRoot<fb::XNNGraph>(flatbuffer.data());
  return payload;
}

}  // namespace tri::xnnpack
