// What `model.graph()` and `model.weights()` show of a .pte program: each
// ExecutionPlan's instructions as the file has them (kernel calls with their
// arguments named by the operator's schema where the runtime knows it,
// delegate calls with the delegate's own graph nested, moves, jumps, frees),
// its values, and the constants in the file and its data files.
#pragma once

#include <vector>

#include "cpp/formats/pte/pte_program.h"
#include "cpp/host/method_graph.h"

namespace tri::pte {

Result<host::MethodGraph> pte_method_graph(const PteProgram& program, size_t method,
                                           const Method* loaded);

// Constants by where they live: "constant[<buffer>]" for the file's constant
// data, the fully qualified name for external (.ptd) tensors.
Result<std::vector<host::WeightInfo>> pte_weights(const PteProgram& program,
                                                  const NamedDataMap* external);

}  // namespace tri::pte
