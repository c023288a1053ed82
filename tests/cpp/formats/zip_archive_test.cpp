// The zip reader under PT2 archives: real files from torch (PyTorchStreamWriter
// with ZIP64 records and 64-byte aligned data; Python's zipfile for the legacy
// layout), hand-made zips for ZIP64 extra fields, and hostile bytes: every
// truncation, a bad directory, lying counts, compressed or corrupt entries.
#include "cpp/formats/pt2/zip/zip_archive.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cpp/support/shared_corpus.h"
#include "tests/cpp/support/zip_builder.h"

namespace tri::pt2 {
namespace {

using ::tri::testing::corpus_file;
using ::tri::testing::make_zip;
using ::tri::testing::set32;
using Record = ::tri::testing::ZipRecord;

const char kLinear[] = "pt2/pytorch__executorch/linear.pt2";
const char kLegacy[] = "pt2/KladovValentin__hades-pid/exported_program.pt2";

ByteSpan span(const std::vector<uint8_t>& v) { return ByteSpan(v.data(), v.size()); }
std::string str(Span<const char> s) { return std::string(s.data(), s.size()); }
std::string message() { return last_error_message(); }

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
