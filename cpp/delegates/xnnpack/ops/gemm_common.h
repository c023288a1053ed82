// What the float and int8 fully connected nodes share.
#pragma once

#include <cstddef>

#include "cpp/delegates/xnnpack/xnn_ops.h"

namespace tri::xnnpack {

// Input and output features, from the filter's declared dims ([out, in], or
// [in, out] with kFlagTransposeWeights).
struct FcShape {
  size_t in = 0;
  size_t out = 0;
};
FcShape fc_shape(const Node& node, const Value* values);

// The int8 forms (quantized_gemm.cpp): static qint8 (per-tensor or
// per-channel weights) and dynamic qdint8 (qcint8, qcint4, qbint4 weights).
Error check_quantized_fc(const Node& node, const Value* values);
size_t quantized_fc_packed_bytes(const Node& node, const Value* values);
void quantized_fc_pack(const Node& node, const Value* values, void* dst);
size_t quantized_fc_scratch_bytes(const Node& node, const Value* values);
Error run_quantized_fc(const Node& node, Value* values, RunContext& ctx);

}  // namespace tri::xnnpack
