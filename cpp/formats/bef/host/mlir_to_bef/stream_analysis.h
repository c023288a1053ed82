// The stream assignment TFRT's compiler::StreamAnalysis computes for one
// block (lib/compiler/stream_analysis.cc, as of the func-dialect version),
// which mlir_to_bef writes as each kernel's stream id. The executor runs
// kernels of its current stream inline and hands others to the work queue,
// so these ids decide the order of side effects that are not chained.
//
// Forward pass: each op's parent is the operand producer with the largest
// cost from the root (the first one on ties); ops without operands hang off
// the root. Backward pass (reverse block order, then the root): an op joins
// the costliest child stream whose cost is under the upper threshold,
// after child streams cheaper than the cost threshold are merged together.
// Stream ids are the indices of streams in creation order.
#pragma once

#include <cstdint>
#include <vector>

namespace tri::bef {

struct StreamOp {
  // Defining op of each operand (an index into the block), -1 for a block
  // argument, which counts as produced by the root.
  std::vector<int32_t> operand_defs;
  // Chains are control dependencies and never count as data dependencies.
  std::vector<bool> operand_is_chain;
  int64_t cost = 1;
};

struct StreamOptions {
  int64_t cost_threshold = 1;         // tfrt.cost_threshold, at least 1
  int64_t upper_cost_threshold = -1;  // tfrt.upper_cost_threshold, -1 none
  bool merge_inter_dependent_streams = false;  // tfrt.merge_inter_dependent_streams
};

struct StreamAssignment {
  int root_stream = 0;
  std::vector<int> op_streams;  // per op of the block
};

StreamAssignment analyze_streams(const std::vector<StreamOp>& ops, const StreamOptions& options);

}  // namespace tri::bef
