// The nodes of a compiled XNNPACK graph: the XNNGraph's node tables read
// into one plain struct (value ids, fused output range, the kind's
// parameters), checked, then bound to the implementation of their kind.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/delegates/xnnpack/xnn_value.h"
#include "cpp/runtime/core/result.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri::xnnpack {

// XNodeUnion's numbering (the schema's union order).
enum class NodeType : uint8_t {
  None = 0,
  Add = 1,
  FullyConnected = 2,
  Softmax = 3,
  Sigmoid = 4,
  StaticTranspose = 5,
  Clamp = 6,
  Conv2d = 7,
  Div = 8,
  StaticResizeBilinear2D = 9,
  StaticConstantPad = 10,
  AvgPooling2d = 11,
  Minimum = 12,
  DepthwiseConv2d = 13,
  MaxPooling2d = 14,
  Multiply = 15,
  Subtract = 16,
  Floor = 17,
  Convert = 18,
  GlobalAvgPooling2d = 19,
  StaticReshape = 20,
  ArgMaxPooling2d = 21,
  SquareRoot = 22,
  Ceiling = 23,
  Hardswish = 24,
  LeakyReLU = 25,
  Maximum = 26,
  Negate = 27,
  Square = 28,
  ELU = 29,
  Abs = 30,
  PReLU = 31,
  Concatenate2 = 32,
  Concatenate3 = 33,
  Concatenate4 = 34,
  StaticSlice = 35,
  ScaledDotProductAttention = 36,
  BatchMatrixMultiply = 37,
  Concatenate5 = 38,
  ConvTranspose2d = 39,
  ReciprocalSquareRoot = 40,
  Log = 41,
  Gelu = 42,
  Tanh = 43,
  Exp = 44,
  Sin = 45,
  Copy = 46,
  Cos = 47,
  ApproxGelu = 48,
};
constexpr int kMaxNodeType = 48;

// "Conv2d" for NodeType::Conv2d; "unknown" past the schema.
const char* node_type_name(NodeType type);

// XNNPACK's node flags that change what a node computes.
constexpr uint32_t kFlagTransposeWeights = 0x1;  // FullyConnected: filter is [in, out]
constexpr uint32_t kFlagTransposeB = 0x1;        // BatchMatrixMultiply: b is [.., N, K]
constexpr uint32_t kFlagTensorflowLegacy = 0x4;  // resize: no half-pixel offset
constexpr uint32_t kFlagAlignCorners = 0x8;      // resize
constexpr uint32_t kFlagKeepDims = 0x40;         // global pooling

struct ConvParams {
  uint32_t pad_top, pad_right, pad_bottom, pad_left;
  uint32_t kernel_h, kernel_w;
  uint32_t stride_h, stride_w;
  uint32_t dilation_h, dilation_w;
  uint32_t group_in, group_out, groups;
  uint32_t adjust_h, adjust_w;  // ConvTranspose2d's output padding
};

struct PoolParams {
  uint32_t pad_top, pad_right, pad_bottom, pad_left;
  uint32_t pool_h, pool_w;
  uint32_t stride_h, stride_w;
  uint32_t dilation_h, dilation_w;
};

// Per-dimension lists (transpose perm, reshape shape, slice offsets/sizes,
// pad before/after).
struct DimLists {
  uint8_t rank;
  int64_t a[kMaxDims];
  int64_t b[kMaxDims];
};

union NodeParams {
  ConvParams conv;
  PoolParams pool;
  DimLists dims;
  struct {
    uint32_t new_h, new_w;
  } resize;
  struct {
    int32_t axis;
  } concat;
  struct {
    float value;  // ELU alpha, LeakyReLU slope, pad value
    DimLists dims;
  } scalar;
};

struct OpDef;

struct Node {
  NodeType type = NodeType::None;
  uint32_t index = 0;
  uint32_t flags = 0;
  uint8_t num_inputs = 0;
  uint8_t num_outputs = 0;
  // Value indices (not ids). An absent optional input (bias) is kInvalidId.
  uint32_t inputs[5] = {kInvalidId, kInvalidId, kInvalidId, kInvalidId, kInvalidId};
  uint32_t outputs[2] = {kInvalidId, kInvalidId};
  // The fused activation: results are clamped to [out_min, out_max].
  float out_min = 0;
  float out_max = 0;
  bool has_out_range = false;
  NodeParams params = {};
  const OpDef* def = nullptr;
  // The shared-library kernel the node runs, for nodes that run one.
  // A copy taken at init, as methods take theirs at load.
  KernelEntry kernel;
  // Weights packed at init for the node's kernel (nullptr: none).
  void* packed = nullptr;
  size_t packed_bytes = 0;
};

}  // namespace tri::xnnpack
