// libFuzzer target for whole PT2 archives: zip, then the model JSON, the
// weights config, pickled constants and sample inputs, the weights
// themselves, lowering and planning, then a run of each method
// (load_and_run.h).
//
// Raw byte mutations of a zip mostly break its CRCs and never get past the
// directory, so most mutations here are structure-aware: the archive is
// unpacked, one entry's bytes are mutated by libFuzzer, and the archive is
// packed again with true sizes and CRCs. A quarter stay raw, for the zip
// layer itself (zip_fuzzer covers it in depth).
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpp/formats/pt2/zip/zip_archive.h"
#include "tests/cpp/support/zip_builder.h"
#include "tests/fuzz/load_and_run.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

// The archive's entries, or false when it is not a zip this reader accepts
// with every entry stored.
bool unpack(const uint8_t* data, size_t size, std::vector<tri::testing::ZipRecord>& records) {
  const tri::host::OwnedBytes copy = tri::host::OwnedBytes::copy_of(data, size);
  tri::Result<tri::pt2::ZipArchive> zip =
      tri::pt2::ZipArchive::open(tri::ByteSpan(copy.data(), copy.size()));
  if (!zip.ok()) return false;
  tri::pt2::ZipArchive::Cursor cursor = zip->entries();
  tri::pt2::ZipEntry entry;
  for (;;) {
    tri::Result<bool> more = cursor.next(&entry);
    if (!more.ok()) return false;
    if (!*more) break;
    tri::Result<tri::ByteSpan> bytes = zip->data(entry);
    if (!bytes.ok()) return false;
    records.push_back({std::string(entry.name.data(), entry.name.size()),
                       std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size())});
  }
  return !records.empty();
}

bool is_structured(const std::string& name) {
  auto ends_with = [&](const char* suffix) {
    const size_t n = std::strlen(suffix);
    return name.size() >= n && name.compare(name.size() - n, n, suffix) == 0;
  };
  return ends_with(".json") || ends_with(".pkl") || ends_with(".pt") ||
         ends_with("archive_format") || ends_with("version");
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  std::minstd_rand rng(seed);
  std::vector<tri::testing::ZipRecord> records;
  if (rng() % 4 == 0 || !unpack(data, size, records)) {
    return LLVMFuzzerMutate(data, size, max_size);
  }
  // JSON, pickles and small text records half the time; any entry otherwise.
  std::vector<size_t> structured;
  for (size_t i = 0; i < records.size(); ++i) {
    if (is_structured(records[i].name)) structured.push_back(i);
  }
  const size_t pick = !structured.empty() && rng() % 2 == 0
                          ? structured[rng() % structured.size()]
                          : rng() % records.size();
  std::string& bytes = records[pick].data;
  if (bytes.empty()) bytes.push_back(static_cast<char>(rng()));
  const size_t old_size = bytes.size();
  bytes.resize(old_size + 64 + old_size / 8);
  bytes.resize(LLVMFuzzerMutate(reinterpret_cast<uint8_t*>(bytes.data()), old_size, bytes.size()));
  const std::vector<uint8_t> packed = tri::testing::make_zip(records);
  if (packed.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, packed.data(), packed.size());
  return packed.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  load_and_run(data, size);
  return 0;
}
