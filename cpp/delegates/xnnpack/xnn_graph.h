// Reading an XNNGraph into the delegate's values and nodes, with every check
// that can be made before anything runs: value ids, dtypes, quantization
// parameters, constant references (sizes, alignment), node types and their
// operands, the order nodes define and use values, and the declared shapes
// against what each node computes from its inputs.
#pragma once

#include "cpp/delegates/xnnpack/xnn_node.h"
#include "cpp/delegates/xnnpack/xnn_payload.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/core/named_data_map.h"

namespace tri::xnnpack {

// XNNPACK's own limit on external values.
constexpr uint32_t kMaxExterns = 4096;

struct Graph {
  Span<Value> values;
  Span<Node> nodes;
  uint32_t num_externs = 0;
};

struct GraphReadOptions {
  // Looks up named constants; nullptr leaves constants unresolved (the
  // memory query, which never reads weights).
  const NamedDataMap* named_data = nullptr;
  bool resolve_constants = true;
};

// Values and nodes come from `alloc`.
Result<Graph> read_graph(const XnnPayload& payload, const GraphReadOptions& options,
                         MemoryAllocator& alloc);

// Reads one value table entry (xnn_values.cpp).
Error read_value(const XnnPayload& payload, const GraphReadOptions& options, size_t position,
                 Span<Value> values);

// Reads one node table entry into `node` (xnn_nodes.cpp). Unknown node
// types fail naming the type and the node's index.
Error read_node(const fb::XNode* xnode, uint32_t index, size_t num_values, Node* node);

}  // namespace tri::xnnpack
