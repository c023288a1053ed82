// bef_function_graph: a BEF function as the inspectors' graph. Kernels,
// register edges, region functions as shared subgraphs, and attributes
// decoded by the optional AttributeTypes/AttributeNames sections; and files
// whose optional sections are missing, cut short or garbage still give a
// graph, with plainer names, instead of crashing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "cpp/formats/bef/bef_file.h"
#include "cpp/formats/bef/host/bef_graph.h"
#include "tests/cpp/bef/bef_test_util.h"
#include "tests/cpp/support/shared_corpus.h"

namespace tri::bef {
namespace {

using nlohmann::json;

// The file's bytes (8-aligned, as BEF requires) and the index memory must
// outlive the BefFile.
struct Opened {
  explicit Opened(const std::vector<uint8_t>& bytes)
      : words((bytes.size() + 7) / 8 + 1),
        memory(bytes.size() * kIndexBytesPerFileByte + kIndexBytesBase),
        allocator(memory.data(), memory.size()), file(open(bytes)) {}

  Result<BefFile> open(const std::vector<uint8_t>& bytes) {
    if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
    const uint8_t* data = reinterpret_cast<const uint8_t*>(words.data());
    return BefFile::open(Span<const uint8_t>(data, bytes.size()), allocator);
  }

  std::vector<uint64_t> words;
  std::vector<uint8_t> memory;
  MemoryAllocator allocator;
  Result<BefFile> file;
};

std::vector<uint8_t> translate(const std::string& mlir, bool optional_sections = true) {
  MlirToBefOptions options;
  options.optional_sections = optional_sections;
  Result<std::vector<uint8_t>> bytes = mlir_to_bef(mlir, "graph.mlir", options);
  EXPECT_TRUE(bytes.ok()) << last_error_message();
  return bytes.ok() ? bytes.take() : std::vector<uint8_t>{};
}

const char* const kProgram = R"(
func.func @callee(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}

func.func @main(%cond: i1) -> i32 {
  %a = tfrt.constant.i32 41
  %b = tfrt.call @callee(%a) : (i32) -> (i32)
  %c = tfrt.call @callee(%b) : (i32) -> (i32)
  %r = tfrt.if %cond, %c : (i32) -> (i32) {
    tfrt.return %c : i32
  } else {
    %d = tfrt.add.i32 %c, %c
    tfrt.return %d : i32
  }
  %s = "test.attrs"() {f = 2.5 : f32, i = -7 : i32, wide = 5000000000 : i64, flag = true,
                       s = "hello", arr = [1 : i32, 2 : i32, 3 : i32], types = [f64, f32],
                       d = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>,
                       big = dense<1> : tensor<4x8xi64>, t = f64,
                       sh = #corert.shape<2x?x3>, unranked = #corert.shape<*>,
                       agg = [1 : i32, "two", [3 : i32, 4 : i32]]} : () -> i32
  %ch = tfrt.new.chain
  tfrt.return %r : i32
}
)";

// Everything of a graph that is text from the file, dumped: nlohmann aborts
// on strings that are not UTF-8, so this proves they all are.
std::string dump_all(const host::MethodGraph& graph) {
  json out = {{"name", graph.name}, {"kind", graph.kind}};
  for (const host::GraphValue& v : graph.values) out["values"].push_back({v.name, v.kind});
  for (const host::GraphNode& n : graph.nodes) {
    out["nodes"].push_back({{"op", n.op}, {"attributes", n.attributes}, {"location", n.location}});
  }
  for (const host::MethodGraph& g : graph.subgraphs) out["subgraphs"].push_back(dump_all(g));
  return out.dump();
}

// Ports and subgraph indices name things that exist.
void expect_consistent(const host::MethodGraph& graph, size_t num_subgraphs) {
  for (int32_t v : graph.inputs) EXPECT_LT(static_cast<size_t>(v), graph.values.size());
  for (int32_t v : graph.outputs) EXPECT_LT(static_cast<size_t>(v), graph.values.size());
  for (const host::GraphNode& node : graph.nodes) {
    for (const host::GraphPort& p : node.inputs) {
      EXPECT_LT(static_cast<size_t>(p.value), graph.values.size());
    }
    for (const host::GraphPort& p : node.outputs) {
      EXPECT_LT(static_cast<size_t>(p.value), graph.values.size());
    }
    for (int32_t s : node.subgraphs) EXPECT_LT(static_cast<size_t>(s), num_subgraphs);
  }
  for (const host::MethodGraph& sub : graph.subgraphs) {
    EXPECT_TRUE(sub.subgraphs.empty()) << "subgraphs are flat, in the top-level graph only";
    expect_consistent(sub, num_subgraphs);
  }
}

// j[key] of a const object asserts when the key is missing; this says so instead.
json get(const json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() ? json("<missing " + std::string(key) + ">") : *it;
}

host::MethodGraph graph_of(const BefFile& file, const char* function) {
  const int64_t index = file.find_function(function);
  EXPECT_GE(index, 0) << function;
  Result<host::MethodGraph> graph =
      bef_function_graph(file, static_cast<uint32_t>(index), "graph.mlir");
  EXPECT_TRUE(graph.ok()) << last_error_message();
  return graph.ok() ? graph.take() : host::MethodGraph{};
}

const host::GraphNode* find_node(const host::MethodGraph& graph, const std::string& op,
                                 int nth = 0) {
  for (const host::GraphNode& node : graph.nodes) {
    if (node.op == op && nth-- == 0) return &node;
  }
  return nullptr;
}

TEST(BefGraph, KernelsAreNodesInOrderWithRegisterEdges) {
  Opened opened(translate(kProgram));
  ASSERT_TRUE(opened.file.ok()) << last_error_message();
  const host::MethodGraph graph = graph_of(*opened.file, "main");
  EXPECT_EQ(graph.name, "main");
  EXPECT_EQ(graph.kind, "function");

  std::vector<std::string> ops;
  for (const host::GraphNode& node : graph.nodes) {
    EXPECT_EQ(node.kind, "kernel");
    ops.push_back(node.op);
  }
  EXPECT_EQ(ops, (std::vector<std::string>{"tfrt.constant.i32", "tfrt.call", "tfrt.call", "tfrt.if",
                                           "test.attrs", "tfrt.new.chain"}));

  // Registers: the argument first, then each op's results in op order.
  ASSERT_EQ(graph.values.size(), 7u);
  EXPECT_EQ(graph.values[0].name, "%0");
  EXPECT_EQ(graph.values[0].kind, "i1");
  EXPECT_EQ(graph.values[1].kind, "i32");
  EXPECT_EQ(graph.values[6].kind, "!tfrt.chain");
  EXPECT_EQ(graph.inputs, std::vector<int32_t>{0});
  ASSERT_EQ(graph.outputs.size(), 1u);

  // %a → call → call → if (with %cond) → the function's result.
  const host::GraphNode& constant = graph.nodes[0];
  const host::GraphNode& call1 = graph.nodes[1];
  const host::GraphNode& call2 = graph.nodes[2];
  const host::GraphNode& branch = graph.nodes[3];
  ASSERT_EQ(constant.outputs.size(), 1u);
  ASSERT_EQ(call1.inputs.size(), 1u);
  EXPECT_EQ(call1.inputs[0].value, constant.outputs[0].value);
  EXPECT_EQ(call2.inputs[0].value, call1.outputs[0].value);
  ASSERT_EQ(branch.inputs.size(), 2u);
  EXPECT_EQ(branch.inputs[0].value, graph.inputs[0]);
  EXPECT_EQ(branch.inputs[1].value, call2.outputs[0].value);
  EXPECT_EQ(graph.outputs[0], branch.outputs[0].value);
  EXPECT_EQ(constant.attributes, json({{"value", 41}}));
  EXPECT_EQ(constant.location.rfind("graph.mlir:", 0), 0u) << constant.location;
  EXPECT_EQ(constant.location, "graph.mlir:9:8");
  expect_consistent(graph, graph.subgraphs.size());
}

TEST(BefGraph, RegionFunctionsAreSubgraphsListedOnce) {
  Opened opened(translate(kProgram));
  ASSERT_TRUE(opened.file.ok()) << last_error_message();
  const host::MethodGraph graph = graph_of(*opened.file, "main");
  const host::GraphNode& call1 = graph.nodes[1];
  const host::GraphNode& call2 = graph.nodes[2];
  const host::GraphNode& branch = graph.nodes[3];

  // Both calls share @callee's one subgraph; tfrt.if has then and else.
  ASSERT_EQ(graph.subgraphs.size(), 3u);
  ASSERT_EQ(call1.subgraphs.size(), 1u);
  EXPECT_EQ(call1.subgraphs, call2.subgraphs);
  ASSERT_EQ(branch.subgraphs.size(), 2u);
  EXPECT_NE(branch.subgraphs[0], branch.subgraphs[1]);
  EXPECT_NE(branch.subgraphs[0], call1.subgraphs[0]);

  const host::MethodGraph& callee = graph.subgraphs[call1.subgraphs[0]];
  EXPECT_EQ(callee.name, "callee");
  ASSERT_EQ(callee.nodes.size(), 2u);
  EXPECT_EQ(callee.nodes[1].op, "tfrt.add.i32");
  EXPECT_EQ(callee.nodes[1].inputs[0].value, callee.inputs[0]);

  const host::MethodGraph& then_fn = graph.subgraphs[branch.subgraphs[0]];
  const host::MethodGraph& else_fn = graph.subgraphs[branch.subgraphs[1]];
  EXPECT_EQ(then_fn.name.rfind("main/region", 0), 0u) << then_fn.name;
  EXPECT_EQ(else_fn.name.rfind("main/region", 0), 0u) << else_fn.name;
  EXPECT_NE(then_fn.name, else_fn.name);
  EXPECT_TRUE(then_fn.nodes.empty());
  ASSERT_EQ(else_fn.nodes.size(), 1u);
  EXPECT_EQ(else_fn.nodes[0].op, "tfrt.add.i32");
  EXPECT_EQ(else_fn.outputs[0], else_fn.nodes[0].outputs[0].value);
  expect_consistent(graph, graph.subgraphs.size());
}

TEST(BefGraph, RecursionAndNestedRegionsListEachFunctionOnce) {
  Opened opened(translate(R"(
func.func @down(%n: i32) -> i32 {
  %r = tfrt.call @down(%n) : (i32) -> (i32)
  tfrt.return %r : i32
}
func.func @outer() -> i32 {
  %n = tfrt.constant.i32 3
  %v = tfrt.constant.i32 1
  %r = tfrt.repeat.i32 %n, %v : i32 {
    %w = tfrt.call @down(%v) : (i32) -> (i32)
    %x = tfrt.call @down(%w) : (i32) -> (i32)
    tfrt.return %x : i32
  }
  tfrt.return %r : i32
}
)"));
  ASSERT_TRUE(opened.file.ok()) << last_error_message();

  const host::MethodGraph down = graph_of(*opened.file, "down");
  ASSERT_EQ(down.subgraphs.size(), 1u);  // itself, once
  EXPECT_EQ(down.subgraphs[0].name, "down");
  EXPECT_EQ(down.nodes[0].subgraphs, std::vector<int32_t>{0});
  EXPECT_EQ(down.subgraphs[0].nodes[0].subgraphs, std::vector<int32_t>{0});

  const host::MethodGraph outer = graph_of(*opened.file, "outer");
  ASSERT_EQ(outer.subgraphs.size(), 2u);  // the repeat body, then @down
  const host::GraphNode* repeat = find_node(outer, "tfrt.repeat.i32");
  ASSERT_NE(repeat, nullptr);
  ASSERT_EQ(repeat->subgraphs, std::vector<int32_t>{0});
  const host::MethodGraph& body = outer.subgraphs[0];
  EXPECT_EQ(body.name.rfind("outer/region", 0), 0u) << body.name;
  ASSERT_EQ(body.nodes.size(), 2u);
  EXPECT_EQ(body.nodes[0].subgraphs, std::vector<int32_t>{1});
  EXPECT_EQ(body.nodes[1].subgraphs, std::vector<int32_t>{1});
  EXPECT_EQ(outer.subgraphs[1].name, "down");
  EXPECT_EQ(outer.subgraphs[1].nodes[0].subgraphs, std::vector<int32_t>{1});
  expect_consistent(outer, outer.subgraphs.size());

  // A region function asked for directly has no user to be named after.
  const uint32_t region = 1;  // post-order: down, the repeat body, outer
  ASSERT_EQ(opened.file->function(region).name[0], '\0');
  Result<host::MethodGraph> alone = bef_function_graph(*opened.file, region, nullptr);
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->name, "function 1");

  Result<host::MethodGraph> missing = bef_function_graph(*opened.file, 3, "x.bef");
  ASSERT_FALSE(missing.ok());
  EXPECT_STREQ(last_error_message(), "x.bef: BEF function 3 does not exist (the file has 3)");
}

TEST(BefGraph, AttributesAreDecodedByTypeAndNamed) {
  Opened opened(translate(kProgram));
  ASSERT_TRUE(opened.file.ok()) << last_error_message();
  const host::MethodGraph graph = graph_of(*opened.file, "main");
  const host::GraphNode* node = find_node(graph, "test.attrs");
  ASSERT_NE(node, nullptr);
  const json& a = node->attributes;
  EXPECT_EQ(a.size(), 13u) << a.dump();
  EXPECT_EQ(get(a, "f"), 2.5);
  EXPECT_EQ(get(a, "i"), -7);
  EXPECT_EQ(get(a, "wide"), int64_t{5000000000});
  EXPECT_EQ(get(a, "flag"), true);
  EXPECT_EQ(get(a, "s"), "hello");
  EXPECT_EQ(get(a, "arr"), json({1, 2, 3}));
  EXPECT_EQ(get(a, "types"), json({"f64", "f32"}));
  EXPECT_EQ(get(a, "t"), "f64");
  // Dense values are the file's constant tensors: each names its weight.
  json d = get(a, "d");
  json big = get(a, "big");
  const std::string d_weight = d.value("weight", "");
  const std::string big_weight = big.value("weight", "");
  d.erase("weight");
  big.erase("weight");
  EXPECT_EQ(d, json({{"dtype", "f32"}, {"shape", {2, 2}}, {"values", {1.0, 2.0, 3.0, 4.0}}}));
  EXPECT_EQ(big, json({{"dtype", "i64"}, {"shape", {4, 8}}, {"count", 32}}));
  const std::vector<host::WeightInfo> weights = bef_dense_weights(*opened.file);
  ASSERT_EQ(weights.size(), 2u);
  for (const host::WeightInfo& w : weights) {
    EXPECT_EQ(w.source, "attribute");
    if (w.name == d_weight) {
      EXPECT_EQ(w.dtype, "float32");
      EXPECT_EQ(w.shape, std::vector<int64_t>({2, 2}));
      ASSERT_EQ(w.nbytes, 16u);
      float values[4];
      std::memcpy(values, w.data, sizeof(values));
      EXPECT_EQ(values[3], 4.0f);
    } else {
      EXPECT_EQ(w.name, big_weight);
      EXPECT_EQ(w.dtype, "int64");
      EXPECT_EQ(w.nbytes, 32u * 8u);
    }
  }
  EXPECT_EQ(get(a, "sh"), json({{"shape", {2, -1, 3}}}));
  EXPECT_EQ(get(a, "unranked"), json({{"shape", nullptr}}));
  EXPECT_EQ(get(a, "agg"), json::parse(R"([1, "two", [3, 4]])"));
  EXPECT_FALSE(dump_all(graph).empty());
}

TEST(BefGraph, DeepAggregatesAreCutOff) {
  std::string nested = "[1 : i32]";
  for (int i = 0; i < 12; ++i) nested = "[" + nested + ", \"x\"]";
  Opened opened(translate("func.func @f() {\n  \"test.deep\"() {v = " + nested +
                          "} : () -> ()\n  tfrt.return\n}\n"));
  ASSERT_TRUE(opened.file.ok()) << last_error_message();
  const host::MethodGraph graph = graph_of(*opened.file, "f");
  ASSERT_EQ(graph.nodes.size(), 1u);
  const json top = get(graph.nodes[0].attributes, "v");
  const json* v = &top;
  int depth = 0;
  while (v->is_array()) {
    ASSERT_EQ(v->size(), 2u);
    EXPECT_EQ((*v)[1], "x");
    v = &(*v)[0];
    ++depth;
  }
  EXPECT_EQ(depth, 8);
  EXPECT_TRUE(v->contains("offset")) << v->dump();
  EXPECT_EQ(get(*v, "bef_type"), 30);  // an aggregate, not opened
}

// The graph's attribute keys, values and register kinds with the optional
// sections gone: "attr<i>", raw offsets, "".
void expect_fallbacks(const host::MethodGraph& graph, bool names, bool types, bool kinds) {
  const host::GraphNode* node = find_node(graph, "test.attrs");
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->attributes.size(), 13u);
  for (const auto& [key, value] : node->attributes.items()) {
    if (!names) EXPECT_EQ(key.rfind("attr", 0), 0u) << key;
    if (!types) {
      EXPECT_TRUE(value.is_object() && value.size() == 1 && value.contains("offset"))
          << key << ": " << value.dump();
    }
  }
  if (names) EXPECT_TRUE(node->attributes.contains("agg"));
  if (types && names) EXPECT_EQ(get(node->attributes, "s"), "hello");
  for (const host::GraphValue& v : graph.values) {
    if (!kinds) EXPECT_EQ(v.kind, "") << v.name;
  }
  if (kinds) EXPECT_EQ(graph.values[0].kind, "i1");
}

TEST(BefGraph, WithoutOptionalSectionsNamesFallBack) {
  Opened opened(translate(kProgram, /*optional_sections=*/false));
  ASSERT_TRUE(opened.file.ok()) << last_error_message();
  EXPECT_FALSE(opened.file->has_section(SectionId::AttributeNames));
  const host::MethodGraph graph = graph_of(*opened.file, "main");
  EXPECT_EQ(graph.nodes.size(), 6u);
  EXPECT_EQ(graph.subgraphs.size(), 3u);
  expect_fallbacks(graph, false, false, false);
  // Attributes are in name order either way: attr0 is "agg".
  const host::GraphNode* node = find_node(graph, "test.attrs");
  EXPECT_TRUE(get(node->attributes, "attr0").contains("offset"));
  EXPECT_EQ(graph.nodes[0].attributes.begin().key(), "attr0");
}

// Sections of a file: id, where the payload starts and how long it is.
struct SectionSpan {
  uint8_t id;
  size_t header;
  size_t payload;
  size_t size;
};

std::vector<SectionSpan> section_spans(const std::vector<uint8_t>& bef) {
  std::vector<SectionSpan> out;
  size_t at = 3;
  while (at < bef.size()) {
    SectionSpan s{bef[at], at, 0, 0};
    ++at;
    uint64_t value = 0;
    for (;;) {
      const uint8_t byte = bef[at++];
      value = (value << 7) | (byte & 0x7F);
      if ((byte & 0x80) == 0) break;
    }
    if (value & 1) {  // aligned form: alignment byte, padding to it (file offsets: 8-aligned load)
      const size_t alignment = bef[at++];
      at = (at + alignment - 1) / alignment * alignment;
    }
    s.payload = at;
    s.size = static_cast<size_t>(value >> 1);
    at += s.size;
    out.push_back(s);
  }
  return out;
}

void emit_vbr(std::vector<uint8_t>* out, uint64_t value) {
  uint8_t groups[10];
  int n = 0;
  do {
    groups[n++] = value & 0x7F;
    value >>= 7;
  } while (value != 0);
  while (n > 1) out->push_back(static_cast<uint8_t>(groups[--n] | 0x80));
  out->push_back(groups[0]);
}

// `bef` with its trailing sections 8, 9 and 10 replaced by `optional`
// (id → payload; a missing id drops that section).
using Sections = std::vector<std::pair<uint8_t, std::vector<uint8_t>>>;

std::vector<uint8_t> with_optional(const std::vector<uint8_t>& bef, const Sections& optional) {
  size_t cut = bef.size();
  for (const SectionSpan& s : section_spans(bef)) {
    if (s.id >= 8 && s.header < cut) cut = s.header;
  }
  std::vector<uint8_t> out(bef.begin(), bef.begin() + cut);
  for (const auto& [id, payload] : optional) {
    out.push_back(id);
    emit_vbr(&out, uint64_t{payload.size()} << 1);
    out.insert(out.end(), payload.begin(), payload.end());
  }
  return out;
}

std::vector<uint8_t> payload_of(const std::vector<uint8_t>& bef, uint8_t id) {
  for (const SectionSpan& s : section_spans(bef)) {
    if (s.id != id) continue;
    return std::vector<uint8_t>(bef.begin() + s.payload, bef.begin() + s.payload + s.size);
  }
  ADD_FAILURE() << "no section " << int(id);
  return {};
}

TEST(BefGraph, TruncatedOptionalSectionsAreIgnored) {
  const std::vector<uint8_t> bef = translate(kProgram);
  const std::vector<uint8_t> types = payload_of(bef, 8);
  const std::vector<uint8_t> names = payload_of(bef, 9);
  const std::vector<uint8_t> registers = payload_of(bef, 10);
  {
    // Rebuilt whole, the sections still say everything.
    Opened opened(with_optional(bef, {{8, types}, {9, names}, {10, registers}}));
    ASSERT_TRUE(opened.file.ok()) << last_error_message();
    expect_fallbacks(graph_of(*opened.file, "main"), true, true, true);
  }
  const auto cut = [](const std::vector<uint8_t>& v, size_t n) {
    return std::vector<uint8_t>(v.begin(), v.begin() + n);
  };
  for (size_t n = 0; n < types.size(); ++n) {
    Opened opened(with_optional(bef, {{8, cut(types, n)}, {9, names}, {10, registers}}));
    ASSERT_TRUE(opened.file.ok()) << last_error_message();
    SCOPED_TRACE("AttributeTypes cut to " + std::to_string(n));
    expect_fallbacks(graph_of(*opened.file, "main"), true, false, true);
  }
  for (size_t n = 0; n < names.size(); ++n) {
    Opened opened(with_optional(bef, {{8, types}, {9, cut(names, n)}, {10, registers}}));
    ASSERT_TRUE(opened.file.ok()) << last_error_message();
    SCOPED_TRACE("AttributeNames cut to " + std::to_string(n));
    expect_fallbacks(graph_of(*opened.file, "main"), false, true, true);
  }
  for (size_t n = 0; n < registers.size(); ++n) {
    Opened opened(with_optional(bef, {{8, types}, {9, names}, {10, cut(registers, n)}}));
    ASSERT_TRUE(opened.file.ok()) << last_error_message();
    SCOPED_TRACE("RegisterTypes cut to " + std::to_string(n));
    expect_fallbacks(graph_of(*opened.file, "main"), true, true, false);
  }
}

TEST(BefGraph, InconsistentOptionalSectionsAreIgnored) {
  const std::vector<uint8_t> bef = translate(kProgram);
  const std::vector<uint8_t> huge = {0x8F, 0xFF, 0xFF, 0xFF, 0x7F};  // 2^32 - 1
  {
    Opened opened(with_optional(bef, {{8, huge}, {9, huge}, {10, huge}}));
    ASSERT_TRUE(opened.file.ok()) << last_error_message();
    expect_fallbacks(graph_of(*opened.file, "main"), false, false, false);
  }
  {
    // One function too many, then the right tables: still dropped whole.
    std::vector<uint8_t> names = payload_of(bef, 9);
    std::vector<uint8_t> registers = payload_of(bef, 10);
    ++names[0];
    ++registers[0];
    Opened opened(with_optional(bef, {{8, payload_of(bef, 8)}, {9, names}, {10, registers}}));
    ASSERT_TRUE(opened.file.ok()) << last_error_message();
    expect_fallbacks(graph_of(*opened.file, "main"), false, true, false);
  }
  {
    // Every attribute typed as an aggregate, a dense or a string array:
    // whatever the bytes decode to, nothing is read out of bounds.
    for (uint32_t type : {30u, 28u, 27u, 16u, 144u, 153u, 137u, 999u}) {
      std::vector<uint8_t> types;
      const Opened original(bef);
      const uint32_t size = static_cast<uint32_t>(original.file->attributes().size());
      emit_vbr(&types, size);
      for (uint32_t offset = 0; offset < size; ++offset) {
        emit_vbr(&types, offset);
        emit_vbr(&types, type);
      }
      Opened opened(
          with_optional(bef, {{8, types}, {9, payload_of(bef, 9)}, {10, payload_of(bef, 10)}}));
      ASSERT_TRUE(opened.file.ok()) << last_error_message();
      // Attributes that fail to decode leave the caller's error state alone.
      fail(Error::Internal, "before %u", type);
      const host::MethodGraph graph = graph_of(*opened.file, "main");
      EXPECT_EQ(last_error_code(), Error::Internal);
      EXPECT_EQ(std::string(last_error_message()), "before " + std::to_string(type));
      EXPECT_EQ(graph.nodes.size(), 6u);
      EXPECT_FALSE(dump_all(graph).empty());
    }
  }
}

// `bef` with section `id`'s payload replaced. Attributes and Functions
// move, so they are written in the aligned form, which fits anywhere.
std::vector<uint8_t> with_section(const std::vector<uint8_t>& bef, uint8_t id,
                                  const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> out(bef.begin(), bef.begin() + 3);
  for (const SectionSpan& s : section_spans(bef)) {
    const std::vector<uint8_t> bytes =
        s.id == id ? payload
                   : std::vector<uint8_t>(bef.begin() + s.payload, bef.begin() + s.payload + s.size);
    const uint8_t alignment = s.id == 1 ? 8 : s.id == 5 ? 4 : 0;
    out.push_back(s.id);
    emit_vbr(&out, (uint64_t{bytes.size()} << 1) | (alignment != 0 ? 1 : 0));
    if (alignment != 0) {
      out.push_back(alignment);
      while (out.size() % alignment != 0) out.push_back(0xCC);
    }
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

void put_u32(std::vector<uint8_t>* out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*out)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// Aggregates refer to their elements by offset, so a small file can nest
// one that names the next 200 times, eight deep: 200^8 elements if printed.
// The decode budget stops that, and what is printed stays small.
TEST(BefGraph, FanOutAggregatesStayBounded) {
  const std::vector<uint8_t> bef = translate(
      "func.func @f() {\n  \"test.fan\"() {v = [1 : i32, \"x\"]} : () -> ()\n  tfrt.return\n}\n");
  uint32_t offset = 0;
  {
    Opened opened(bef);
    ASSERT_TRUE(opened.file.ok()) << last_error_message();
    offset = opened.file->function(0).body.kernel(1).attribute_offset(0);
  }
  constexpr uint32_t kFan = 200, kLevels = 9;
  const uint32_t level_size = (12 + 4 * kFan + 4 + 7) / 8 * 8;  // header, table, tag byte
  std::vector<uint8_t> attributes(offset + level_size * kLevels + 8, 0xCC);
  for (uint32_t level = 0; level < kLevels; ++level) {
    const size_t base = offset + size_t{level} * level_size;
    attributes[base] = 4;  // alignment
    attributes[base + 1] = 0;
    attributes[base + 2] = attributes[base + 3] = 0;
    put_u32(&attributes, base + 4, 12 + 4 * kFan);
    put_u32(&attributes, base + 8, kFan);
    for (uint32_t i = 0; i < kFan; ++i) put_u32(&attributes, base + 12 + 4 * i, level_size);
    attributes[base + level_size - 1] = level + 1 < kLevels ? 30 : 8;  // the next one's tag
  }
  Opened opened(with_section(bef, 1, attributes));
  ASSERT_TRUE(opened.file.ok()) << last_error_message();
  const host::MethodGraph graph = graph_of(*opened.file, "f");
  ASSERT_EQ(graph.nodes.size(), 1u);
  const json v = get(graph.nodes[0].attributes, "v");
  ASSERT_TRUE(v.is_array()) << v.dump().substr(0, 200);
  EXPECT_EQ(v.size(), kFan);
  EXPECT_TRUE(v[0].is_array());
  EXPECT_TRUE(v.back().is_null()) << "the budget ran out before the last element";
  EXPECT_LT(v.dump().size(), size_t{16} << 20);
}

TEST(BefGraph, StringsThatAreNotUtf8AreReplaced) {
  std::vector<uint8_t> bef = translate(kProgram);
  const uint8_t hello[] = {5, 0, 0, 0, 'h', 'e', 'l', 'l', 'o'};
  const auto at = std::search(bef.begin(), bef.end(), std::begin(hello), std::end(hello));
  ASSERT_NE(at, bef.end());
  at[4] = 0xFF;
  at[5] = 0xC0;
  at[6] = 0x80;  // an overlong NUL
  Opened opened(bef);
  ASSERT_TRUE(opened.file.ok()) << last_error_message();
  const host::MethodGraph graph = graph_of(*opened.file, "main");
  EXPECT_EQ(get(find_node(graph, "test.attrs")->attributes, "s"),
            "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDlo");
  EXPECT_FALSE(dump_all(graph).empty());
}

// Random edits anywhere past the required tables' headers: whatever still
// opens gives a graph for every function, and its text dumps as JSON.
TEST(BefGraph, MutatedFilesGiveGraphsOrFailToOpen) {
  const std::vector<uint8_t> bef = translate(kProgram);
  std::vector<SectionSpan> targets;
  for (const SectionSpan& s : section_spans(bef)) {
    if (s.id == 0 || s.id == 1 || s.id >= 6) targets.push_back(s);
  }
  std::mt19937 rng(11);
  int opened_count = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> m = bef;
    const SectionSpan& s = targets[rng() % targets.size()];
    if (s.size == 0) continue;
    for (int e = 1 + static_cast<int>(rng() % 4); e > 0; --e) {
      const size_t at = s.payload + rng() % s.size;
      switch (rng() % 3) {
        case 0: m[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
        case 1: m[at] = static_cast<uint8_t>(rng()); break;
        default:
          for (size_t k = at; k < s.payload + s.size && k < at + 5; ++k) m[k] = 0xFF;
      }
    }
    Opened opened(m);
    if (!opened.file.ok()) continue;
    ++opened_count;
    for (uint32_t f = 0; f < opened.file->num_functions(); ++f) {
      Result<host::MethodGraph> graph = bef_function_graph(*opened.file, f, "m.bef");
      ASSERT_TRUE(graph.ok()) << last_error_message();
      expect_consistent(*graph, graph->subgraphs.size());
      EXPECT_FALSE(dump_all(*graph).empty());
    }
  }
  EXPECT_GT(opened_count, 1000);
}

TEST(BefGraph, EveryCorpusFunctionHasANodePerKernel) {
  TRI_REQUIRE_SHARED();
  const auto corpus = testing::translated_corpus();
  int functions = 0;
  for (const auto& [path, bef] : corpus) {
    SCOPED_TRACE(path);
    Opened opened(bef);
    ASSERT_TRUE(opened.file.ok()) << last_error_message();
    const BefFile& file = *opened.file;
    for (uint32_t f = 0; f < file.num_functions(); ++f) {
      Result<host::MethodGraph> graph = bef_function_graph(file, f, path.c_str());
      ASSERT_TRUE(graph.ok()) << last_error_message();
      const FunctionEntry& function = file.function(f);
      const size_t kernels =
          function.kind == FunctionKind::Native ? 0 : function.body.kernels.size() - 1;
      EXPECT_EQ(graph->nodes.size(), kernels) << "function " << f;
      EXPECT_EQ(graph->values.size(), function.body.num_registers);
      EXPECT_LE(graph->subgraphs.size(), file.num_functions());
      expect_consistent(*graph, graph->subgraphs.size());
      for (const host::GraphNode& node : graph->nodes) {
        EXPECT_FALSE(node.op.empty());
        for (const auto& [key, value] : node.attributes.items()) {
          EXPECT_FALSE(std::regex_match(key, std::regex("attr[0-9]+")))
              << node.op << " has an unnamed attribute";
          EXPECT_FALSE(value.is_object() && value.contains("offset"))
              << node.op << "." << key << " was not decoded: " << value.dump();
        }
      }
      EXPECT_FALSE(dump_all(*graph).empty());
      ++functions;
    }
  }
  EXPECT_GE(corpus.size(), 20u);
  EXPECT_GT(functions, 100);
}

}  // namespace
}  // namespace tri::bef
