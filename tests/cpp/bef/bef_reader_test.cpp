// Acceptance 3 of issue 10: the BEF reader answers truncated and mutated
// files with clear errors and never crashes; programs that still load run
// bounded. Also the reader's specific errors, each naming what is wrong.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpp/formats/bef/bef_file.h"
#include "tests/cpp/bef/bef_test_util.h"
#include "tests/cpp/support/shared_corpus.h"

namespace tri::bef {
namespace {

// An 8-aligned copy of `bytes`, as BEF requires.
struct Aligned {
  explicit Aligned(const std::vector<uint8_t>& bytes) : words((bytes.size() + 7) / 8 + 1) {
    if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
    size = bytes.size();
  }
  Span<const uint8_t> span() const { return Span<const uint8_t>(reinterpret_cast<const uint8_t*>(words.data()), size); }
  std::vector<uint64_t> words;
  size_t size;
};

// The file's bytes and the index memory must outlive the BefFile.
struct Opened {
  explicit Opened(const std::vector<uint8_t>& bytes)
      : aligned(bytes), memory(bytes.size() * kIndexBytesPerFileByte + kIndexBytesBase),
        allocator(memory.data(), memory.size()), file(BefFile::open(aligned.span(), allocator)) {}
  Aligned aligned;
  std::vector<uint8_t> memory;
  MemoryAllocator allocator;
  Result<BefFile> file;
};

std::string open_error(const std::vector<uint8_t>& bytes) {
  Opened opened(bytes);
  return opened.file.ok() ? std::string("(opened)") : std::string(last_error_message());
}

std::vector<uint8_t> small_program() {
  return testing::translate(R"(
func.func @callee(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}
func.func @main() -> i32 {
  %a = tfrt.constant.i32 41
  %b = tfrt.call @callee(%a) : (i32) -> (i32)
  %n = tfrt.constant.i32 3
  %r = tfrt.repeat.i32 %n, %b : i32 {
    %c = tfrt.add.i32 %b, %b
    tfrt.return %c : i32
  }
  tfrt.return %r : i32
}
)");
}

TEST(BefReader, OpensWhatTheTranslatorWrites) {
  Opened opened(small_program());
  ASSERT_TRUE(opened.file.ok()) << last_error_message();
  const BefFile& file = *opened.file;
  EXPECT_EQ(file.num_functions(), 3u);  // callee, the repeat body, main
  EXPECT_EQ(file.find_function("main"), 2);
  EXPECT_EQ(file.find_function("nope"), -1);
  EXPECT_STREQ(file.kernel_name(0), "tfrt.constant.i32");
}

TEST(BefReader, NamesWhatIsWrong) {
  const std::vector<uint8_t> bef = small_program();
  EXPECT_EQ(open_error({}), "invalid BEF file header detected");
  EXPECT_EQ(open_error({0x0B, 0xEE, 0x00}), "invalid BEF file header detected");
  EXPECT_EQ(open_error({0x0B, 0xEF, 0x01}), "Unknown BEF format version detected (version 1)");
  EXPECT_EQ(open_error({0x0B, 0xEF, 0x00}), "BEF file has no Strings section (id 0)");
  // A section header cut in its VBR length.
  EXPECT_EQ(open_error({0x0B, 0xEF, 0x00, 0x00, 0x80}), "BEF file section header corrupted (at byte 3)");
  // A section claiming more bytes than remain.
  EXPECT_EQ(open_error({0x0B, 0xEF, 0x00, 0x00, 0x10, 'a'}),
            "BEF section 0 at byte 3 claims 8 bytes but only 1 remain");
  // Alignment must be a power of two.
  EXPECT_EQ(open_error({0x0B, 0xEF, 0x00, 0x01, 0x01, 0x03}),
            "BEF file section header corrupted (at byte 3: bad alignment 3)");

  // Unknown section ids are skipped: append one and the file still opens.
  std::vector<uint8_t> extra = bef;
  extra.insert(extra.end(), {0x2A, 0x04, 0xDE, 0xAD});
  EXPECT_EQ(open_error(extra), "(opened)");

  // A buffer that is not 8-aligned is refused, as TFRT refuses it.
  std::vector<uint64_t> words(bef.size() / 8 + 2);
  uint8_t* misaligned = reinterpret_cast<uint8_t*>(words.data()) + 1;
  std::memcpy(misaligned, bef.data(), bef.size());
  std::vector<uint8_t> memory(bef.size() * kIndexBytesPerFileByte + kIndexBytesBase);
  MemoryAllocator allocator(memory.data(), memory.size());
  Result<BefFile> file = BefFile::open(Span<const uint8_t>(misaligned, bef.size()), allocator);
  ASSERT_FALSE(file.ok());
  EXPECT_STREQ(last_error_message(), "The BEF file memory should be aligned by 8");
}

// Kernels that wait on each other can never run. The file below is valid
// but for two used-by entries, rewritten so that every count still agrees
// (each kernel is triggered as often as it has operands, each register read
// as often as it says) while kernel 3 waits on its own result.
TEST(BefReader, RefusesKernelsThatWaitOnThemselves) {
  const std::vector<uint8_t> bef = testing::translate(R"(
func.func @main() -> i32 {
  %x = tfrt.constant.i32 1
  %y = tfrt.constant.i32 2
  %b = tfrt.add.i32 %x, %y
  %c = tfrt.add.i32 %x, %b
  tfrt.return %c : i32
}
)");
  Opened opened(bef);
  ASSERT_TRUE(opened.file.ok()) << last_error_message();
  const FunctionBody& body = opened.file->function(0).body;
  ASSERT_EQ(body.kernels.size(), 5u);  // the pseudo kernel, then one per op
  // The byte offset in `bef` of word `index` of kernel k's used-by lists.
  auto used_by_word = [&](uint32_t k, uint32_t index) {
    const KernelRecord record = body.kernel(k);
    const size_t words = kKernelHeaderWords + 2 * size_t{record.num_results()} +
                         record.num_arguments() + record.num_attributes() + record.num_functions();
    const uint8_t* at = body.kernel_list + body.kernels[k].offset + 4 * (words + index);
    return static_cast<size_t>(at - opened.aligned.span().data());
  };
  // Where kernel k's result 0 lists kernel `user`.
  auto position = [&](uint32_t k, uint32_t user) {
    const KernelRecord record = body.kernel(k);
    for (uint32_t i = 0; i < record.num_used_by(0); ++i) {
      if (record.used_by(0, i) == user) return i;
    }
    ADD_FAILURE() << "kernel " << k << " does not trigger kernel " << user;
    return 0u;
  };
  ASSERT_EQ(body.kernel(1).num_used_by(0), 2u);  // %x: both adds
  std::vector<uint8_t> cycle = bef;
  cycle[used_by_word(1, position(1, 3))] = 4;  // %x now triggers kernel 4 twice, not 3
  cycle[used_by_word(3, position(3, 4))] = 3;  // and %b triggers kernel 3 itself
  EXPECT_EQ(open_error(cycle),
            "BEF function 0 ('main'): kernel 3 can never run: it waits, directly or through other "
            "kernels, on its own results");
}

TEST(BefReader, EveryTruncationFailsWithAMessage) {
  const std::vector<uint8_t> bef = small_program();
  for (size_t n = 0; n < bef.size(); ++n) {
    const std::vector<uint8_t> cut(bef.begin(), bef.begin() + n);
    const std::string error = open_error(cut);
    // Trailing optional sections may be cut off whole and the rest stays a
    // valid file; anything else must fail, saying something.
    if (error == "(opened)") continue;
    EXPECT_FALSE(error.empty()) << "truncated at " << n;
  }
  // Cutting inside the required sections always fails.
  EXPECT_NE(open_error(std::vector<uint8_t>(bef.begin(), bef.begin() + bef.size() / 3)), "(opened)");
}

// Mutations: flipped bytes, random bytes, runs of 0xFF (huge VBRs and
// counts). Whatever opens must also run, bounded, without crashing; the
// sanitizer build (scripts/fuzz.sh) runs this test under ASan and UBSan.
int mutate_and_run(const std::vector<uint8_t>& bef, uint32_t seed, int rounds) {
  std::mt19937 rng(seed);
  int opened = 0;
  for (int round = 0; round < rounds; ++round) {
    std::vector<uint8_t> m = bef;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % m.size();
      switch (rng() % 3) {
        case 0: m[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
        case 1: m[at] = static_cast<uint8_t>(rng()); break;
        default:
          for (size_t k = at; k < m.size() && k < at + 5; ++k) m[k] = 0xFF;
      }
    }
    if (open_error(m) != "(opened)") continue;
    ++opened;
    BefRunOptions options;
    options.allow_unknown_kernels = true;
    options.heap_bytes = size_t{1} << 20;
    options.kernel_budget = 5000;
    const BefRunReport report = run_bef(m.data(), m.size(), options);
    EXPECT_EQ(report.out.rfind("Choosing memory leak check allocator.\n", 0), 0u);
  }
  return opened;
}

TEST(BefReader, MutatedFilesFailCleanlyOrRunBounded) {
  // Some mutations (attribute values, stream ids, padding) leave a valid
  // file; those must have run.
  EXPECT_GT(mutate_and_run(small_program(), 1, 3000), 0);
}

TEST(BefReader, MutatedCorpusFilesFailCleanlyOrRunBounded) {
  TRI_REQUIRE_SHARED();
  uint32_t seed = 7;
  const auto corpus = testing::translated_corpus();
  for (const auto& [path, bef] : corpus) {
    SCOPED_TRACE(path);
    mutate_and_run(bef, seed++, 300);
  }
  EXPECT_GE(corpus.size(), 20u);
}

}  // namespace
}  // namespace tri::bef
