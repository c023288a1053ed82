// Whole-file translation: the worked example of FORMAT-NOTES §6 byte for
// byte, the ordering rules (sorted strings, first-appearance post-order of
// kernels, types and functions, regions before their owner), attribute
// uniquing, the optional sections and stream ids.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cpp/formats/bef/host/mlir_to_bef/mlir_to_bef.h"
#include "cpp/formats/bef/host/mlir_to_bef/stream_analysis.h"
#include "tests/cpp/formats/bef_translate/bef_test_reader.h"

namespace tri::bef {
namespace {

using Bytes = std::vector<uint8_t>;
using testing::BefSections;
using testing::read_function_index;
using testing::read_name_table;
using testing::read_sections;

Bytes translate(const std::string& source, bool optional_sections = true,
                const std::string& filename = "test.mlir") {
  MlirToBefOptions options;
  options.optional_sections = optional_sections;
  Result<Bytes> bef = mlir_to_bef(source, filename, options);
  EXPECT_TRUE(bef.ok()) << last_error_message();
  return bef.ok() ? bef.take() : Bytes();
}

void append(Bytes* out, std::initializer_list<uint8_t> bytes) {
  out->insert(out->end(), bytes.begin(), bytes.end());
}
void append_str(Bytes* out, const std::string& s) {
  out->insert(out->end(), s.begin(), s.end());
  out->push_back(0);
}
void append_u32s(Bytes* out, std::initializer_list<uint32_t> words) {
  for (uint32_t w : words) {
    for (int i = 0; i < 4; ++i) out->push_back(static_cast<uint8_t>(w >> (8 * i)));
  }
}

const char kWorkedExample[] =
    "func.func @basic() -> i32 {\n"
    "  %x = tfrt.constant.i32 42\n"
    "  %c = tfrt.constant.i32 1\n"
    "  %y = tfrt.add.i32 %x, %c\n"
    "  tfrt.return %y : i32\n"
    "}\n";

// FORMAT-NOTES §6, which was derived from the encoder logic but not checked
// against tfrt_translate. TFRT's code agrees with it in every field the notes
// give; the stream ids, which the notes leave out, come from TFRT's
// StreamAnalysis (the second constant starts its own stream).
TEST(BefTranslateWorkedExample, MatchesFormatNotesSection6) {
  Bytes expected;
  append(&expected, {0x0B, 0xEF, 0x00});
  // Strings: basic@0 i32@6 tfrt.add.i32@10 tfrt.constant.i32@23 (41 bytes).
  append(&expected, {0x00, 41 << 1});
  append_str(&expected, "basic");
  append_str(&expected, "i32");
  append_str(&expected, "tfrt.add.i32");
  append_str(&expected, "tfrt.constant.i32");
  // Attributes: 42 at 0, 1 at 4 (payload starts at 48, already 4-aligned).
  append(&expected, {0x01, 8 << 1});
  append_u32s(&expected, {42, 1});
  // Kernels [constant.i32, add.i32], Types [i32].
  append(&expected, {0x02, 3 << 1, 2, 23, 10});
  append(&expected, {0x03, 2 << 1, 1, 6});
  // FunctionIndex: one async function at 0 named "basic", () -> (i32).
  append(&expected, {0x04, 7 << 1, 1, 0, 0, 0, 0, 1, 0});
  // Functions: 180 bytes; the payload would start at 77, so the aligned form
  // (alignment 4, two padding bytes) puts it at 80.
  append(&expected, {0x05, 0x82, 0x69, 4, 0xCC, 0xCC});
  append(&expected, {0,                 // location offset of the function
                     3, 1, 1, 1,        // registers and use counts
                     4,                 // kernels, pseudo kernel included
                     0, 0, 0,           // k0: offset 0, 0 operands, stream 0
                     40, 0, 0,          // k1
                     80, 0, 1,          // k2
                     120, 2, 0,         // k3
                     2,                 // result register
                     0xCC});            // pad to 4
  append_u32s(&expected, {0xABABABAB, 0xCDCDCDCD, 0, 0, 0, 1, 2, 3, 1, 2});
  append_u32s(&expected, {0, 4, 0, 1, 0, 1, 1, 0, 0, 3});
  append_u32s(&expected, {0, 8, 0, 1, 0, 1, 1, 4, 1, 3});
  append_u32s(&expected, {1, 12, 2, 0, 0, 1, 0, 0, 1, 2});
  // LocationStrings and Locations: the function (at `func.func`), then each
  // kernel, located at its op name as MLIR's parser locates ops.
  append(&expected, {0x06, 13 << 1});
  append_str(&expected, "example.mlir");
  append(&expected, {0x07, 16 << 1, 1, 0, 1, 1, 1, 0, 2, 8, 1, 0, 3, 8, 1, 0, 4, 8});

  EXPECT_EQ(translate(kWorkedExample, /*optional_sections=*/false, "example.mlir"), expected);
}

TEST(BefTranslateWorkedExample, OptionalSections) {
  const Bytes bef = translate(kWorkedExample);
  const BefSections s = read_sections(bef);
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.ids, (std::vector<uint8_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  // "value" joins the strings: basic i32 tfrt.add.i32 tfrt.constant.i32 value@41.
  EXPECT_EQ(s.payload.at(0).size(), 47u);
  EXPECT_EQ(s.payload.at(8), (Bytes{2, 0, 8, 4, 8}));       // (offset, I32) x 2
  EXPECT_EQ(s.payload.at(9), (Bytes{1, 4, 41, 41}));        // 4 kernels, 2 names
  EXPECT_EQ(s.payload.at(10), (Bytes{1, 3, 0, 0, 0}));      // 3 registers of i32
}

const char kOrdering[] = R"(
func.func @zeta() -> !tfrt.chain {
  %ch = tfrt.new.chain
  tfrt.return %ch : !tfrt.chain
}

func.func @alpha(%c: i1, %x: i32) -> i32 {
  %r = tfrt.if %c, %x : (i32) -> (i32) {
    %y = "inner.op"(%x) : (i32) -> f32
    %z = tfrt.repeat.i32 %x, %y : f32 {
      %w = "deep.op"(%y) : (f32) -> f32
      tfrt.return %w : f32
    }
    tfrt.return %x : i32
  } else {
    %k = "else.op"() : () -> i64
    tfrt.return %x : i32
  }
  %s = "after.op"(%r) {b = 2 : i32, a = "x"} : (i32) -> i32
  tfrt.return %s : i32
}
)";

TEST(BefTranslateOrdering, StringsAreSortedByBytes) {
  const BefSections s = read_sections(translate(kOrdering));
  ASSERT_TRUE(s.ok);
  std::vector<std::string> strings;
  for (const auto& [offset, str] : testing::read_strings(s.payload.at(0))) strings.push_back(str);
  EXPECT_EQ(strings, (std::vector<std::string>{
                         "", "!tfrt.chain", "a", "after.op", "alpha", "b", "deep.op", "else.op",
                         "f32", "i1", "i32", "i64", "inner.op", "tfrt.if", "tfrt.new.chain",
                         "tfrt.repeat.i32", "zeta"}));
}

TEST(BefTranslateOrdering, KernelsAndTypesInPostOrder) {
  const BefSections s = read_sections(translate(kOrdering));
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(read_name_table(s, 2),
            (std::vector<std::string>{"tfrt.new.chain", "inner.op", "deep.op", "tfrt.repeat.i32",
                                      "else.op", "tfrt.if", "after.op"}));
  // Op results as visited, region argument types when the owner is visited,
  // function arguments last.
  EXPECT_EQ(read_name_table(s, 3),
            (std::vector<std::string>{"!tfrt.chain", "f32", "i64", "i32", "i1"}));
}

TEST(BefTranslateOrdering, RegionFunctionsPrecedeTheirOwner) {
  const BefSections s = read_sections(translate(kOrdering));
  ASSERT_TRUE(s.ok);
  const std::vector<testing::IndexEntry> index = read_function_index(s);
  ASSERT_EQ(index.size(), 5u);
  EXPECT_EQ(index[0].name, "zeta");
  EXPECT_EQ(index[1].name, "");  // the repeat body, nested deepest
  EXPECT_EQ(index[1].inputs, (std::vector<std::string>{"f32"}));
  EXPECT_EQ(index[1].results, (std::vector<std::string>{"f32"}));
  EXPECT_EQ(index[2].name, "");  // then
  EXPECT_EQ(index[3].name, "");  // else
  EXPECT_EQ(index[3].inputs, (std::vector<std::string>{"i32"}));
  EXPECT_EQ(index[4].name, "alpha");
  EXPECT_EQ(index[4].inputs, (std::vector<std::string>{"i1", "i32"}));
  EXPECT_EQ(index[4].results, (std::vector<std::string>{"i32"}));
  for (const testing::IndexEntry& e : index) EXPECT_EQ(e.kind, 0);
  // Bodies follow the index order.
  for (size_t i = 1; i < index.size(); ++i) EXPECT_GT(index[i].offset, index[i - 1].offset);
}

TEST(BefTranslateOrdering, AttributesAreUniquedInFirstUseOrder) {
  const char source[] = R"(
func.func @f() {
  "a.op"() {z = 7 : i32, y = dense<1> : tensor<2xi32>} : () -> ()
  "b.op"() {v = dense<[1, 1]> : tensor<2xi32>, w = 7 : i32, x = 7 : i64} : () -> ()
  tfrt.return
}
)";
  const BefSections s = read_sections(translate(source));
  ASSERT_TRUE(s.ok);
  // y (dense, 8-aligned at 4) first, then z; b.op reuses both, adds 7 : i64.
  const Bytes& types = s.payload.at(8);
  EXPECT_EQ(types[0], 3);
  const Bytes& attrs = s.payload.at(1);
  // 4 pad + 36 dense (28 header + 8 data) + 4 i32 + 4 pad + 8 i64.
  EXPECT_EQ(attrs.size(), 56u);
  EXPECT_EQ(s.payload.at(1)[4], 8);  // dense base: alignment 8
}

TEST(BefTranslateOrdering, NativeAndSyncFunctionKinds) {
  const char source[] = R"(
func.func private @native_add(%a: i32, %b: i32) -> i32 attributes {tfrt.native}
func.func @sync_fn() -> i32 attributes {tfrt.sync} {
  %c = tfrt.constant.i32 1
  tfrt.return %c : i32
}
func.func @caller() -> i32 {
  %a = tfrt.constant.i32 1
  %r = tfrt.call @native_add(%a, %a) : (i32, i32) -> i32
  tfrt.return %r : i32
}
)";
  const BefSections s = read_sections(translate(source));
  ASSERT_TRUE(s.ok);
  const std::vector<testing::IndexEntry> index = read_function_index(s);
  ASSERT_EQ(index.size(), 3u);
  EXPECT_EQ(index[0].kind, 1);
  EXPECT_EQ(index[0].offset, 0u);  // the section size at that point
  EXPECT_EQ(index[0].inputs, (std::vector<std::string>{"i32", "i32"}));
  EXPECT_EQ(index[1].kind, 2);
  EXPECT_EQ(index[2].kind, 0);
  // AttributeNames and RegisterTypes count the native function but hold
  // nothing for it.
  EXPECT_EQ(s.payload.at(9)[0], 3);
  EXPECT_EQ(s.payload.at(10)[0], 3);
}

TEST(BefTranslateOrdering, EmptyModuleHasEveryRequiredSection) {
  const Bytes bef = translate("// nothing here\n");
  EXPECT_EQ(bef, (Bytes{0x0B, 0xEF, 0x00, 0, 0, 1, 0, 2, 2, 0, 3, 2, 0, 4, 2, 0, 5, 0, 8, 2, 0, 9,
                        2, 0, 10, 2, 0}));
}

TEST(BefTranslateOrdering, ExplicitModuleWrapperAndAliases) {
  const char wrapped[] = R"(
!chain = !tfrt.chain
module attributes {tfrt.cost_threshold = 1 : i64} {
  func.func @f() -> !chain {
    %ch = tfrt.new.chain
    tfrt.return %ch : !chain
  }
}
)";
  const BefSections s = read_sections(translate(wrapped));
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(read_name_table(s, 3), (std::vector<std::string>{"!tfrt.chain"}));
}

TEST(BefTranslateStreams, WorkedExampleStreams) {
  // %x, %c (no operands), add(%x, %c), return(add).
  std::vector<StreamOp> ops(4);
  ops[2].operand_defs = {0, 1};
  ops[2].operand_is_chain = {false, false};
  ops[3].operand_defs = {2};
  ops[3].operand_is_chain = {false};
  const StreamAssignment a = analyze_streams(ops, StreamOptions());
  EXPECT_EQ(a.root_stream, 0);
  EXPECT_EQ(a.op_streams, (std::vector<int>{0, 1, 0, 0}));
}

TEST(BefTranslateStreams, CheapStreamsMergeBelowTheThreshold) {
  std::vector<StreamOp> ops(3);  // three ops of cost 1 without operands
  StreamOptions options;
  options.cost_threshold = 10;
  const StreamAssignment merged = analyze_streams(ops, options);
  EXPECT_EQ(merged.root_stream, 2);
  EXPECT_EQ(merged.op_streams, (std::vector<int>{2, 2, 2}));
  const StreamAssignment apart = analyze_streams(ops, StreamOptions());
  EXPECT_EQ(apart.op_streams, (std::vector<int>{2, 1, 0}));
}

TEST(BefTranslateStreams, InterDependentMergingRuns) {
  // a, b without operands; c(a, b); d(b); return(c, d).
  std::vector<StreamOp> ops(5);
  ops[2].operand_defs = {0, 1};
  ops[2].operand_is_chain = {false, false};
  ops[3].operand_defs = {1};
  ops[3].operand_is_chain = {false};
  ops[4].operand_defs = {2, 3};
  ops[4].operand_is_chain = {false, false};
  for (StreamOp& op : ops) op.cost = 1;
  StreamOptions options;
  options.cost_threshold = 3;
  options.merge_inter_dependent_streams = true;
  const StreamAssignment a = analyze_streams(ops, options);
  ASSERT_EQ(a.op_streams.size(), 5u);
  for (int id : a.op_streams) EXPECT_GE(id, 0);
}

TEST(BefTranslateStreams, ModuleCostThresholdReachesTheKernelTable) {
  const char fixed[] = R"(
module attributes {tfrt.cost_threshold = 100 : i64} {
  func.func @f() {
    %a = "tfrt.merge.chains"() : () -> !tfrt.chain
    %b = "tfrt.merge.chains"() : () -> !tfrt.chain
    tfrt.return
  }
}
)";
  const BefSections s = read_sections(translate(fixed, false));
  ASSERT_TRUE(s.ok);
  // Kernel table after loc(1) regs(1+2) nk(1): pseudo, a, b, all in the
  // stream everything cheap merged into.
  const Bytes& f = s.payload.at(5);
  EXPECT_EQ(f[4], 3);  // kernels
  // merge.chains and return cost 1: all three cheap streams merge into the
  // first child stream of the root.
  EXPECT_EQ(f[7], 2);
  EXPECT_EQ(f[7], f[10]);
  EXPECT_EQ(f[10], f[13]);
}

}  // namespace
}  // namespace tri::bef
