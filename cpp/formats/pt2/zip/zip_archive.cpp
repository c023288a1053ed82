#include "cpp/formats/pt2/zip/zip_archive.h"

#include <cinttypes>
#include <cstring>

#include "cpp/runtime/core/byte_reader.h"

namespace tri::pt2 {
namespace {

constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kEndOfDirectory = 0x06054b50;
constexpr uint32_t kZip64Locator = 0x07064b50;
constexpr uint32_t kZip64EndOfDirectory = 0x06064b50;
constexpr uint16_t kZip64ExtraTag = 0x0001;

constexpr size_t kLocalHeaderBytes = 30;
constexpr size_t kCentralHeaderBytes = 46;
constexpr size_t kEndBytes = 22;
constexpr size_t kZip64LocatorBytes = 20;
constexpr size_t kZip64EndBytes = 56;
constexpr size_t kMaxCommentBytes = 0xffff;

// Whether [offset, offset + size) lies inside [0, limit).
bool inside(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}

struct Crc32Table {
  uint32_t entries[256];
  constexpr Crc32Table() : entries() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
      entries[i] = c;
    }
  }
};
constexpr Crc32Table kCrcTable;

// The entry's name for messages, cut to fit.
struct NameText {
  char text[128];
};
NameText name_text(Span<const char> name) {
  NameText out;
  const size_t n = name.size() < sizeof(out.text) - 1 ? name.size() : sizeof(out.text) - 1;
  for (size_t i = 0; i < n; ++i) {
    const char c = name[i];
    out.text[i] = c >= 0x20 && c < 0x7f ? c : '?';
  }
  out.text[n] = '\0';
  return out;
}

// The ZIP64 extended-information extra field replaces each 32-bit field
// that is saturated, in this order.
Error read_zip64_extra(const uint8_t* extra, size_t length, ZipEntry* entry, bool need_usize,
                       bool need_csize, bool need_offset, const char* what) {
  size_t at = 0;
  while (at + 4 <= length) {
    const uint16_t tag = read_u16_le(extra + at);
    const uint16_t size = read_u16_le(extra + at + 2);
    TRI_CHECK(at + 4 + size <= length, Error::InvalidProgram,
              "%s: entry '%s': an extra field runs past its header", what,
              name_text(entry->name).text);
    if (tag == kZip64ExtraTag) {
      const uint8_t* p = extra + at + 4;
      size_t left = size;
      uint64_t* fields[3] = {need_usize ? &entry->uncompressed_size : nullptr,
                             need_csize ? &entry->compressed_size : nullptr,
                             need_offset ? &entry->local_header_offset : nullptr};
      for (uint64_t* field : fields) {
        if (field == nullptr) continue;
        TRI_CHECK(left >= 8, Error::InvalidProgram,
                  "%s: entry '%s': its ZIP64 extra field is too short", what,
                  name_text(entry->name).text);
        *field = read_u64_le(p);
        p += 8;
        left -= 8;
      }
      return Error::Ok;
    }
    at += 4 + size;
  }
  TRI_CHECK(!need_usize && !need_csize && !need_offset, Error::InvalidProgram,
            "%s: entry '%s' has saturated sizes but no ZIP64 extra field", what,
            name_text(entry->name).text);
  return Error::Ok;
}

}  // namespace

uint32_t crc32(ByteSpan bytes, uint32_t crc) {
  crc = ~crc;
  for (size_t i = 0; i < bytes.size(); ++i) {
    crc = kCrcTable.entries[(crc ^ bytes[i]) & 0xff] ^ (crc >> 8);
  }
  return ~crc;
}

Result<ZipArchive> ZipArchive::open(ByteSpan file, const char* what) {
  ZipArchive archive;
  archive.file_ = file;
  archive.what_ = what;
  TRI_TRY(archive.read_eocd());
  return archive;
}

Error ZipArchive::read_eocd() {
  const uint64_t size = file_.size();
  TRI_CHECK(size >= kEndBytes, Error::InvalidProgram,
            "%s: %" PRIu64 " bytes is too short for a zip file (no end of central directory)",
            what_, size);
  // The end record is the last thing in the file but for a comment of up to
  // 64 KiB; the first signature from the end whose comment fits is it.
  const uint64_t lowest = size - kEndBytes > kMaxCommentBytes ? size - kEndBytes - kMaxCommentBytes : 0;
  uint64_t eocd = UINT64_MAX;
  for (uint64_t at = size - kEndBytes + 1; at-- > lowest;) {
    const uint8_t* p = file_.data() + at;
    if (read_u32_le(p) == kEndOfDirectory && at + kEndBytes + read_u16_le(p + 20) <= size) {
      eocd = at;
      break;
    }
  }
  TRI_CHECK(eocd != UINT64_MAX, Error::InvalidProgram,
            "%s: no end of central directory record in the last %" PRIu64
            " bytes: not a zip file, or truncated",
            what_, size - lowest);
  const uint8_t* end = file_.data() + eocd;
  TRI_CHECK(read_u16_le(end + 4) == 0 && read_u16_le(end + 6) == 0, Error::NotSupported,
            "%s: a multi-disk zip (disk %u) is not supported", what_, read_u16_le(end + 4));
  num_entries_ = read_u16_le(end + 10);
  directory_size_ = read_u32_le(end + 12);
  directory_offset_ = read_u32_le(end + 16);
  uint64_t directory_end_limit = eocd;

  // ZIP64: a locator right before the end record points at the ZIP64 end
  // record, whose 64-bit counts replace the 16/32-bit ones.
  if (eocd >= kZip64LocatorBytes &&
      read_u32_le(file_.data() + eocd - kZip64LocatorBytes) == kZip64Locator) {
    const uint8_t* locator = file_.data() + eocd - kZip64LocatorBytes;
    const uint64_t record = read_u64_le(locator + 8);
    TRI_CHECK(inside(record, kZip64EndBytes, eocd - kZip64LocatorBytes), Error::InvalidProgram,
              "%s: the ZIP64 end of central directory at offset %" PRIu64
              " lies outside the file",
              what_, record);
    const uint8_t* z = file_.data() + record;
    TRI_CHECK(read_u32_le(z) == kZip64EndOfDirectory, Error::InvalidProgram,
              "%s: no ZIP64 end of central directory record at offset %" PRIu64, what_, record);
    TRI_CHECK(read_u32_le(z + 16) == 0 && read_u32_le(z + 20) == 0, Error::NotSupported,
              "%s: a multi-disk zip is not supported", what_);
    num_entries_ = read_u64_le(z + 32);
    directory_size_ = read_u64_le(z + 40);
    directory_offset_ = read_u64_le(z + 48);
    directory_end_limit = record;
  } else {
    TRI_CHECK(num_entries_ != 0xffff && directory_size_ != 0xffffffff &&
                  directory_offset_ != 0xffffffff,
              Error::InvalidProgram,
              "%s: the end of central directory says ZIP64 but there is no ZIP64 locator", what_);
  }
  TRI_CHECK(inside(directory_offset_, directory_size_, directory_end_limit), Error::InvalidProgram,
            "%s: the central directory (%" PRIu64 " bytes at offset %" PRIu64
            ") lies outside the file (its records end at %" PRIu64 ")",
            what_, directory_size_, directory_offset_, directory_end_limit);
  TRI_CHECK(num_entries_ <= directory_size_ / kCentralHeaderBytes, Error::InvalidProgram,
            "%s: the central directory claims %" PRIu64 " entries in %" PRIu64 " bytes", what_,
            num_entries_, directory_size_);
  return Error::Ok;
}

ZipArchive::Cursor ZipArchive::entries() const {
  Cursor cursor;
  cursor.archive_ = this;
  return cursor;
}

Result<bool> ZipArchive::Cursor::next(ZipEntry* entry) {
  const ZipArchive& a = *archive_;
  if (index_ >= a.num_entries_) return false;
  const char* what = a.what_;
  TRI_CHECK(inside(offset_, kCentralHeaderBytes, a.directory_size_), Error::InvalidProgram,
            "%s: central directory entry %" PRIu64 " runs past the directory", what, index_);
  const uint8_t* p = a.file_.data() + a.directory_offset_ + offset_;
  TRI_CHECK(read_u32_le(p) == kCentralHeader, Error::InvalidProgram,
            "%s: central directory entry %" PRIu64 " has a bad signature (0x%08" PRIx32 ")", what,
            index_, read_u32_le(p));
  const size_t name_length = read_u16_le(p + 28);
  const size_t extra_length = read_u16_le(p + 30);
  const size_t comment_length = read_u16_le(p + 32);
  const uint64_t record = kCentralHeaderBytes + name_length + extra_length + comment_length;
  TRI_CHECK(inside(offset_, record, a.directory_size_), Error::InvalidProgram,
            "%s: central directory entry %" PRIu64 " runs past the directory", what, index_);
  ZipEntry e;
  e.flags = read_u16_le(p + 8);
  e.method = read_u16_le(p + 10);
  e.crc32 = read_u32_le(p + 16);
  e.compressed_size = read_u32_le(p + 20);
  e.uncompressed_size = read_u32_le(p + 24);
  e.local_header_offset = read_u32_le(p + 42);
  e.name = Span<const char>(reinterpret_cast<const char*>(p + kCentralHeaderBytes), name_length);
  TRI_CHECK(name_length > 0, Error::InvalidProgram, "%s: entry %" PRIu64 " has an empty name",
            what, index_);
  TRI_TRY(read_zip64_extra(p + kCentralHeaderBytes + name_length, extra_length, &e,
                           e.uncompressed_size == 0xffffffff, e.compressed_size == 0xffffffff,
                           e.local_header_offset == 0xffffffff, what));
  offset_ += record;
  ++index_;
  *entry = e;
  return true;
}

Result<ZipEntry> ZipArchive::find(Span<const char> name) const {
  Cursor cursor = entries();
  ZipEntry entry;
  for (;;) {
    TRI_ASSIGN_OR_RETURN(const bool more, cursor.next(&entry));
    if (!more) break;
    if (entry.name.size() == name.size() && memcmp(entry.name.data(), name.data(), name.size()) == 0) {
      return entry;
    }
  }
  return fail(Error::NotFound, "%s has no entry '%s'", what_, name_text(name).text);
}

Result<ZipEntry> ZipArchive::find(const char* name) const {
  return find(Span<const char>(name, strlen(name)));
}

Result<ByteSpan> ZipArchive::data(const ZipEntry& entry) const {
  const NameText name = name_text(entry.name);
  TRI_CHECK((entry.flags & 1) == 0, Error::NotSupported, "%s: entry '%s' is encrypted", what_,
            name.text);
  TRI_CHECK(entry.method == 0, Error::NotSupported,
            "%s: entry '%s' is compressed (method %u); only stored entries are read, as "
            "torch.export.save and torch.save write them",
            what_, name.text, entry.method);
  TRI_CHECK(entry.compressed_size == entry.uncompressed_size, Error::InvalidProgram,
            "%s: stored entry '%s' has %" PRIu64 " bytes compressed but %" PRIu64 " uncompressed",
            what_, name.text, entry.compressed_size, entry.uncompressed_size);
  TRI_CHECK(inside(entry.local_header_offset, kLocalHeaderBytes, directory_offset_),
            Error::InvalidProgram,
            "%s: entry '%s': its local header at offset %" PRIu64 " lies outside the file's data",
            what_, name.text, entry.local_header_offset);
  const uint8_t* local = file_.data() + entry.local_header_offset;
  TRI_CHECK(read_u32_le(local) == kLocalHeader, Error::InvalidProgram,
            "%s: entry '%s': no local header at offset %" PRIu64, what_, name.text,
            entry.local_header_offset);
  const uint64_t start = entry.local_header_offset + kLocalHeaderBytes + read_u16_le(local + 26) +
                         read_u16_le(local + 28);
  TRI_CHECK(inside(start, entry.compressed_size, directory_offset_), Error::InvalidProgram,
            "%s: entry '%s': its %" PRIu64 " bytes at offset %" PRIu64
            " run past the file's data (truncated?)",
            what_, name.text, entry.compressed_size, start);
  const ByteSpan bytes(file_.data() + start, static_cast<size_t>(entry.compressed_size));
  // torch.save can be told not to compute CRCs; it then writes 0.
  if (entry.crc32 != 0) {
    const uint32_t actual = crc32(bytes);
    TRI_CHECK(actual == entry.crc32, Error::InvalidProgram,
              "%s: entry '%s' is corrupt: CRC-32 %08" PRIx32 ", the directory says %08" PRIx32,
              what_, name.text, actual, entry.crc32);
  }
  return bytes;
}

}  // namespace tri::pt2
