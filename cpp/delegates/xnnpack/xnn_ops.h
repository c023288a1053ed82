// What each node type implements, in XNNPACK's lifecycle: checked and its
// weights packed once at init, reshaped when input shapes change, run per
// execute. One OpDef per family of node types lives in ops/; find_op_def
// maps a node type to it.
#pragma once

#include <cstddef>

#include "cpp/delegates/xnnpack/xnn_node.h"
#include "cpp/runtime/core/memory_allocator.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri::xnnpack {

// What a running node may use besides its values.
struct RunContext {
  // Scratch for this node only (reset before each node).
  MemoryAllocator* scratch = nullptr;
  // For nodes that run a kernel of the shared library: its scratch is the
  // same memory.
  KernelContext* kernel_context = nullptr;
};

struct OpDef {
  // Checks the node against its operands once, at load: dtypes, ranks,
  // parameters, which operands must be constant; it may resolve what the
  // node calls (Node::kernel). Values have their declared shapes then.
  Error (*check)(Node& node, const Value* values);
  // Sets the outputs' shapes (Tensor::resize) from the inputs' shapes.
  Error (*reshape)(const Node& node, Value* values);
  // Run-time scratch the node needs at its outputs' current shapes (0: none).
  size_t (*scratch_bytes)(const Node& node, const Value* values);
  // Bytes of weights packed at init (0: none), and the packing into `dst`.
  size_t (*packed_bytes)(const Node& node, const Value* values);
  void (*pack)(const Node& node, const Value* values, void* dst);
  Error (*run)(const Node& node, Value* values, RunContext& context);
  // Inputs (bit i: input i) whose bytes run() no longer reads once the node
  // has packed weights: constants only these read can be freed after init.
  uint32_t packed_inputs = 0;
};

// nullptr for a node type without an implementation.
const OpDef* find_op_def(NodeType type);

// The families (ops/*.cpp).
const OpDef* elementwise_op_def(NodeType type);
const OpDef* unary_op_def(NodeType type);
const OpDef* gemm_op_def(NodeType type);
const OpDef* conv_op_def(NodeType type);
const OpDef* pooling_op_def(NodeType type);
const OpDef* shape_op_def(NodeType type);
const OpDef* convert_op_def(NodeType type);
const OpDef* attention_op_def(NodeType type);

// Shared helpers for op implementations.
inline Value& in(const Node& node, Value* values, int i) { return values[node.inputs[i]]; }
inline const Value& in(const Node& node, const Value* values, int i) {
  return values[node.inputs[i]];
}
inline Value& out(const Node& node, Value* values, int i = 0) {
  return values[node.outputs[i]];
}
inline const Value& out(const Node& node, const Value* values, int i = 0) {
  return values[node.outputs[i]];
}

// Resizes output `i` to `dims`, naming the node when the shape does not fit
// what was reserved for the value.
Error resize_output(const Node& node, Value* values, int i, const int32_t* dims, int rank);

// Fails naming the node and operand unless value `v` has one of the dtypes.
Error expect_dtype(const Node& node, const Value& v, const char* what, DType a,
                   DType b = DType::Invalid, DType c = DType::Invalid);
// Fails unless `v` is a constant (weights the node packs at init).
Error expect_constant(const Node& node, const Value& v, const char* what);
// Fails unless `v` has `rank` dims.
Error expect_rank(const Node& node, const Value& v, const char* what, int rank);

}  // namespace tri::xnnpack
