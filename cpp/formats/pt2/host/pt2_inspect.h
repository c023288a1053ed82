// What `model.graph()` and `model.weights()` show of a .pt2 archive: each
// model's exported graph as the archive names it (nodes with their ATen
// targets, tensor arguments as edges, other arguments as attributes), each
// node with the lowered instructions it became, and the weights by their
// fully qualified names.
#pragma once

#include <vector>

#include "cpp/formats/pt2/host/pt2_program.h"
#include "cpp/host/method_graph.h"

namespace tri::pt2 {

Result<host::MethodGraph> pt2_method_graph(const Pt2Program& program, size_t method);

// Parameters, buffers and tensor constants; prefixed "<model>/" when the
// archive has several models (each has its own).
std::vector<host::WeightInfo> pt2_weights(const Pt2Program& program);

}  // namespace tri::pt2
