// The PT2 front end's readers, each on its own: the ATen schema table
// against the kernel registry, the bounded pickle reader, the JSON helpers
// (both union styles, exact integers, Python's float spellings).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cpp/formats/pt2/host/aten_schema.h"
#include "cpp/formats/pt2/host/pt2_graph.h"
#include "cpp/formats/pt2/host/pt2_json.h"
#include "cpp/formats/pt2/host/sym_expr.h"
#include "cpp/formats/pt2/host/torch_pickle.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri::pt2 {
namespace {

ByteSpan bytes_of(const std::string& s) {
  return ByteSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

TEST(AtenSchema, ParsesDefaultsOutsAndReturns) {
  Result<AtenSchema> s = parse_schema(
      "aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
      "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)");
  ASSERT_TRUE(s.ok()) << last_error_message();
  EXPECT_EQ(s->name, "aten::max");
  EXPECT_EQ(s->overload, "dim_max");
  ASSERT_EQ(s->args.size(), 5u);
  EXPECT_EQ(s->args[2].default_text, "False");
  EXPECT_TRUE(s->args[3].is_out);
  EXPECT_EQ(s->args[3].type, "Tensor");
  EXPECT_EQ(s->num_outs(), 2u);
  EXPECT_TRUE(s->tuple_return);
  // A mutable input before '*' is not an out (running statistics).
  Result<AtenSchema> bn = parse_schema(
      "aten::f(Tensor(a!) running_mean, *, Tensor(b!) out) -> Tensor(b!)");
  ASSERT_TRUE(bn.ok());
  EXPECT_FALSE(bn->args[0].is_out);
  EXPECT_FALSE(bn->tuple_return);
  EXPECT_FALSE(parse_schema("not a schema").ok());
}

// Every out variant the table lowers to is a registered kernel, and the
// KernelCall built from its schema has the arity the kernel table declares.
TEST(AtenSchema, TableAgreesWithTheKernelRegistry) {
  EXPECT_EQ(unparsed_schemas(), 0u);
  size_t checked = 0;
  for (const OpLowering& l : all_lowerings()) {
    if (l.out.name.empty()) continue;
    const std::string name = l.out.full_name();
    const KernelEntry* kernel = find_kernel(name.c_str());
    ASSERT_NE(kernel, nullptr) << name;
    // ExecuTorch's emitter gives every out variant one returned value, even
    // one whose schema returns `()` (split_copy's Tensor[] out).
    bool has_outs = false;
    for (const SchemaArg& arg : l.out.args) has_outs = has_outs || arg.is_out;
    const size_t returns = has_outs ? 1 : (l.out.tuple_return ? (l.out.returns.empty() ? 0 : 1)
                                                              : l.out.returns.size());
    if (kernel->num_args >= 0) {
      EXPECT_EQ(l.out.args.size() + returns, static_cast<size_t>(kernel->num_args)) << name;
    }
    if (!l.functional.name.empty()) {
      // Each out argument the kernel reads comes from the functional op.
      for (const SchemaArg& arg : l.out.args) {
        if (!arg.is_out) EXPECT_NE(l.functional.arg(arg.name), nullptr) << name << " " << arg.name;
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 200u);
  ASSERT_NE(find_lowering("aten::add.Tensor"), nullptr);
  EXPECT_EQ(find_lowering("aten::add.Tensor")->out.full_name(), "aten::add.out");
  ASSERT_NE(find_lowering("aten::view"), nullptr);
  EXPECT_EQ(find_lowering("aten::view")->out.full_name(), "aten::view_copy.out");
  ASSERT_NE(find_lowering("aten::conv2d"), nullptr);
  EXPECT_TRUE(find_lowering("aten::conv2d")->out.name.empty());  // a rewrite
}

// Pickle bytes, protocol 2, written by hand.
std::string pickle(const std::string& body) { return std::string("\x80\x02", 2) + body + "."; }

TEST(TorchPickle, ReadsAStateDictOfTensors) {
  // OrderedDict([("w", _rebuild_tensor_v2(storage, 0, (2, 3), (3, 1), False, OrderedDict()))])
  const std::string storage = std::string("(X\x07\x00\x00\x00storage", 13) +
                              "ctorch\nFloatStorage\n" + std::string("X\x01\x00\x00\x00" "0", 6) +
                              std::string("X\x03\x00\x00\x00" "cpu", 8) + "K\x06tQ";
  const std::string body = std::string("ccollections\nOrderedDict\n)R(X\x01\x00\x00\x00w", 34) +
                           "ctorch._utils\n_rebuild_tensor_v2\n(" + storage + std::string("K\x00", 2) +
                           std::string("K\x02K\x03\x86K\x03K\x01\x86", 10) + "\x89" +
                           "ccollections\nOrderedDict\n)RtRu";
  Result<PickleRef> v = read_pickle(bytes_of(pickle(body)), "test");
  ASSERT_TRUE(v.ok()) << last_error_message();
  ASSERT_EQ((*v)->kind, PickleKind::Dict);
  ASSERT_EQ((*v)->entries.size(), 1u);
  EXPECT_EQ((*v)->entries[0].first->text, "w");
  const PickleValue& t = *(*v)->entries[0].second;
  ASSERT_EQ(t.kind, PickleKind::Tensor);
  EXPECT_EQ(t.tensor.dtype, ScalarType::Float);
  EXPECT_EQ(t.tensor.sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.tensor.strides, (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(t.tensor.storage->storage.key, "0");
  EXPECT_EQ(t.tensor.storage->storage.numel, 6);
}

TEST(TorchPickle, ReadsScalars) {
  // (LONG1 -2, BINFLOAT 1.5, True, None, BININT -7)
  const std::string body = std::string("(\x8a\x01\xfe", 4) +
                           std::string("G\x3f\xf8\x00\x00\x00\x00\x00\x00", 9) + "\x88N" +
                           std::string("J\xf9\xff\xff\xff", 5) + "t";
  Result<PickleRef> v = read_pickle(bytes_of(pickle(body)), "test");
  ASSERT_TRUE(v.ok()) << last_error_message();
  ASSERT_EQ((*v)->items.size(), 5u);
  EXPECT_EQ((*v)->items[0]->integer, -2);
  EXPECT_EQ((*v)->items[1]->number, 1.5);
  EXPECT_TRUE((*v)->items[2]->boolean);
  EXPECT_EQ((*v)->items[3]->kind, PickleKind::None);
  EXPECT_EQ((*v)->items[4]->integer, -7);
}

TEST(TorchPickle, RefusesWhatTorchSaveNeverWrites) {
  struct Case {
    std::string bytes;
    const char* message;
  };
  const Case cases[] = {
      {pickle("cos\nsystem\n"), "refuses the global os.system"},
      {pickle("ctorch._utils\n_rebuild_tensor_v2\n)R"), "too few arguments"},
      {pickle("t"), "needs a MARK"},
      {pickle("N0"), "unsupported opcode 0x30"},
      {std::string("\x80\x02(t", 4), "runs past the end"},
      {pickle("h\x05"), "never written"},
      {pickle("Nq\x09"), "memo index out of order"},
      {pickle(std::string("]q\x00h\x00" "a", 6)), "inside itself"},
      {pickle(std::string(200, '\x85') ), "empty stack"},
      {pickle("N" + std::string(100, '\x85')), "nest too deeply"},
      {pickle("\xff"), "unsupported opcode 0xff"},
      {pickle("}(K\x01u"), "odd number"},
      // A list already inside a tuple cannot change (no cycles).
      {pickle(std::string("]q\x00\x85h\x00K\x01" "a", 9)), "not a free list"},
  };
  for (const Case& c : cases) {
    Result<PickleRef> v = read_pickle(bytes_of(c.bytes), "test");
    EXPECT_FALSE(v.ok()) << c.message;
    if (v.ok()) continue;
    EXPECT_NE(std::string(last_error_message()).find(c.message), std::string::npos)
        << last_error_message();
  }
}

TEST(Pt2Json, ReadsBothUnionStyles) {
  const char* const tags[] = {"as_none", "as_int", "as_tensor", nullptr};
  Result<Json> single = parse_json(bytes_of("{\"as_int\": 3}"), "t");
  ASSERT_TRUE(single.ok());
  Result<UnionValue> a = read_union(*single, tags, "t");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->tag, "as_int");
  Result<Json> all = parse_json(bytes_of("{\"as_none\": null, \"as_int\": null, \"as_tensor\": {\"name\": \"x\"}}"), "t");
  ASSERT_TRUE(all.ok());
  Result<UnionValue> b = read_union(*all, tags, "t");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->tag, "as_tensor");
  Result<Json> none = parse_json(bytes_of("{\"as_none\": [], \"as_int\": null, \"as_tensor\": null}"), "t");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(read_union(*none, tags, "t")->tag, "as_none");
  Result<Json> two = parse_json(bytes_of("{\"as_none\": true, \"as_int\": 1}"), "t");
  EXPECT_FALSE(read_union(*two, tags, "t").ok());
  Result<Json> unknown = parse_json(bytes_of("{\"as_intt\": 1}"), "graph.nodes[0]");
  EXPECT_FALSE(read_union(*unknown, tags, "graph.nodes[0]").ok());
  EXPECT_NE(std::string(last_error_message()).find("graph.nodes[0]: unknown union key 'as_intt'"),
            std::string::npos)
      << last_error_message();
}

TEST(Pt2Json, KeepsIntegersExactAndReadsPythonFloats) {
  Result<Json> j = parse_json(
      bytes_of("[9223372036854775807, -9223372036854775808, 18446744073709551615, 1.5, "
               "\"Infinity\", \"-Infinity\", \"NaN\"]"),
      "t");
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(*as_int((*j)[0], "t"), INT64_MAX);
  EXPECT_EQ(*as_int((*j)[1], "t"), INT64_MIN);
  EXPECT_FALSE(as_int((*j)[2], "t").ok());
  EXPECT_FALSE(as_int((*j)[3], "t").ok());
  EXPECT_EQ(*as_float((*j)[3], "t"), 1.5);
  EXPECT_TRUE(std::isinf(*as_float((*j)[4], "t")));
  EXPECT_LT(*as_float((*j)[5], "t"), 0);
  EXPECT_TRUE(std::isnan(*as_float((*j)[6], "t")));
  // Brackets inside strings do not count towards the depth limit.
  EXPECT_TRUE(parse_json(bytes_of("[\"" + std::string(1000, '[') + "\"]"), "t").ok());
  EXPECT_FALSE(parse_json(bytes_of(std::string(kMaxJsonDepth + 1, '[')), "t").ok());
}

TEST(SymExpr, EvaluatesSympysSpellingsOfSizes) {
  const std::map<std::string, int64_t> s = {{"s0", 7}, {"s77", 10}};
  EXPECT_EQ(*eval_sym_expr("s0", s), 7);
  EXPECT_EQ(*eval_sym_expr("2*s0", s), 14);
  EXPECT_EQ(*eval_sym_expr("s77 + 1", s), 11);
  EXPECT_EQ(*eval_sym_expr("((s0 - 1)//2) + 1", s), 4);
  EXPECT_EQ(*eval_sym_expr("-s0 + 20", s), 13);
  EXPECT_EQ(*eval_sym_expr("Max(1, s0 - 9)", s), 1);
  EXPECT_EQ(*eval_sym_expr("Min(s0, s77, 9)", s), 7);
  EXPECT_EQ(*eval_sym_expr("floor(s77/3)", s), 3);
  EXPECT_EQ(*eval_sym_expr("ceiling(s77/3)", s), 4);
  EXPECT_EQ(*eval_sym_expr("Mod(s77, 4) + FloorDiv(s77, 4)", s), 4);
  EXPECT_EQ(*eval_sym_expr("s0*s77", s), 70);
  EXPECT_EQ(sym_expr_symbols("s0*s77 + s0"), (std::vector<std::string>{"s0", "s77", "s0"}));
  EXPECT_FALSE(eval_sym_expr("s1 + 1", s).ok());
  EXPECT_NE(std::string(last_error_message()).find("unknown symbol"), std::string::npos);
  EXPECT_FALSE(eval_sym_expr("s0 //", s).ok());
  EXPECT_FALSE(eval_sym_expr("s0 // 0", s).ok());
  EXPECT_FALSE(eval_sym_expr("sqrt(s0)", s).ok());
  EXPECT_FALSE(eval_sym_expr(std::string(1000, '(') + "1" + std::string(1000, ')'), s).ok());
}

TEST(Pt2Graph, MapsExportDtypesNotC10Numbers) {
  EXPECT_EQ(*export_dtype(7, "t"), ScalarType::Float);
  EXPECT_EQ(*export_dtype(12, "t"), ScalarType::Bool);
  EXPECT_EQ(*export_dtype(13, "t"), ScalarType::BFloat16);
  EXPECT_EQ(*export_dtype(5, "t"), ScalarType::Long);
  EXPECT_FALSE(export_dtype(29, "t").ok());  // float8
}

}  // namespace
}  // namespace tri::pt2
