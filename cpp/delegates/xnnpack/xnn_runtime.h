// A compiled XNNPACK graph and its two phases: build (once, at init: read and
// check the graph, plan the activation arena, pack the weights) and execute
// (per call: bind the delegate's arguments, reshape when input shapes
// changed, run the nodes in order).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/delegates/xnnpack/xnn_graph.h"
#include "cpp/runtime/core/evalue.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri::xnnpack {

// Scratch every execute keeps for node kernels beyond their stated needs
// (shared-library kernels tile their work through whatever scratch exists).
constexpr size_t kMinNodeScratch = size_t{1} << 20;

struct Runtime {
  Graph graph;
  // The activation arena (internal values), taken from scratch per execute.
  uint64_t arena_bytes = 0;
  // The most scratch any node asks for at the declared shapes.
  size_t node_scratch_bytes = 0;
  // The weights packed at init, in total.
  size_t packed_bytes = 0;
  // Copies init made so that execute reads nothing of the blob or named
  // data: constants nodes read at run, and named-data keys.
  size_t owned_bytes = 0;
  // False until the first execute has shaped every value from real inputs.
  bool shaped = false;
};

// Builds a runtime in `persistent`; `scratch` is working memory, given back.
// With `pack` false (the memory query) packed weights and copies are
// measured (Runtime::packed_bytes, owned_bytes) and not written; with it true
// they come from `persistent`.
Result<Runtime*> build_runtime(ByteSpan blob, const GraphReadOptions& options,
                               MemoryAllocator& persistent, MemoryAllocator scratch, bool pack);

// The scratch one execute needs.
size_t execute_bytes(const Runtime& runtime);

Error execute_runtime(Runtime& runtime, KernelContext& context, Span<EValue*> args);

}  // namespace tri::xnnpack
