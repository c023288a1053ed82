// libFuzzer target for the zip reader PT2 archives and torch.save files go
// through: the end records (and ZIP64's), then every directory entry, found
// again by name, and its stored bytes read in place (local header, CRC).
// Each entry's bytes are touched, so one that points outside the file trips
// ASan.
#include <cstddef>
#include <cstdint>

#include "cpp/formats/pt2/zip/zip_archive.h"
#include "cpp/host/owned_bytes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const tri::host::OwnedBytes copy = tri::host::OwnedBytes::copy_of(data, size);
  tri::Result<tri::pt2::ZipArchive> zip =
      tri::pt2::ZipArchive::open(tri::ByteSpan(copy.data(), copy.size()), "fuzzed zip");
  if (!zip.ok()) return 0;
  tri::pt2::ZipArchive::Cursor cursor = zip->entries();
  tri::pt2::ZipEntry entry;
  for (;;) {
    tri::Result<bool> more = cursor.next(&entry);
    if (!more.ok() || !*more) break;
    (void)zip->find(entry.name);
    tri::Result<tri::ByteSpan> bytes = zip->data(entry);
    if (!bytes.ok()) continue;
    volatile uint32_t sink = tri::pt2::crc32(*bytes);
    (void)sink;
  }
  return 0;
}
