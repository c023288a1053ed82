// The zip reader under PT2 archives: real files from torch (PyTorchStreamWriter
// with ZIP64 records and 64-byte aligned data; Python's zipfile for the legacy
// layout), hand-made zips for ZIP64 extra fields, and hostile bytes: every
// truncation, a bad directory, lying counts, compressed or corrupt entries.
#include "cpp/formats/pt2/zip/zip_archive.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cpp/support/shared_corpus.h"

namespace tri::pt2 {
namespace {

using ::tri::testing::corpus_file;

const char kLinear[] = "pt2/pytorch__executorch/linear.pt2";
const char kLegacy[] = "pt2/KladovValentin__hades-pid/exported_program.pt2";

ByteSpan span(const std::vector<uint8_t>& v) { return ByteSpan(v.data(), v.size()); }
std::string str(Span<const char> s) { return std::string(s.data(), s.size()); }
std::string message() { return last_error_message(); }

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

struct Record {
  std::string name;
  std::string data;
  uint16_t method = 0;
};

// A minimal zip writer for cases real files do not cover: `zip64_extra`
// saturates the 32-bit sizes and offsets in the directory and puts the real
// values in a ZIP64 extra field, with ZIP64 end records.
std::vector<uint8_t> make_zip(const std::vector<Record>& records, bool zip64_extra = false) {
  std::vector<uint8_t> out;
  std::vector<uint64_t> offsets;
  for (const Record& r : records) {
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
    const Record& r = records[i];
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

std::vector<std::string> names(const ZipArchive& zip) {
  std::vector<std::string> out;
  ZipArchive::Cursor cursor = zip.entries();
  ZipEntry e;
  for (;;) {
    Result<bool> more = cursor.next(&e);
    EXPECT_TRUE(more.ok()) << message();
    if (!more.ok() || !*more) break;
    out.push_back(str(e.name));
  }
  return out;
}

TEST(Crc32, MatchesTheStandardCheckValue) {
  const std::string digits = "123456789";
  EXPECT_EQ(crc32(ByteSpan(reinterpret_cast<const uint8_t*>(digits.data()), digits.size())),
            0xcbf43926u);
  EXPECT_EQ(crc32(ByteSpan()), 0u);
}

TEST(ZipArchive, ReadsStoredEntriesInPlace) {
  const std::vector<uint8_t> bytes = make_zip({{"a/first", "hello"}, {"a/second", ""}});
  Result<ZipArchive> zip = ZipArchive::open(span(bytes));
  ASSERT_TRUE(zip.ok()) << message();
  EXPECT_EQ(zip->num_entries(), 2u);
  EXPECT_EQ(names(*zip), (std::vector<std::string>{"a/first", "a/second"}));
  Result<ZipEntry> first = zip->find("a/first");
  ASSERT_TRUE(first.ok()) << message();
  Result<ByteSpan> data = zip->data(*first);
  ASSERT_TRUE(data.ok()) << message();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(data->data()), data->size()), "hello");
  // In place: the bytes are the file's own.
  EXPECT_GE(data->data(), bytes.data());
  EXPECT_LT(data->data(), bytes.data() + bytes.size());
  Result<ZipEntry> empty = zip->find("a/second");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(zip->data(*empty)->size(), 0u);
}

TEST(ZipArchive, ReadsZip64ExtraFieldsAndEndRecords) {
  const std::vector<uint8_t> bytes = make_zip({{"x", "12345"}, {"y", "abc"}}, true);
  Result<ZipArchive> zip = ZipArchive::open(span(bytes));
  ASSERT_TRUE(zip.ok()) << message();
  EXPECT_EQ(zip->num_entries(), 2u);
  Result<ZipEntry> y = zip->find("y");
  ASSERT_TRUE(y.ok()) << message();
  EXPECT_EQ(y->uncompressed_size, 3u);
  Result<ByteSpan> data = zip->data(*y);
  ASSERT_TRUE(data.ok()) << message();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(data->data()), data->size()), "abc");
}

TEST(ZipArchive, NamesAMissingEntry) {
  const std::vector<uint8_t> bytes = make_zip({{"x", "1"}});
  Result<ZipArchive> zip = ZipArchive::open(span(bytes), "model.pt2");
  ASSERT_TRUE(zip.ok());
  EXPECT_EQ(zip->find("models/model.json").error(), Error::NotFound);
  EXPECT_EQ(message(), "model.pt2 has no entry 'models/model.json'");
}

TEST(ZipArchive, RefusesCompressedEntriesClearly) {
  std::vector<uint8_t> bytes = make_zip({{"w", "data", 8}});
  Result<ZipArchive> zip = ZipArchive::open(span(bytes));
  ASSERT_TRUE(zip.ok());
  EXPECT_EQ(zip->data(*zip->find("w")).error(), Error::NotSupported);
  EXPECT_NE(message().find("entry 'w' is compressed (method 8)"), std::string::npos) << message();
}

TEST(ZipArchive, DetectsACorruptEntry) {
  std::vector<uint8_t> bytes = make_zip({{"w", "data"}});
  bytes[30 + 1] ^= 0xff;  // first data byte
  Result<ZipArchive> zip = ZipArchive::open(span(bytes));
  ASSERT_TRUE(zip.ok());
  EXPECT_EQ(zip->data(*zip->find("w")).error(), Error::InvalidProgram);
  EXPECT_NE(message().find("entry 'w' is corrupt: CRC-32"), std::string::npos) << message();
}

TEST(ZipArchive, RefusesABadCentralDirectory) {
  const std::vector<uint8_t> good = make_zip({{"a", "1"}, {"b", "2"}});
  const size_t eocd = good.size() - 22;
  {
    std::vector<uint8_t> bytes = good;
    set32(bytes, eocd + 16, 0x7fffffff);  // directory offset
    EXPECT_EQ(ZipArchive::open(span(bytes)).error(), Error::InvalidProgram);
    EXPECT_NE(message().find("the central directory"), std::string::npos) << message();
    EXPECT_NE(message().find("lies outside the file"), std::string::npos) << message();
  }
  {
    std::vector<uint8_t> bytes = good;
    bytes[eocd + 10] = 200;  // entry count larger than the directory holds
    EXPECT_EQ(ZipArchive::open(span(bytes)).error(), Error::InvalidProgram);
    EXPECT_NE(message().find("claims 200 entries"), std::string::npos) << message();
  }
  {
    std::vector<uint8_t> bytes = good;
    const size_t directory = good[eocd + 16] | (good[eocd + 17] << 8);
    bytes[directory] = 'X';  // first directory signature
    Result<ZipArchive> zip = ZipArchive::open(span(bytes));
    ASSERT_TRUE(zip.ok());
    EXPECT_EQ(zip->find("a").error(), Error::InvalidProgram);
    EXPECT_NE(message().find("central directory entry 0 has a bad signature"), std::string::npos)
        << message();
  }
  {
    std::vector<uint8_t> bytes = good;
    const size_t directory = good[eocd + 16] | (good[eocd + 17] << 8);
    set32(bytes, directory + 42, 5000);  // local header offset of entry 0
    Result<ZipArchive> zip = ZipArchive::open(span(bytes));
    ASSERT_TRUE(zip.ok());
    Result<ZipEntry> a = zip->find("a");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(zip->data(*a).error(), Error::InvalidProgram);
    EXPECT_NE(message().find("local header at offset 5000 lies outside"), std::string::npos)
        << message();
  }
}

TEST(ZipArchive, RefusesWhatIsNotAZip) {
  const std::string text = "this is not a zip file at all, just text";
  EXPECT_EQ(ZipArchive::open(ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()))
                .error(),
            Error::InvalidProgram);
  EXPECT_NE(message().find("no end of central directory record"), std::string::npos) << message();
  EXPECT_EQ(ZipArchive::open(ByteSpan()).error(), Error::InvalidProgram);
  EXPECT_NE(message().find("too short for a zip file"), std::string::npos) << message();
}

// Every prefix of a real archive either opens (and then reads every entry
// or fails cleanly) or fails cleanly; with ASan this proves no read past
// the bytes.
void check_every_truncation(const std::vector<uint8_t>& bytes, size_t step) {
  for (size_t n = 0; n < bytes.size(); n += step) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
    Result<ZipArchive> zip = ZipArchive::open(span(cut));
    if (!zip.ok()) {
      EXPECT_GT(message().size(), 10u);
      continue;
    }
    ZipArchive::Cursor cursor = zip->entries();
    ZipEntry e;
    for (;;) {
      Result<bool> more = cursor.next(&e);
      if (!more.ok() || !*more) break;
      (void)zip->data(e);
    }
  }
}

TEST(ZipArchiveCorpus, ReadsTorchsPt2Archive) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> bytes = corpus_file(kLinear);
  Result<ZipArchive> zip = ZipArchive::open(span(bytes), "linear.pt2");
  ASSERT_TRUE(zip.ok()) << message();
  const std::vector<std::string> expected = {
      "linear_3/data/weights/weight_0",
      "linear_3/data/weights/weight_1",
      "linear_3/data/weights/model_weights_config.json",
      "linear_3/data/constants/model_constants_config.json",
      "linear_3/models/model.json",
      "linear_3/data/sample_inputs/model.pt",
      "linear_3/archive_format",
      "linear_3/archive_version",
      "linear_3/.data/version",
      "linear_3/byteorder",
      "linear_3/.data/serialization_id"};
  EXPECT_EQ(names(*zip), expected);
  ZipArchive::Cursor cursor = zip->entries();
  ZipEntry e;
  while (*cursor.next(&e)) {
    SCOPED_TRACE(str(e.name));
    EXPECT_EQ(e.flags, 0x0808);  // data descriptor + UTF-8, as PyTorchStreamWriter writes
    Result<ByteSpan> data = zip->data(e);
    ASSERT_TRUE(data.ok()) << message();
    // Every record's data starts 64-byte aligned in the file.
    EXPECT_EQ((data->data() - bytes.data()) % 64, 0);
  }
  Result<ByteSpan> weight = zip->data(*zip->find("linear_3/data/weights/weight_0"));
  ASSERT_TRUE(weight.ok());
  EXPECT_EQ(weight->size(), 36u);
  Result<ByteSpan> format = zip->data(*zip->find("linear_3/archive_format"));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(format->data()), format->size()), "pt2");
  check_every_truncation(bytes, 1);
}

TEST(ZipArchiveCorpus, ReadsTheLegacyLayoutAndTheZipInsideIt) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> bytes = corpus_file(kLegacy);
  Result<ZipArchive> zip = ZipArchive::open(span(bytes), "exported_program.pt2");
  ASSERT_TRUE(zip.ok()) << message();
  EXPECT_EQ(names(*zip), (std::vector<std::string>{"serialized_exported_program.json",
                                                   "serialized_state_dict.json",
                                                   "serialized_constants.json", "version"}));
  Result<ByteSpan> state = zip->data(*zip->find("serialized_state_dict.json"));
  ASSERT_TRUE(state.ok()) << message();
  // A torch.save zip nested, stored, inside the archive.
  Result<ZipArchive> inner = ZipArchive::open(*state, "serialized_state_dict.json");
  ASSERT_TRUE(inner.ok()) << message();
  EXPECT_TRUE(inner->find("archive/data.pkl").ok()) << message();
  check_every_truncation(bytes, 997);
}

}  // namespace
}  // namespace tri::pt2
