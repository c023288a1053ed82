// Lowers one PT2 model's graph to a LoweredMethod: functional ATen ops become
// calls of the out variants the kernel library implements (arguments read by
// name against ATen's schemas, defaults filled in), training-IR composites
// are rewritten into those ops (pt2_rewrites.cpp), the signature binds
// parameters, buffers and constants to the archive's tensors, buffer
// mutations are written back at the end of each run, and every intermediate
// gets an offset in one arena from the core's lifetime planner.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "cpp/formats/pt2/host/lowered_method.h"
#include "cpp/formats/pt2/host/pt2_graph.h"
#include "cpp/formats/pt2/host/tensor_store.h"

namespace tri::pt2 {

struct LoweringInputs {
  std::string method_name;
  const Pt2Graph* graph = nullptr;
  // Parameters and persistent buffers (the state dict), and tensor
  // constants and non-persistent buffers, by fully qualified name.
  const std::map<std::string, HostTensor>* state = nullptr;
  const std::map<std::string, HostTensor>* constants = nullptr;
  // Owns the writable copies of buffers the graph mutates.
  TensorStore* store = nullptr;
  // Module state by FQN, kept across re-lowerings so that re-planning does
  // not reset it: a mutated buffer found here is used as it is; one that is
  // not is copied from the weights and added.
  std::map<std::string, HostTensor>* mutable_state = nullptr;
  // Planning bounds that replace the graph's (re-planning for larger inputs
  // of an unbounded symbol).
  std::map<std::string, int64_t> bound_overrides;
  uint64_t max_planned_bytes = uint64_t{1} << 30;
};

Result<LoweredMethod> lower_graph(const LoweringInputs& inputs);

}  // namespace tri::pt2
