// read_graph: the values, then the nodes, then the checks that need both.
#include "cpp/delegates/xnnpack/xnn_graph.h"

#include <cinttypes>

#include "cpp/delegates/xnnpack/xnn_ops.h"

namespace tri::xnnpack {
namespace {

const char* kind_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::Internal: return "internal";
    case ValueKind::Constant: return "constant";
    case ValueKind::ExternalInput: return "an external input";
    case ValueKind::ExternalOutput: return "an external output";
  }
  return "?";
}

// Each external id names one delegate argument, once.
Error check_externals(Span<Value> values, uint32_t num_externs, MemoryAllocator& scratch) {
  TRI_CHECK(num_externs <= kMaxExterns, Error::InvalidProgram,
            "the graph declares %" PRIu32 " external values (at most %" PRIu32 ")", num_externs,
            kMaxExterns);
  bool* seen = scratch.allocate_array<bool>(num_externs);
  TRI_CHECK(seen != nullptr, Error::MemoryAllocationFailed, "scratch exhausted");
  for (uint32_t i = 0; i < num_externs; ++i) seen[i] = false;
  for (size_t i = 0; i < values.size(); ++i) {
    const Value& v = values[i];
    if (v.kind != ValueKind::ExternalInput && v.kind != ValueKind::ExternalOutput) continue;
    TRI_CHECK(v.external_id < num_externs, Error::InvalidProgram,
              "value %zu has external id %" PRIu32 " (the graph has %" PRIu32 " externals)", i,
              v.external_id, num_externs);
    TRI_CHECK(!seen[v.external_id], Error::InvalidProgram,
              "value %zu reuses external id %" PRIu32, i, v.external_id);
    seen[v.external_id] = true;
  }
  for (uint32_t i = 0; i < num_externs; ++i) {
    TRI_CHECK(seen[i], Error::InvalidProgram, "no value has external id %" PRIu32 " of %" PRIu32,
              i, num_externs);
  }
  return Error::Ok;
}

// Nodes run in order: every input must exist by then (an input, a constant
// or an earlier node's output), and every value is written once.
Error check_dataflow(Span<Value> values, Span<Node> nodes) {
  for (Node& node : nodes) {
    const int32_t n = static_cast<int32_t>(node.index);
    for (int i = 0; i < node.num_inputs; ++i) {
      if (node.inputs[i] == kInvalidId) continue;
      Value& v = values[node.inputs[i]];
      const bool available = v.kind == ValueKind::Constant ||
                             v.kind == ValueKind::ExternalInput || v.producer >= 0;
      TRI_CHECK(available, Error::InvalidProgram,
                "node %d (%s): input %d (value %" PRIu32 ") is not computed before it", n,
                node_type_name(node.type), i, node.inputs[i]);
      v.last_use = n;
    }
    for (int i = 0; i < node.num_outputs; ++i) {
      Value& v = values[node.outputs[i]];
      TRI_CHECK(v.kind == ValueKind::Internal || v.kind == ValueKind::ExternalOutput,
                Error::InvalidProgram, "node %d (%s): output value %" PRIu32 " is %s", n,
                node_type_name(node.type), node.outputs[i], kind_name(v.kind));
      TRI_CHECK(v.producer < 0, Error::InvalidProgram,
                "node %d (%s): value %" PRIu32 " is already written by node %d", n,
                node_type_name(node.type), node.outputs[i], v.producer);
      v.producer = n;
      if (v.last_use < n) v.last_use = n;
    }
  }
  for (size_t i = 0; i < values.size(); ++i) {
    TRI_CHECK(values[i].kind != ValueKind::ExternalOutput || values[i].producer >= 0,
              Error::InvalidProgram, "external output value %zu is never computed", i);
  }
  return Error::Ok;
}

// Every value starts with its declared shape; the data comes later.
Error init_tensors(Span<Value> values) {
  for (size_t i = 0; i < values.size(); ++i) {
    Value& v = values[i];
    if (v.dtype == DType::QCInt4 || v.dtype == DType::QBInt4) {
      // Packed nibbles: only the node that owns the weights reads them, by
      // their declared dims.
      const int32_t bytes = static_cast<int32_t>(v.constant_bytes);
      TRI_TRY_CONTEXT(v.tensor.init(ScalarType::Byte, Span<const SizesType>(&bytes, 1), {},
                                    const_cast<uint8_t*>(v.constant), v.constant_bytes,
                                    ShapeDynamism::Static),
                      "value %zu", i);
      continue;
    }
    const Span<const SizesType> dims(v.declared_dims, v.declared_rank);
    if (v.kind == ValueKind::Constant) {
      TRI_TRY_CONTEXT(v.tensor.init(scalar_type_of(v.dtype), dims, {},
                                    const_cast<uint8_t*>(v.constant), v.constant_bytes,
                                    ShapeDynamism::Static),
                      "value %zu", i);
    } else {
      TRI_TRY_CONTEXT(v.tensor.init(scalar_type_of(v.dtype), dims, {}, nullptr, v.capacity,
                                    ShapeDynamism::DynamicBound),
                      "value %zu", i);
    }
  }
  return Error::Ok;
}

}  // namespace

Result<Graph> read_graph(const XnnPayload& payload, const GraphReadOptions& options,
                         MemoryAllocator& alloc) {
  const fb::XNNGraph* g = payload.graph;
  TRI_CHECK(g->xvalues() != nullptr && g->xnodes() != nullptr, Error::InvalidProgram,
            "the XNNPACK graph has no %s", g->xvalues() ? "nodes" : "values");
  Graph graph;
  const size_t num_values = g->xvalues()->size();
  graph.values = Span<Value>(alloc.allocate_array<Value>(num_values), num_values);
  TRI_CHECK(graph.values.data() != nullptr, Error::MemoryAllocationFailed,
            "no memory for %zu XNNPACK values", num_values);
  for (size_t i = 0; i < num_values; ++i) {
    TRI_TRY(read_value(payload, options, i, graph.values));
  }
  graph.num_externs = g->num_externs();
  {
    // The id check above leaves no slot empty: ids are distinct and below
    // num_values. Scratch for the external check comes from the end of
    // `alloc` and is given back.
    MemoryAllocator scratch = alloc;
    TRI_TRY(check_externals(graph.values, graph.num_externs, scratch));
  }

  const size_t num_nodes = g->xnodes()->size();
  graph.nodes = Span<Node>(alloc.allocate_array<Node>(num_nodes), num_nodes);
  TRI_CHECK(graph.nodes.data() != nullptr, Error::MemoryAllocationFailed,
            "no memory for %zu XNNPACK nodes", num_nodes);
  for (size_t i = 0; i < num_nodes; ++i) {
    Node& node = graph.nodes[i];
    TRI_TRY(read_node(g->xnodes()->Get(static_cast<flatbuffers::uoffset_t>(i)),
                      static_cast<uint32_t>(i), num_values, &node));
    node.def = find_op_def(node.type);
    TRI_CHECK(node.def != nullptr, Error::NotSupported,
              "node %zu: XNNPACK node type %s (%d) is not supported", i,
              node_type_name(node.type), static_cast<int>(node.type));
  }
  TRI_TRY(check_dataflow(graph.values, graph.nodes));
  TRI_TRY(init_tensors(graph.values));
  // Shapes as declared: each node checks its operands, then computes its
  // outputs' shapes, which must fit what the graph declares for them.
  for (Node& node : graph.nodes) {
    TRI_TRY_CONTEXT(node.def->check(node, graph.values.data()), "node %" PRIu32 " (%s)",
                    node.index, node_type_name(node.type));
    TRI_TRY_CONTEXT(node.def->reshape(node, graph.values.data()), "node %" PRIu32 " (%s)",
                    node.index, node_type_name(node.type));
  }
  return graph;
}

}  // namespace tri::xnnpack
