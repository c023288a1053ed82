// A method's graph as inspection tools see it (model.graph(), `trident
// inspect --graph`, the viewer): nodes in program order with the values they
// read and write, and nested graphs (a delegate's own nodes, a BEF kernel's
// region functions). Each format's front end fills one from what its file
// says; the JSON form, the edges and the weight list are made here once, so
// every format answers in the same shape. Host-side: may allocate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cpp/runtime/core/result.h"
#include "cpp/runtime/core/scalar_type.h"
#include "cpp/runtime/executor/instruction.h"

namespace tri::host {

struct GraphValue {
  std::string name;   // "v12", a .pt2 graph's own name, a BEF register "%3"
  // "tensor", "int", "double", "bool", "string", "none", "int_list",
  // "double_list", "bool_list", "tensor_list", "optional_tensor_list", or
  // a format's own type name (BEF: "!tfrt.chain").
  std::string kind;
  std::string dtype;           // tensors: numpy's name, or the delegate's
  std::vector<int64_t> shape;  // tensors: the declared (upper-bound) shape
  bool dynamic = false;        // a tensor whose shape varies between runs
  std::string weight;          // a constant tensor: its name in weights()
  nlohmann::json literal;      // scalars and lists the program fixes
};

// One argument or result of a node: a value of the graph, or a literal the
// node carries itself (a .pt2 node's int argument).
struct GraphPort {
  std::string name;  // the schema's argument name where known
  int32_t value = -1;
  nlohmann::json literal;
};

struct GraphNode {
  // "kernel", "delegate", "move", "jump_false", "free" (planned methods),
  // "node" (a .pt2 graph node), "kernel" (BEF), "op" (a delegate's node).
  std::string kind;
  std::string op;  // "aten::convolution.out", "XnnpackBackend", "tfrt.add.i32"
  std::vector<GraphPort> inputs;
  std::vector<GraphPort> outputs;
  nlohmann::json attributes = nlohmann::json::object();
  // Indices into the top-level graph's subgraphs.
  std::vector<int32_t> subgraphs;
  // A .pt2 node: the lowered instructions it became.
  std::vector<int32_t> lowered;
  int32_t jump_to = -1;  // jump_false: the destination instruction
  std::string location;  // "file.mlir:12:3" where the format records one
};

struct MethodGraph {
  std::string name;
  std::string kind;  // "method", "delegate", "function"
  std::vector<GraphValue> values;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<GraphNode> nodes;
  // Nested graphs, flat, only in the top-level graph: a region function
  // used by several kernels (or by itself) is listed once.
  std::vector<MethodGraph> subgraphs;
};

// {"name","kind","values":[...],"inputs","outputs","nodes":[...],
//  "edges":[{"from","to","value"}],"subgraphs":[...]}: each edge joins the
// node that last wrote a value before a reader (-1: a graph input, a
// constant, or nothing) to that reader. Subgraphs get their own edges.
nlohmann::json graph_json(const MethodGraph& graph);

// A constant tensor of the program, as weights() lists it.
struct WeightInfo {
  std::string name;
  std::string dtype;           // numpy's name, or the delegate's ("qcint4")
  ScalarType storage = ScalarType::Byte;  // what weight() returns it as
  std::vector<int64_t> shape;
  const uint8_t* data = nullptr;
  uint64_t nbytes = 0;
  // "constant", "named_data", "external", "parameter", ...; "packed": only
  // its delegate's packed copy is held (data is null).
  std::string source;
};

// {"weights":[{"name","dtype","shape","nbytes","source"}]}
nlohmann::json weights_json(const std::vector<WeightInfo>& weights);

// The graph a delegate instance describes (Backend::num_nodes, node_info,
// value_info), as one of `graph`'s subgraphs; its constants are added to
// `weights` (when not null) under "<backend>#<delegate>/<key or value>".
Result<MethodGraph> delegate_graph(const DelegateInstance& delegate, size_t delegate_index,
                                   std::vector<WeightInfo>* weights);

// The kind name GraphValue uses for a runtime tag.
const char* graph_kind_name(Tag tag);

}  // namespace tri::host
