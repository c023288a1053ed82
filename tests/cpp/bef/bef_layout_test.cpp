// Acceptance 2 of issue 10: BEF the translator writes for TFRT's
// mlir_to_bef/basics.mlir and code_size_test_app/fib.mlir decodes, section by
// section, exactly as ../shared/corpus/bef/FORMAT-NOTES.md describes. This
// test walks the bytes with its own small decoder (not BefFile), so a
// mistake shared by the writer and the reader cannot hide.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cpp/bef/bef_test_util.h"

namespace tri::bef {
namespace {

std::string corpus_dir() {
  return std::string(TRIDENT_SOURCE_DIR) + "/../shared/corpus/bef/mlir_tests/mlir_tests";
}

bool read_text(const std::string& path, std::string* out) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

// A reader over the file with the primitive encodings of FORMAT-NOTES §1.
struct Walker {
  const std::vector<uint8_t>& bytes;
  size_t pos = 0;

  uint8_t byte() {
    EXPECT_LT(pos, bytes.size());
    return pos < bytes.size() ? bytes[pos++] : 0;
  }
  // VBR: 7-bit groups, most significant first.
  uint32_t vbr() {
    uint32_t value = 0;
    for (;;) {
      const uint8_t b = byte();
      value = (value << 7) | (b & 0x7F);
      if ((b & 0x80) == 0) return value;
    }
  }
  uint32_t fixed32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t{byte()} << (8 * i);
    return v;
  }
};

struct Section {
  uint8_t id;
  size_t begin;  // payload offset in the file
  size_t size;
};

// §2: header, then sections to the end of the file; the aligned form only
// when the payload would otherwise start misaligned, padding 0xCC.
std::vector<Section> walk_sections(const std::vector<uint8_t>& bef) {
  EXPECT_GE(bef.size(), 3u);
  EXPECT_EQ(bef[0], 0x0B);
  EXPECT_EQ(bef[1], 0xEF);
  EXPECT_EQ(bef[2], 0x00);
  Walker w{bef, 3};
  std::vector<Section> sections;
  while (w.pos < bef.size()) {
    const uint8_t id = w.byte();
    const uint32_t length_and_flag = w.vbr();
    const uint32_t length = length_and_flag >> 1;
    if (length_and_flag & 1) {
      const uint8_t alignment = w.byte();
      EXPECT_GT(alignment, 1) << "section " << int(id) << " uses the aligned form for alignment 1";
      EXPECT_EQ(alignment & (alignment - 1), 0) << "section " << int(id);
      // Without the alignment byte the payload would have started right
      // here, one byte back: the long form is only for misaligned payloads.
      EXPECT_NE((w.pos - 1) % alignment, 0u) << "section " << int(id) << " would have been aligned";
      while (w.pos % alignment != 0) EXPECT_EQ(w.byte(), 0xCC) << "padding of section " << int(id);
    }
    sections.push_back({id, w.pos, length});
    w.pos += length;
  }
  EXPECT_EQ(w.pos, bef.size());
  return sections;
}

std::vector<std::string> split_strings(const std::vector<uint8_t>& bef, const Section& s) {
  std::vector<std::string> out;
  std::string current;
  for (size_t i = s.begin; i < s.begin + s.size; ++i) {
    if (bef[i] == 0) {
      out.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(bef[i]));
    }
  }
  EXPECT_TRUE(current.empty()) << "the last string is not NUL-terminated";
  return out;
}

std::string string_at(const std::vector<uint8_t>& bef, const Section& strings, uint32_t offset) {
  EXPECT_LT(offset, strings.size);
  return std::string(reinterpret_cast<const char*>(bef.data() + strings.begin + offset));
}

// §3: a count, then string offsets.
std::vector<std::string> name_table(const std::vector<uint8_t>& bef, const Section& table, const Section& strings) {
  Walker w{bef, table.begin};
  std::vector<std::string> names(w.vbr());
  for (std::string& name : names) name = string_at(bef, strings, w.vbr());
  EXPECT_EQ(w.pos, table.begin + table.size);
  return names;
}

struct IndexEntry {
  uint8_t kind;
  uint32_t offset;
  std::string name;
  std::vector<uint32_t> args, results;
};

std::vector<IndexEntry> function_index(const std::vector<uint8_t>& bef, const Section& index, const Section& strings) {
  Walker w{bef, index.begin};
  std::vector<IndexEntry> entries(w.vbr());
  for (IndexEntry& e : entries) {
    e.kind = w.byte();
    e.offset = w.vbr();
    e.name = string_at(bef, strings, w.vbr());
    e.args.resize(w.vbr());
    for (uint32_t& t : e.args) t = w.vbr();
    e.results.resize(w.vbr());
    for (uint32_t& t : e.results) t = w.vbr();
  }
  EXPECT_EQ(w.pos, index.begin + index.size);
  return entries;
}

struct Kernel {
  uint32_t code, location;
  std::vector<uint32_t> args, attributes, functions, results;
  std::vector<std::vector<uint32_t>> used_by;
};

struct Body {
  uint32_t location;
  std::vector<uint32_t> use_counts;
  std::vector<uint32_t> offsets, operands, streams;
  std::vector<uint32_t> result_registers;
  std::vector<Kernel> kernels;
  size_t end;  // one past the last record
};

// §5 and §6: header, kernel table, result registers, 0xCC to 4 bytes, then
// the records back to back, each where the table says.
Body function_body(const std::vector<uint8_t>& bef, const Section& functions, const IndexEntry& entry) {
  Walker w{bef, functions.begin + entry.offset};
  Body body;
  body.location = w.vbr();
  body.use_counts.resize(w.vbr());
  for (uint32_t& c : body.use_counts) c = w.vbr();
  const uint32_t num_kernels = w.vbr();
  for (uint32_t k = 0; k < num_kernels; ++k) {
    body.offsets.push_back(w.vbr());
    body.operands.push_back(w.vbr());
    body.streams.push_back(w.vbr());
  }
  for (size_t i = 0; i < entry.results.size(); ++i) body.result_registers.push_back(w.vbr());
  while (w.pos % 4 != 0) EXPECT_EQ(w.byte(), 0xCC) << "kernel list padding of '" << entry.name << "'";
  const size_t list = w.pos;
  size_t next = 0;
  for (uint32_t k = 0; k < num_kernels; ++k) {
    EXPECT_EQ(body.offsets[k], next) << "'" << entry.name << "' kernel " << k << " is not right after the previous one";
    Walker r{bef, list + body.offsets[k]};
    Kernel kernel;
    kernel.code = r.fixed32();
    kernel.location = r.fixed32();
    kernel.args.resize(r.fixed32());
    kernel.attributes.resize(r.fixed32());
    kernel.functions.resize(r.fixed32());
    kernel.results.resize(r.fixed32());
    kernel.used_by.resize(kernel.results.size());
    for (auto& u : kernel.used_by) u.resize(r.fixed32());
    for (uint32_t& v : kernel.args) v = r.fixed32();
    for (uint32_t& v : kernel.attributes) v = r.fixed32();
    for (uint32_t& v : kernel.functions) v = r.fixed32();
    for (uint32_t& v : kernel.results) v = r.fixed32();
    for (auto& u : kernel.used_by) {
      for (uint32_t& v : u) v = r.fixed32();
    }
    EXPECT_EQ(body.operands[k], kernel.args.size()) << "'" << entry.name << "' kernel " << k;
    next = r.pos - list;
    body.kernels.push_back(kernel);
  }
  body.end = list + next;
  return body;
}

// Checks that hold for every function (§5, §6): the pseudo kernel, use
// counts that include the return, used-by lists that match the operands.
void check_function_invariants(const IndexEntry& entry, const Body& body) {
  SCOPED_TRACE("function '" + entry.name + "'");
  ASSERT_FALSE(body.kernels.empty());
  const Kernel& pseudo = body.kernels[0];
  EXPECT_EQ(pseudo.code, 0xABABABABu);
  EXPECT_EQ(pseudo.location, 0xCDCDCDCDu);
  EXPECT_TRUE(pseudo.args.empty() && pseudo.attributes.empty() && pseudo.functions.empty());
  ASSERT_EQ(pseudo.results.size(), entry.args.size() + 1);
  const uint32_t num_registers = static_cast<uint32_t>(body.use_counts.size());
  EXPECT_EQ(pseudo.results[0], num_registers) << "the synthetic register is one past the last";
  for (size_t i = 0; i < entry.args.size(); ++i) EXPECT_EQ(pseudo.results[i + 1], i) << "arguments come first";
  // The synthetic result triggers exactly the zero-operand kernels, in order.
  std::vector<uint32_t> zero_operand;
  for (uint32_t k = 1; k < body.kernels.size(); ++k) {
    if (body.kernels[k].args.empty()) zero_operand.push_back(k);
  }
  EXPECT_EQ(pseudo.used_by[0], zero_operand);
  // Use counts: operand uses plus return uses; used-by lists: one entry per use.
  std::vector<uint32_t> uses(num_registers, 0);
  for (uint32_t k = 1; k < body.kernels.size(); ++k) {
    for (uint32_t r : body.kernels[k].args) ++uses[r];
  }
  for (uint32_t r : body.result_registers) ++uses[r];
  EXPECT_EQ(uses, body.use_counts);
  for (uint32_t k = 0; k < body.kernels.size(); ++k) {
    const Kernel& producer = body.kernels[k];
    for (size_t i = (k == 0 ? 1 : 0); i < producer.results.size(); ++i) {
      std::vector<uint32_t> users;
      for (uint32_t u = 1; u < body.kernels.size(); ++u) {
        for (uint32_t r : body.kernels[u].args) {
          if (r == producer.results[i]) users.push_back(u);
        }
      }
      std::vector<uint32_t> listed = producer.used_by[i];
      std::sort(listed.begin(), listed.end());
      EXPECT_EQ(listed, users) << "used-by of register " << producer.results[i];
    }
  }
}

void check_strings_sorted(const std::vector<std::string>& strings) {
  for (size_t i = 1; i < strings.size(); ++i) {
    EXPECT_LT(strings[i - 1], strings[i]) << "Strings are sorted by raw bytes and unique";
  }
}

class BefLayout : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!read_text(corpus_dir() + "/code_size_test_app/fib.mlir", &fib_) ||
        !read_text(corpus_dir() + "/mlir_to_bef/basics.mlir", &basics_)) {
      if (std::getenv("CI") != nullptr && std::string(std::getenv("CI")) == "true") {
        FAIL() << "../shared/corpus/bef is missing, but CI=true";
      }
      GTEST_SKIP() << "the corpus is absent (../shared/corpus/bef)";
    }
  }
  std::string fib_, basics_;
};

TEST_F(BefLayout, BasicsDecodesSectionBySection) {
  const std::vector<uint8_t> bef = testing::translate(basics_, "basics.mlir");
  const std::vector<Section> sections = walk_sections(bef);
  std::vector<uint8_t> ids;
  for (const Section& s : sections) ids.push_back(s.id);
  // §2: 0-5, then locations (6, 7), then the optional sections 8, 9, 10.
  EXPECT_EQ(ids, (std::vector<uint8_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  ASSERT_EQ(sections.size(), 11u);
  const Section& strings = sections[0];

  const std::vector<std::string> all = split_strings(bef, strings);
  check_strings_sorted(all);
  EXPECT_EQ(all, (std::vector<std::string>{"args_results", "f32", "i32", "i8", "simple.kernel", "trivial"}));
  EXPECT_EQ(sections[1].size, 0u) << "no attributes";
  EXPECT_EQ(name_table(bef, sections[2], strings), (std::vector<std::string>{"simple.kernel"}));
  // Types in first registration: the op's result (i8), then the function's
  // arguments when the function is visited.
  EXPECT_EQ(name_table(bef, sections[3], strings), (std::vector<std::string>{"i8", "i32", "f32"}));

  const std::vector<IndexEntry> index = function_index(bef, sections[4], strings);
  ASSERT_EQ(index.size(), 2u);
  EXPECT_EQ(index[0].name, "trivial");
  EXPECT_EQ(index[0].kind, 0);
  EXPECT_TRUE(index[0].args.empty() && index[0].results.empty());
  EXPECT_EQ(index[1].name, "args_results");
  EXPECT_EQ(index[1].args, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(index[1].results, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(index[0].offset, 0u);

  const Body trivial = function_body(bef, sections[5], index[0]);
  check_function_invariants(index[0], trivial);
  EXPECT_TRUE(trivial.use_counts.empty());
  ASSERT_EQ(trivial.kernels.size(), 2u);
  EXPECT_EQ(trivial.offsets, (std::vector<uint32_t>{0, 36}));  // pseudo: 9 words
  EXPECT_TRUE(trivial.kernels[1].results.empty());
  // §5: no trailing zero word; the next function starts right after.
  EXPECT_EQ(index[1].offset, trivial.end - sections[5].begin);

  const Body args = function_body(bef, sections[5], index[1]);
  check_function_invariants(index[1], args);
  EXPECT_EQ(args.use_counts, (std::vector<uint32_t>{2, 1, 1}));  // %a also returned
  EXPECT_EQ(args.result_registers, (std::vector<uint32_t>{2, 0}));
  EXPECT_EQ(args.offsets, (std::vector<uint32_t>{0, 56}));  // pseudo: 14 words
  EXPECT_EQ(args.kernels[1].args, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(args.kernels[1].results, (std::vector<uint32_t>{2}));
  EXPECT_TRUE(args.kernels[1].used_by[0].empty()) << "the return is not a user";
  EXPECT_EQ(args.end, sections[5].begin + sections[5].size);

  // §9: each function's owner location, then one per op, file:line:col.
  Walker loc{bef, sections[7].begin + args.location};
  EXPECT_EQ(loc.byte(), 1);
  EXPECT_EQ(string_at(bef, sections[6], loc.vbr()), "basics.mlir");
  EXPECT_EQ(loc.vbr(), 22u);  // func.func @args_results
  EXPECT_EQ(loc.vbr(), 1u);
  Walker op{bef, sections[7].begin + args.kernels[1].location};
  EXPECT_EQ(op.byte(), 1);
  op.vbr();
  EXPECT_EQ(op.vbr(), 23u);  // %c = "simple.kernel": MLIR locates an op at its name
  EXPECT_EQ(op.vbr(), 8u);
}

TEST_F(BefLayout, FibDecodesSectionBySection) {
  const std::vector<uint8_t> bef = testing::translate(fib_, "fib.mlir");
  const std::vector<Section> sections = walk_sections(bef);
  ASSERT_GE(sections.size(), 6u);
  for (size_t i = 0; i < sections.size(); ++i) EXPECT_EQ(sections[i].id, i);
  const Section& strings = sections[0];
  const std::vector<std::string> all = split_strings(bef, strings);
  check_strings_sorted(all);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all[0], "") << "region functions are named \"\", which sorts first";

  // Kernels in first appearance of a post-order walk: the ops inside
  // tfrt.if's regions come before tfrt.if.
  EXPECT_EQ(name_table(bef, sections[2], strings),
            (std::vector<std::string>{"tfrt.constant.i32", "tfrt.lessequal.i32", "tfrt.add.i32", "tfrt.call",
                                      "tfrt.if", "tfrt.new.chain", "tfrt.print.i32"}));
  EXPECT_EQ(name_table(bef, sections[3], strings), (std::vector<std::string>{"i32", "i1", "!tfrt.chain"}));

  // Attributes: six distinct i32 constants (1, -1, 0, 4, 8, 16), uniqued,
  // 4 bytes each in first-use order.
  const Section& attributes = sections[1];
  ASSERT_EQ(attributes.size, 24u);
  const int32_t expected_constants[] = {1, -1, 0, 4, 8, 16};
  for (int i = 0; i < 6; ++i) {
    Walker w{bef, attributes.begin + 4 * size_t(i)};
    EXPECT_EQ(static_cast<int32_t>(w.fixed32()), expected_constants[i]);
  }

  // FunctionIndex in post-order: the two regions of tfrt.if, then @fib,
  // then @fib_driver.
  const std::vector<IndexEntry> index = function_index(bef, sections[4], strings);
  ASSERT_EQ(index.size(), 4u);
  EXPECT_EQ(index[0].name, "");
  EXPECT_EQ(index[1].name, "");
  EXPECT_EQ(index[2].name, "fib");
  EXPECT_EQ(index[3].name, "fib_driver");
  for (const IndexEntry& e : index) EXPECT_EQ(e.kind, 0) << e.name;
  EXPECT_EQ(index[2].args, (std::vector<uint32_t>{0}));
  EXPECT_EQ(index[2].results, (std::vector<uint32_t>{0}));
  EXPECT_EQ(index[0].args, (std::vector<uint32_t>{0})) << "then-region takes %arg";
  EXPECT_EQ(index[0].results, (std::vector<uint32_t>{0})) << "from its tfrt.return's operand types";

  std::vector<Body> bodies;
  for (const IndexEntry& e : index) {
    bodies.push_back(function_body(bef, sections[5], e));
    check_function_invariants(e, bodies.back());
  }
  // Bodies are back to back in index order, with no trailing zero word.
  for (size_t i = 1; i < index.size(); ++i) {
    EXPECT_EQ(sections[5].begin + index[i].offset, bodies[i - 1].end) << "function " << i;
  }
  EXPECT_EQ(bodies.back().end, sections[5].begin + sections[5].size);

  // @fib: the pseudo kernel, constant, lessequal, if. tfrt.if has no
  // attributes and two functions (then, else) from its regions.
  const Body& fib = bodies[2];
  ASSERT_EQ(fib.kernels.size(), 4u);
  const Kernel& if_kernel = fib.kernels[3];
  EXPECT_EQ(if_kernel.code, 4u);
  EXPECT_TRUE(if_kernel.attributes.empty());
  EXPECT_EQ(if_kernel.functions, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(fib.kernels[1].attributes, (std::vector<uint32_t>{0})) << "constant 1 at offset 0";
  // The then-region returns its argument: one register, used only by the
  // return, and only the pseudo kernel.
  EXPECT_EQ(bodies[0].use_counts, (std::vector<uint32_t>{1}));
  EXPECT_EQ(bodies[0].kernels.size(), 1u);
  EXPECT_EQ(bodies[0].result_registers, (std::vector<uint32_t>{0}));
  // The else-region's calls name @fib (index 2) in their function list.
  const Body& else_body = bodies[1];
  int calls = 0;
  for (const Kernel& k : else_body.kernels) {
    if (k.code == 3) {
      EXPECT_EQ(k.functions, (std::vector<uint32_t>{2}));
      ++calls;
    }
  }
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace tri::bef
