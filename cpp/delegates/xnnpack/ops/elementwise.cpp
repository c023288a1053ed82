// Add, Subtract, Multiply, Div, Minimum, Maximum and PReLU with NumPy
// broadcasting. Float32 rows run the f32 binary microkernel with the node's
// fused output range; quantized operands (qint8/quint8, each with its own
// scale and zero point) are dequantized a chunk at a time, computed in
// float and requantized to the output's parameters.
#include <cinttypes>

#include "cpp/delegates/xnnpack/ops/broadcast.h"
#include "cpp/delegates/xnnpack/ops/quant_params.h"
#include "cpp/kernels/simd/f32_vbinary_minmax.h"
#include "cpp/kernels/simd/qs8_dot.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri::xnnpack {
namespace {

F32BinaryOp op_of(NodeType type) {
  switch (type) {
    case NodeType::Add: return F32BinaryOp::Add;
    case NodeType::Subtract: return F32BinaryOp::Sub;
    case NodeType::Multiply: return F32BinaryOp::Mul;
    case NodeType::Div: return F32BinaryOp::Div;
    case NodeType::Minimum: return F32BinaryOp::Min;
    case NodeType::Maximum: return F32BinaryOp::Max;
    default: return F32BinaryOp::PRelu;
  }
}

// XNNPACK applies the fused range to add, sub, mul and div only.
void range_of(const Node& node, float* lo, float* hi) {
  const bool ranged = node.type == NodeType::Add || node.type == NodeType::Subtract ||
                      node.type == NodeType::Multiply || node.type == NodeType::Div;
  *lo = ranged ? node.out_min : -__builtin_inff();
  *hi = ranged ? node.out_max : __builtin_inff();
}

bool quantized8(DType d) { return d == DType::QInt8 || d == DType::QUInt8; }

Error check(Node& node, const Value* values) {
  const Value& a = in(node, values, 0);
  const Value& b = in(node, values, 1);
  const Value& y = out(node, values);
  if (y.dtype == DType::F32) {
    TRI_TRY(expect_dtype(node, a, "input 1", DType::F32));
    return expect_dtype(node, b, "input 2", DType::F32);
  }
  TRI_CHECK(quantized8(y.dtype) && quantized8(a.dtype) && quantized8(b.dtype) &&
                a.dtype == y.dtype && b.dtype == y.dtype,
            Error::NotSupported, "%s of %s and %s into %s is not supported",
            node_type_name(node.type), dtype_name(a.dtype), dtype_name(b.dtype),
            dtype_name(y.dtype));
  return Error::Ok;
}

Error reshape(const Node& node, Value* values) {
  int32_t dims[kMaxDims];
  int rank = 0;
  TRI_TRY(broadcast_shape(in(node, values, 0), in(node, values, 1), dims, &rank));
  return resize_output(node, values, 0, dims, rank);
}

float dequant(const Value& v, size_t i) {
  return static_cast<float>(load_q8(v, i) - v.quant.zero_point) * v.quant.scale;
}

Error run(const Node& node, Value* values, RunContext&) {
  const Value& a = in(node, values, 0);
  const Value& b = in(node, values, 1);
  Value& y = out(node, values);
  const BroadcastRows rows(a, b, y);
  const size_t n = rows.row_length();
  float lo, hi;
  range_of(node, &lo, &hi);
  const F32BinaryOp op = op_of(node.type);
  if (y.dtype == DType::F32) {
    const float* pa = a.data_as<const float>();
    const float* pb = b.data_as<const float>();
    float* py = y.data_as<float>();
    // Pieces of whole rows, or of one long row, of at least kMinPiece.
    constexpr size_t kMinPiece = size_t{1} << 14;
    if (rows.rows() == 1) {
      const size_t sa = rows.a_step(), sb = rows.b_step();
      size_t oa, ob;
      rows.offsets(0, &oa, &ob);
      parallel_for(n, kMinPiece, [&](size_t i0, size_t i1) {
        f32_vbinary_minmax(op, i1 - i0, pa + oa + i0 * sa, sa, pb + ob + i0 * sb, sb, py + i0, lo,
                           hi);
      });
      return Error::Ok;
    }
    parallel_for(rows.rows(), kMinPiece / (n + 1) + 1, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        size_t oa, ob;
        rows.offsets(r, &oa, &ob);
        f32_vbinary_minmax(op, n, pa + oa, rows.a_step(), pb + ob, rows.b_step(), py + r * n, lo,
                           hi);
      }
    });
    return Error::Ok;
  }
  int32_t qmin, qmax;
  quantized_output_range(node, y, &qmin, &qmax);
  if (node.type == NodeType::Minimum || node.type == NodeType::Maximum ||
      node.type == NodeType::PReLU) {
    qmin = q8_min(y);
    qmax = q8_max(y);
  }
  const float inv = 1.0f / y.quant.scale;
  constexpr size_t kChunk = 64;
  float fa[kChunk], fb[kChunk], fy[kChunk];
  for (size_t r = 0; r < rows.rows(); ++r) {
    size_t oa, ob;
    rows.offsets(r, &oa, &ob);
    for (size_t i0 = 0; i0 < n; i0 += kChunk) {
      const size_t m = n - i0 < kChunk ? n - i0 : kChunk;
      for (size_t i = 0; i < m; ++i) {
        fa[i] = dequant(a, oa + (i0 + i) * rows.a_step());
        fb[i] = dequant(b, ob + (i0 + i) * rows.b_step());
      }
      f32_vbinary_minmax_reference(op, m, fa, 1, fb, 1, fy, -__builtin_inff(), __builtin_inff());
      for (size_t i = 0; i < m; ++i) {
        store_q8(y, r * n + i0 + i, quantize_value(fy[i], inv, y.quant.zero_point, qmin, qmax));
      }
    }
  }
  return Error::Ok;
}

const OpDef kBinary = {&check, &reshape, nullptr, nullptr, nullptr, &run};

}  // namespace

const OpDef* elementwise_op_def(NodeType type) {
  switch (type) {
    case NodeType::Add:
    case NodeType::Subtract:
    case NodeType::Multiply:
    case NodeType::Div:
    case NodeType::Minimum:
    case NodeType::Maximum:
    case NodeType::PReLU: return &kBinary;
    default: return nullptr;
  }
}

}  // namespace tri::xnnpack
