#include "tests/cpp/support/zip_builder.h"

#include "cpp/formats/pt2/zip/zip_archive.h"

namespace tri::testing {

using ::tri::ByteSpan;
using ::tri::pt2::crc32;

void put16(std::vector<uint8_t>& out, uint32_t v) {
  out.push_back(v & 0xff);
  out.push_back((v >> 8) & 0xff);
}
void put32(std::vector<uint8_t>& out, uint32_t v) {
  put16(out, v & 0xffff);
  put16(out, v >> 16);
}
void put64(std::vector<uint8_t>& out, uint64_t v) {
  put32(out, static_cast<uint32_t>(v));
  put32(out, static_cast<uint32_t>(v >> 32));
}
void set32(std::vector<uint8_t>& out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

std::vector<uint8_t> make_zip(const std::vector<ZipRecord>& records, bool zip64_extra) {
  std::vector<uint8_t> out;
  std::vector<uint64_t> offsets;
  for (const ZipRecord& r : records) {
    offsets.push_back(out.size());
    put32(out, 0x04034b50);
    put16(out, 20);
    put16(out, 0);
    put16(out, r.method);
    put32(out, 0);
    put32(out, crc32(ByteSpan(reinterpret_cast<const uint8_t*>(r.data.data()), r.data.size())));
    put32(out, static_cast<uint32_t>(r.data.size()));
    put32(out, static_cast<uint32_t>(r.data.size()));
    put16(out, static_cast<uint32_t>(r.name.size()));
    put16(out, 0);
    out.insert(out.end(), r.name.begin(), r.name.end());
    out.insert(out.end(), r.data.begin(), r.data.end());
  }
  const uint64_t directory = out.size();
  for (size_t i = 0; i < records.size(); ++i) {
    const ZipRecord& r = records[i];
    put32(out, 0x02014b50);
    put16(out, 45);
    put16(out, 45);
    put16(out, 0);
    put16(out, r.method);
    put32(out, 0);
    put32(out, crc32(ByteSpan(reinterpret_cast<const uint8_t*>(r.data.data()), r.data.size())));
    const uint32_t size = zip64_extra ? 0xffffffff : static_cast<uint32_t>(r.data.size());
    put32(out, size);
    put32(out, size);
    put16(out, static_cast<uint32_t>(r.name.size()));
    put16(out, zip64_extra ? 28 : 0);
    put16(out, 0);
    put16(out, 0);
    put16(out, 0);
    put32(out, 0);
    put32(out, zip64_extra ? 0xffffffff : static_cast<uint32_t>(offsets[i]));
    out.insert(out.end(), r.name.begin(), r.name.end());
    if (zip64_extra) {
      put16(out, 0x0001);
      put16(out, 24);
      put64(out, r.data.size());
      put64(out, r.data.size());
      put64(out, offsets[i]);
    }
  }
  const uint64_t directory_size = out.size() - directory;
  if (zip64_extra) {
    const uint64_t record = out.size();
    put32(out, 0x06064b50);
    put64(out, 44);
    put16(out, 45);
    put16(out, 45);
    put32(out, 0);
    put32(out, 0);
    put64(out, records.size());
    put64(out, records.size());
    put64(out, directory_size);
    put64(out, directory);
    put32(out, 0x07064b50);
    put32(out, 0);
    put64(out, record);
    put32(out, 1);
  }
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, zip64_extra ? 0xffff : static_cast<uint32_t>(records.size()));
  put16(out, zip64_extra ? 0xffff : static_cast<uint32_t>(records.size()));
  put32(out, zip64_extra ? 0xffffffff : static_cast<uint32_t>(directory_size));
  put32(out, zip64_extra ? 0xffffffff : static_cast<uint32_t>(directory));
  put16(out, 0);
  return out;
}

}  // namespace tri::testing
