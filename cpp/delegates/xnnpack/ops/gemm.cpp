// FullyConnected and BatchMatrixMultiply. Float32 fully connected layers
// pack their weights (with the bias) once at init for the 6x8 gemm
// microkernel and apply the fused output range in it; a filter that is not
// a constant is packed into scratch per run. The int8 forms (static and
// dynamic quantization) are in quantized_gemm.cpp.
#include <cinttypes>

#include "cpp/delegates/xnnpack/ops/gemm_common.h"
#include "cpp/delegates/xnnpack/ops/parallel_gemm.h"
#include "cpp/kernels/simd/f32_gemm_minmax.h"
#include "cpp/kernels/util/matmul.h"

namespace tri::xnnpack {
namespace {

// ---- FullyConnected ------------------------------------------------------

Error check_fc(Node& node, const Value* values) {
  const Value& x = in(node, values, 0);
  if (x.dtype != DType::F32) return check_quantized_fc(node, values);
  TRI_TRY(expect_dtype(node, out(node, values), "output", DType::F32));
  const Value& w = in(node, values, 1);
  TRI_TRY(expect_dtype(node, w, "filter", DType::F32));
  TRI_TRY(expect_rank(node, w, "filter", 2));
  TRI_CHECK(x.rank() >= 1, Error::InvalidProgram, "input (value %" PRIu32 ") is a scalar", x.id);
  const FcShape s = fc_shape(node, values);
  if (node.inputs[2] != kInvalidId) {
    const Value& b = in(node, values, 2);
    TRI_TRY(expect_dtype(node, b, "bias", DType::F32));
    TRI_CHECK(b.numel() == s.out, Error::InvalidProgram,
              "bias (value %" PRIu32 ") has %zu elements for %zu outputs", b.id, b.numel(), s.out);
  }
  return Error::Ok;
}

Error reshape_fc(const Node& node, Value* values) {
  const Value& x = in(node, values, 0);
  const FcShape s = fc_shape(node, values);
  TRI_CHECK(x.rank() >= 1 && static_cast<size_t>(x.dim(x.rank() - 1)) == s.in,
            Error::InvalidArgument, "input's last dim is %d, the filter takes %zu",
            x.rank() >= 1 ? x.dim(x.rank() - 1) : 0, s.in);
  int32_t dims[kMaxDims];
  for (int32_t d = 0; d < x.rank(); ++d) dims[d] = x.dim(d);
  dims[x.rank() - 1] = static_cast<int32_t>(s.out);
  return resize_output(node, values, 0, dims, x.rank());
}

bool weights_static(const Node& node, const Value* values) {
  return in(node, values, 1).kind == ValueKind::Constant &&
         (node.inputs[2] == kInvalidId || in(node, values, 2).kind == ValueKind::Constant);
}

size_t f32_fc_packed_bytes(const Node& node, const Value* values) {
  const FcShape s = fc_shape(node, values);
  return f32_gemm_packed_floats(s.out, s.in) * sizeof(float);
}

void f32_fc_pack(const Node& node, const Value* values, float* packed) {
  const FcShape s = fc_shape(node, values);
  const float* w = in(node, values, 1).data_as<const float>();
  const float* bias =
      node.inputs[2] != kInvalidId ? in(node, values, 2).data_as<const float>() : nullptr;
  if ((node.flags & kFlagTransposeWeights) != 0) {
    f32_gemm_pack(s.out, s.in, w, 1, s.out, bias, packed);
  } else {
    f32_gemm_pack(s.out, s.in, w, s.in, 1, bias, packed);
  }
}

size_t fc_packed_bytes(const Node& node, const Value* values) {
  if (in(node, values, 0).dtype != DType::F32) return quantized_fc_packed_bytes(node, values);
  return weights_static(node, values) ? f32_fc_packed_bytes(node, values) : 0;
}

void fc_pack(const Node& node, const Value* values, void* dst) {
  if (in(node, values, 0).dtype != DType::F32) {
    quantized_fc_pack(node, values, dst);
    return;
  }
  f32_fc_pack(node, values, static_cast<float*>(dst));
}

size_t fc_scratch_bytes(const Node& node, const Value* values) {
  if (in(node, values, 0).dtype != DType::F32) return quantized_fc_scratch_bytes(node, values);
  return weights_static(node, values) ? 0 : f32_fc_packed_bytes(node, values) + 64;
}

Error run_fc(const Node& node, Value* values, RunContext& ctx) {
  const Value& x = in(node, values, 0);
  if (x.dtype != DType::F32) return run_quantized_fc(node, values, ctx);
  const FcShape s = fc_shape(node, values);
  const float* packed = static_cast<const float*>(node.packed);
  if (packed == nullptr) {
    float* scratch = static_cast<float*>(ctx.scratch->allocate(f32_fc_packed_bytes(node, values), 64));
    TRI_CHECK(scratch != nullptr, Error::MemoryAllocationFailed,
              "no scratch to pack a %zux%zu filter", s.out, s.in);
    f32_fc_pack(node, values, scratch);
    packed = scratch;
  }
  const size_t rows = s.in == 0 ? 0 : x.numel() / s.in;
  const float* a = x.data_as<const float>();
  float* c = out(node, values).data_as<float>();
  parallel_f32_gemm_minmax(rows, s.out, s.in, a, s.in, packed, c, s.out, node.out_min,
                           node.out_max);
  return Error::Ok;
}

// Weights and bias go into the packed weights (static weights only; others
// pack nothing and are read at run).
const OpDef kFullyConnected = {&check_fc,        &reshape_fc, &fc_scratch_bytes, &fc_packed_bytes,
                               &fc_pack,         &run_fc,     0b110};

// ---- BatchMatrixMultiply -----------------------------------------------------

// a [B.., M, K] @ b [B.., K, N] (b [B.., N, K] with kFlagTransposeB); batch
// dims broadcast.
struct BmmShape {
  int32_t rank;
  int32_t batch[kMaxDims];
  int64_t m, k, n;
};

Error bmm_shape(const Node& node, const Value* values, BmmShape* s) {
  const Value& a = in(node, values, 0);
  const Value& b = in(node, values, 1);
  TRI_CHECK(a.rank() >= 2 && b.rank() >= 2, Error::InvalidArgument,
            "operands have %d and %d dims (at least 2 each)", a.rank(), b.rank());
  const bool tb = (node.flags & kFlagTransposeB) != 0;
  s->m = a.dim(a.rank() - 2);
  s->k = a.dim(a.rank() - 1);
  const int64_t bk = tb ? b.dim(b.rank() - 1) : b.dim(b.rank() - 2);
  s->n = tb ? b.dim(b.rank() - 2) : b.dim(b.rank() - 1);
  TRI_CHECK(bk == s->k, Error::InvalidArgument,
            "a is [.., %" PRId64 ", %" PRId64 "] and b gives K = %" PRId64, s->m, s->k, bk);
  s->rank = (a.rank() > b.rank() ? a.rank() : b.rank()) - 2;
  for (int32_t i = 0; i < s->rank; ++i) {
    const int32_t ai = a.rank() - 2 - s->rank + i;
    const int32_t bi = b.rank() - 2 - s->rank + i;
    const int32_t da = ai >= 0 ? a.dim(ai) : 1;
    const int32_t db = bi >= 0 ? b.dim(bi) : 1;
    TRI_CHECK(da == db || da == 1 || db == 1, Error::InvalidArgument,
              "batch dim %d is %d in a and %d in b", i, da, db);
    s->batch[i] = da == 1 ? db : da;
  }
  return Error::Ok;
}

Error check_bmm(Node& node, const Value* values) {
  TRI_TRY(expect_dtype(node, in(node, values, 0), "input 1", DType::F32));
  TRI_TRY(expect_dtype(node, in(node, values, 1), "input 2", DType::F32));
  return expect_dtype(node, out(node, values), "output", DType::F32);
}

Error reshape_bmm(const Node& node, Value* values) {
  BmmShape s;
  TRI_TRY(bmm_shape(node, values, &s));
  int32_t dims[kMaxDims];
  for (int32_t i = 0; i < s.rank; ++i) dims[i] = s.batch[i];
  dims[s.rank] = static_cast<int32_t>(s.m);
  dims[s.rank + 1] = static_cast<int32_t>(s.n);
  return resize_output(node, values, 0, dims, s.rank + 2);
}

// Element offset of batch `index` in an operand whose batch dims are the
// trailing ones of `s.batch` (size-1 dims broadcast).
size_t batch_offset(const Value& v, const BmmShape& s, size_t index) {
  const int32_t vb = v.rank() - 2;
  size_t offset = 0;
  size_t stride = static_cast<size_t>(v.dim(v.rank() - 2)) * static_cast<size_t>(v.dim(v.rank() - 1));
  for (int32_t i = s.rank - 1; i >= 0; --i) {
    const size_t coord = index % static_cast<size_t>(s.batch[i]);
    index /= static_cast<size_t>(s.batch[i]);
    const int32_t vi = vb - (s.rank - i);
    if (vi < 0) continue;
    const size_t size = static_cast<size_t>(v.dim(vi));
    offset += (size == 1 ? 0 : coord) * stride;
    stride *= size;
  }
  return offset;
}

Error run_bmm(const Node& node, Value* values, RunContext& ctx) {
  BmmShape s;
  TRI_TRY(bmm_shape(node, values, &s));
  const Value& a = in(node, values, 0);
  const Value& b = in(node, values, 1);
  Value& c = out(node, values);
  const bool tb = (node.flags & kFlagTransposeB) != 0;
  size_t batches = 1;
  for (int32_t i = 0; i < s.rank; ++i) batches *= static_cast<size_t>(s.batch[i]);
  const int64_t fs = sizeof(float);
  for (size_t i = 0; i < batches; ++i) {
    const AnyMat am{const_cast<char*>(reinterpret_cast<const char*>(a.data_as<const float>() +
                                                                     batch_offset(a, s, i))),
                    ScalarType::Float, s.k * fs, fs};
    const AnyMat bm{const_cast<char*>(reinterpret_cast<const char*>(b.data_as<const float>() +
                                                                     batch_offset(b, s, i))),
                    ScalarType::Float, tb ? fs : s.n * fs, tb ? s.k * fs : fs};
    const AnyMat cm{reinterpret_cast<char*>(c.data_as<float>() + i * s.m * s.n),
                    ScalarType::Float, s.n * fs, fs};
    ctx.scratch->reset();
    matmul_any(*ctx.kernel_context, s.m, s.n, s.k, am, bm, cm);
  }
  return Error::Ok;
}

size_t bmm_scratch_bytes(const Node& node, const Value* values) {
  const Value& b = in(node, values, 1);
  // matmul packs or transposes one b matrix at a time.
  return static_cast<size_t>(b.dim(b.rank() - 1)) * static_cast<size_t>(b.dim(b.rank() - 2)) *
             sizeof(float) + 1024;
}

const OpDef kBatchMatrixMultiply = {&check_bmm, &reshape_bmm, &bmm_scratch_bytes,
                                    nullptr,    nullptr,      &run_bmm};

}  // namespace

FcShape fc_shape(const Node& node, const Value* values) {
  const Value& w = in(node, values, 1);
  const bool transposed = (node.flags & kFlagTransposeWeights) != 0;
  FcShape s;
  const size_t d0 = w.declared_rank >= 1 ? static_cast<size_t>(w.declared_dims[0]) : 0;
  const size_t d1 = w.declared_rank >= 2 ? static_cast<size_t>(w.declared_dims[1]) : 0;
  s.out = transposed ? d1 : d0;
  s.in = transposed ? d0 : d1;
  return s;
}

const OpDef* gemm_op_def(NodeType type) {
  switch (type) {
    case NodeType::FullyConnected: return &kFullyConnected;
    case NodeType::BatchMatrixMultiply: return &kBatchMatrixMultiply;
    default: return nullptr;
  }
}

}  // namespace tri::xnnpack
