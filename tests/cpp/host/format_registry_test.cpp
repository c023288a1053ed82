// The format registry: every format is detected from its first bytes in one
// place, an unknown file is named by its first bytes, and a recognized but
// unsupported format says so rather than failing as garbage.
#include "cpp/host/format_registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/cpp/support/shared_corpus.h"

namespace tri::host {
namespace {

using ::tri::testing::corpus_file;

std::vector<uint8_t> bytes_of(std::initializer_list<uint8_t> head, const char* text = "") {
  std::vector<uint8_t> out(head);
  for (const char* c = text; *c != '\0'; ++c) out.push_back(static_cast<uint8_t>(*c));
  return out;
}

ByteSpan span(const std::vector<uint8_t>& v) { return ByteSpan(v.data(), v.size()); }

std::string detected(const std::vector<uint8_t>& v) {
  Result<const FileFormat*> f = detect_format(span(v));
  return f.ok() ? (*f)->id : std::string("error: ") + last_error_message();
}

TEST(FormatRegistry, DetectsEachFormatFromItsFirstBytes) {
  EXPECT_EQ(detected(bytes_of({0x1c, 0, 0, 0}, "ET12\0\0")), "pte");
  EXPECT_EQ(detected(bytes_of({0x1c, 0, 0, 0}, "ET99")), "pte");
  EXPECT_EQ(detected(bytes_of({0x2c, 0, 0, 0}, "BP08")), "bpte");
  EXPECT_EQ(detected(bytes_of({0x50, 0x4b, 0x03, 0x04, 0, 0})), "pt2");
  EXPECT_EQ(detected(bytes_of({0x0b, 0xef, 0, 0})), "bef");
}

TEST(FormatRegistry, IdsAreUniqueAndEveryEntryIsComplete) {
  std::set<std::string> ids;
  for (const FileFormat& f : file_formats()) {
    EXPECT_TRUE(ids.insert(f.id).second) << f.id;
    EXPECT_NE(f.sniff, nullptr) << f.id;
    EXPECT_GT(std::string(f.description).size(), 0u) << f.id;
  }
  for (const DataFormat& f : data_formats()) {
    EXPECT_TRUE(ids.insert(f.id).second) << f.id;
    EXPECT_NE(f.open, nullptr) << f.id;
  }
}

TEST(FormatRegistry, FlatbufferIdentifiersNeedTwoDigits) {
  EXPECT_NE(detected(bytes_of({0, 0, 0, 0}, "ETxx")).find("error: unrecognized model file"),
            std::string::npos);
  EXPECT_NE(detected(bytes_of({0, 0, 0, 0}, "ET1")).find("only 7 bytes"), std::string::npos);
}

TEST(FormatRegistry, AnUnknownFileIsNamedByItsFirstBytesAndEveryExpectation) {
  const std::string message = detected(bytes_of({}, "NOT_A_PTE file"));
  EXPECT_EQ(last_error_code(), Error::InvalidProgram);
  EXPECT_NE(message.find("first bytes 4e 4f 54 5f 41 5f 50 54 (\"NOT_A_PT\")"), std::string::npos)
      << message;
  for (const FileFormat& f : file_formats()) {
    EXPECT_NE(message.find(f.description), std::string::npos) << message;
  }
  EXPECT_NE(detected({}).find("only 0 bytes, first bytes (empty file)"), std::string::npos);
}

TEST(FormatRegistry, EveryRecognizedFormatHasAFrontEnd) {
  for (const FileFormat& f : file_formats()) EXPECT_NE(f.open, nullptr) << f.id;
}

TEST(FormatRegistry, TfrtMlirTextIsToldFromOtherText) {
  EXPECT_EQ(detected(bytes_of({}, "// Copyright 2020 The")), "mlir");
  EXPECT_EQ(detected(bytes_of({}, "\n  func.func @f() {")), "mlir");
  EXPECT_EQ(detected(bytes_of({}, "module attributes")), "mlir");
  EXPECT_EQ(detected(bytes_of({}, "#map0 = affine_map<(d0) -> (d0)>")), "mlir");
  EXPECT_EQ(detected(bytes_of({}, "!t = type tensor<2xf32>")), "mlir");
  // A markdown heading or a shebang line is not an alias.
  EXPECT_NE(detected(bytes_of({}, "# Trident\n\nA runtime")).find("unrecognized"), std::string::npos);
  EXPECT_NE(detected(bytes_of({}, "#!/usr/bin/env node")).find("unrecognized"), std::string::npos);
  EXPECT_NE(detected(bytes_of({}, "#heading without equals")).find("unrecognized"), std::string::npos);
  // Other text, and text with control bytes, is not MLIR.
  EXPECT_NE(detected(bytes_of({}, "hello, world")).find("unrecognized model file"), std::string::npos);
  EXPECT_NE(detected(bytes_of({}, "// \x01 binary")).find("unrecognized model file"), std::string::npos);
}

TEST(FormatRegistry, TfrtFilesOpenAsFunctionsNotMethods) {
  const std::string mlir =
      "func.func @main() -> i32 {\n  %x = tfrt.constant.i32 7\n  tfrt.return %x : i32\n}\n";
  const std::vector<uint8_t> text(mlir.begin(), mlir.end());
  Result<std::unique_ptr<LoadedFile>> file = open_file(span(text), OpenOptions());
  ASSERT_TRUE(file.ok()) << last_error_message();
  EXPECT_STREQ((*file)->format(), "mlir");
  EXPECT_EQ((*file)->program(), nullptr);
  ASSERT_NE((*file)->functions(), nullptr);
  EXPECT_NE((*file)->functions()->describe_json().find("\"name\":\"main\""), std::string::npos);

  // BEF bytes whose kernels this build lacks fail at load, naming the
  // kernel and where it is used.
  const std::string unknown = "func.func @f() {\n  \"no.such\"() : () -> ()\n  tfrt.return\n}\n";
  Result<std::unique_ptr<LoadedFile>> bad =
      open_file(span(std::vector<uint8_t>(unknown.begin(), unknown.end())), OpenOptions());
  ASSERT_FALSE(bad.ok());
  EXPECT_STREQ(last_error_message(), "<input>.mlir:2:3: unknown kernel name 'no.such'");
  // A file read from a path is named by it.
  OpenOptions named;
  named.source_name = "models/broken.mlir";
  ASSERT_FALSE(open_file(span(std::vector<uint8_t>(unknown.begin(), unknown.end())), named).ok());
  EXPECT_STREQ(last_error_message(), "models/broken.mlir:2:3: unknown kernel name 'no.such'");
}

TEST(FormatRegistry, ADataFileGivenAsTheModelSaysWhereItGoes) {
  const std::string message = detected(bytes_of({0x1c, 0, 0, 0}, "FT01\0\0\0\0"));
  EXPECT_EQ(last_error_code(), Error::InvalidArgument);
  EXPECT_NE(message.find("this is ExecuTorch tensor data (.ptd), not a model"), std::string::npos) << message;
  EXPECT_NE(message.find("dataFiles"), std::string::npos) << message;
}

TEST(FormatRegistry, AnUnknownDataFileNamesTheDataFormats) {
  const std::vector<uint8_t> v = bytes_of({}, "not flat tensor data");
  Result<std::unique_ptr<LoadedDataFile>> file = open_data_file(span(v));
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error(), Error::InvalidExternalData);
  EXPECT_NE(std::string(last_error_message()).find(".ptd"), std::string::npos);
}

TEST(FormatRegistryCorpus, OpensProgramsBundlesAndDataInTheirFormats) {
  TRI_REQUIRE_SHARED();
  const std::vector<uint8_t> pte = corpus_file(
      "pte/pytorch__executorch/extension__apple__ExecuTorch____tests____resources__add.pte");
  Result<std::unique_ptr<LoadedFile>> program = open_file(span(pte), OpenOptions());
  ASSERT_TRUE(program.ok()) << last_error_message();
  EXPECT_STREQ((*program)->format(), "pte");
  EXPECT_EQ((*program)->program()->num_methods(), 1u);
  EXPECT_EQ((*program)->bundled_test_count(), 0u);

  const std::vector<uint8_t> pt2 = corpus_file("pt2/pytorch__executorch/linear.pt2");
  Result<std::unique_ptr<LoadedFile>> archive = open_file(span(pt2), OpenOptions());
  ASSERT_TRUE(archive.ok()) << last_error_message();
  EXPECT_STREQ((*archive)->format(), "pt2");
  EXPECT_STREQ((*archive)->program()->method_name(0), "model");

  const std::vector<uint8_t> bpte =
      corpus_file("pte/pytorch__executorch/extension__module__test__resources__bundled_program.bpte");
  Result<std::unique_ptr<LoadedFile>> bundle = open_file(span(bpte), OpenOptions());
  ASSERT_TRUE(bundle.ok()) << last_error_message();
  EXPECT_STREQ((*bundle)->format(), "bpte");
  EXPECT_GT((*bundle)->bundled_test_count(), 0u);
  Result<std::string> test = (*bundle)->bundled_test_json(0);
  ASSERT_TRUE(test.ok()) << last_error_message();
  EXPECT_NE(test->find("\"method\""), std::string::npos);

  const std::vector<uint8_t> ptd =
      corpus_file("pte/pytorch__executorch/extension__module__test__resources__linear.ptd");
  Result<std::unique_ptr<LoadedDataFile>> data = open_data_file(span(ptd));
  ASSERT_TRUE(data.ok()) << last_error_message();
  EXPECT_GT((*data)->data().size(), 0u);
  // A data file is not a program, and a program is not a data file.
  EXPECT_FALSE(open_file(span(ptd), OpenOptions()).ok());
  EXPECT_FALSE(open_data_file(span(pte)).ok());
}

}  // namespace
}  // namespace tri::host
