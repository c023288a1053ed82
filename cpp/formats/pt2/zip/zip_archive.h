// A read-only view of a zip file in memory, for PT2 archives and the
// torch.save zips nested inside them. Offsets and sizes come from the
// central directory (ZIP64 included), never from local headers, which
// PyTorch's writer leaves zeroed. Stored entries are handed out in place:
// torch aligns their data to 64 bytes for exactly that, so weights are never
// copied. Deflated entries are refused with a clear error: torch never writes
// them, and no inflate is hand-rolled here.
//
// Why not a zip library: what is needed is zero-copy access to stored
// entries of a buffer already in memory, with bounds checks against hostile
// offsets and no allocation (this code is part of the portable runtime).
// minizip/libzip work on file handles and allocate per entry.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/span.h"

namespace tri::pt2 {

struct ZipEntry {
  Span<const char> name;  // not NUL-terminated; points into the file
  uint16_t method = 0;    // 0 stored, 8 deflated
  uint16_t flags = 0;
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_header_offset = 0;
};

class ZipArchive {
 public:
  ZipArchive() = default;

  // Finds the end of central directory (and its ZIP64 record), and checks
  // that the directory lies inside the file. Entries are checked as they are
  // read. `what` names the file in messages ("archive", "data/weights/model.pt").
  static Result<ZipArchive> open(ByteSpan file, const char* what = "zip archive");

  uint64_t num_entries() const { return num_entries_; }
  ByteSpan file() const { return file_; }
  const char* what() const { return what_; }

  // Walks the central directory: a cursor starts before the first entry.
  class Cursor {
   public:
    // False at the end; an error for a malformed record.
    Result<bool> next(ZipEntry* entry);

   private:
    friend class ZipArchive;
    const ZipArchive* archive_ = nullptr;
    uint64_t offset_ = 0;
    uint64_t index_ = 0;
  };
  Cursor entries() const;

  // The entry named exactly `name` (NotFound naming it otherwise).
  Result<ZipEntry> find(Span<const char> name) const;
  Result<ZipEntry> find(const char* name) const;

  // The bytes of a stored entry, in place, after checking its local header
  // and (when the directory records one) its CRC-32.
  Result<ByteSpan> data(const ZipEntry& entry) const;

 private:
  Error read_eocd();

  ByteSpan file_;
  const char* what_ = "zip archive";
  uint64_t num_entries_ = 0;
  uint64_t directory_offset_ = 0;
  uint64_t directory_size_ = 0;
};

// The CRC-32 (IEEE 802.3, as zip uses it) of `bytes`.
uint32_t crc32(ByteSpan bytes, uint32_t crc = 0);

}  // namespace tri::pt2
