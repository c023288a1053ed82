// Fully connected layers over int8 activations:
// - static (qint8 input and output, qint8 or per-channel qcint8 filter,
//   int32 bias): int32 sums requantized per output channel;
// - dynamic (qdint8 input quantized per row by a Convert node, qcint8,
//   qcint4 or blockwise qbint4 filter, float bias and output).
// Weights are packed at init as int8 rows (4-bit nibbles unpacked) with
// their per-channel sums, so that zero points cost one multiply per output.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstring>

#include "cpp/delegates/xnnpack/ops/gemm_common.h"
#include "cpp/delegates/xnnpack/ops/quant_params.h"
#include "cpp/kernels/simd/qs8_dot.h"
#include "cpp/kernels/util/gemm_f4.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri::xnnpack {
namespace {

// Packed, in order: int32 bias[n] (static: in accumulator units, with the
// input zero point folded in) or float bias[n] (dynamic); int32 sums[n *
// blocks] of each filter row (block); float scales[n * blocks]; int8
// weights[n][k].
struct QPacked {
  const uint8_t* base;
  size_t n, k, blocks;

  size_t bias_offset() const { return 0; }
  size_t sums_offset() const { return aligned_bytes(n, 4); }
  size_t scales_offset() const { return sums_offset() + aligned_bytes(n * blocks, 4); }
  size_t weights_offset() const { return scales_offset() + aligned_bytes(n * blocks, 4); }
  size_t total() const { return weights_offset() + aligned_bytes(n * k, 1); }

  const int32_t* ibias() const { return reinterpret_cast<const int32_t*>(base); }
  const float* fbias() const { return reinterpret_cast<const float*>(base); }
  const int32_t* sums() const { return reinterpret_cast<const int32_t*>(base + sums_offset()); }
  const float* scales() const { return reinterpret_cast<const float*>(base + scales_offset()); }
  const int8_t* weights() const { return reinterpret_cast<const int8_t*>(base + weights_offset()); }
};

// Work below this many multiply-adds stays on one thread: waking another
// costs more than it saves.
constexpr size_t kMinMacsPerPiece = size_t{1} << 15;

bool is_dynamic(const Node& node, const Value* values) {
  return in(node, values, 0).dtype == DType::QDInt8;
}

size_t blocks_of(const Node& node, const Value* values, size_t k) {
  const Value& w = in(node, values, 1);
  return w.dtype == DType::QBInt4 && w.quant.block_size > 0
             ? k / static_cast<size_t>(w.quant.block_size)
             : 1;
}

QPacked layout(const Node& node, const Value* values, const void* base) {
  const FcShape s = fc_shape(node, values);
  return QPacked{static_cast<const uint8_t*>(base), s.out, s.in, blocks_of(node, values, s.in)};
}

// The filter's real value for (n, k) is scale * (q - zero point); with
// weights [in, out] (kFlagTransposeWeights) rows and columns swap.
int32_t weight_q(const Value& w, const Node& node, size_t n, size_t k, const FcShape& s) {
  const bool transposed = (node.flags & kFlagTransposeWeights) != 0;
  const int32_t q = transposed ? filter_element(w, k, n, s.out) : filter_element(w, n, k, s.in);
  return w.dtype == DType::QInt8 ? q - w.quant.zero_point : q;
}

// Outputs [n0, n1) of one qdint8 row against the packed filter: per block,
// an int32 dot less the row's zero point times the block's filter sum,
// scaled by the block's scale and summed in float in block order, then the
// row's scale and the bias. Four outputs share each load of the row (SIMD
// qs8_dot4); the float sums follow the same order for every output, so a
// result does not depend on which group or thread computed it.
void qd8_row(const int8_t* row, float row_scale, int32_t row_zp, const QPacked& p,
             const Node& node, size_t n0, size_t n1, float* out) {
  const size_t k = p.k;
  const size_t blocks = p.blocks;
  const size_t block = blocks == 0 ? 0 : k / blocks;
  const int8_t* w = p.weights();
  const int32_t* sums = p.sums();
  const float* scales = p.scales();
  const float* bias = p.fbias();
  auto finish = [&](size_t n, float acc) {
    const float v = acc * row_scale + bias[n];
    out[n] = f4_lane_min(f4_lane_max(v, node.out_min), node.out_max);
  };
  size_t n = n0;
  for (; n + 4 <= n1; n += 4) {
    float acc[4] = {0, 0, 0, 0};
    for (size_t b = 0; b < blocks; ++b) {
      int32_t dot[4] = {0, 0, 0, 0};
      qs8_dot4(row + b * block, w + n * k + b * block, k, block, dot);
      for (size_t j = 0; j < 4; ++j) {
        const size_t s = (n + j) * blocks + b;
        acc[j] += static_cast<float>(wrap_add(dot[j], -wrap_mul(row_zp, sums[s]))) * scales[s];
      }
    }
    for (size_t j = 0; j < 4; ++j) finish(n + j, acc[j]);
  }
  for (; n < n1; ++n) {
    float acc = 0;
    for (size_t b = 0; b < blocks; ++b) {
      const size_t s = n * blocks + b;
      const int32_t dot = wrap_add(qs8_dot(row + b * block, w + n * k + b * block, block),
                                   -wrap_mul(row_zp, sums[s]));
      acc += static_cast<float>(dot) * scales[s];
    }
    finish(n, acc);
  }
}

}  // namespace

Error check_quantized_fc(const Node& node, const Value* values) {
  const Value& x = in(node, values, 0);
  const Value& w = in(node, values, 1);
  const Value& y = out(node, values);
  TRI_TRY(expect_dtype(node, x, "input", DType::QInt8, DType::QDInt8));
  TRI_TRY(expect_rank(node, w, "filter", 2));
  TRI_TRY(expect_constant(node, w, "filter"));
  const FcShape s = fc_shape(node, values);
  const bool has_bias = node.inputs[2] != kInvalidId;
  if (x.dtype == DType::QDInt8) {
    // One (scale, zero point) per row of the [rows, K] input, as ExecuTorch
    // writes every FullyConnected input; the kernel indexes them by row.
    TRI_CHECK(x.quant.num_nonbatch_dims == 1, Error::NotSupported,
              "node %u: a qdint8 input quantized over %d non-batch dims (1 expected)", node.index,
              static_cast<int>(x.quant.num_nonbatch_dims));
    TRI_TRY(expect_dtype(node, w, "filter", DType::QCInt8, DType::QCInt4, DType::QBInt4));
    TRI_TRY(expect_dtype(node, y, "output", DType::F32));
    TRI_CHECK((node.flags & kFlagTransposeWeights) == 0 || w.dtype == DType::QCInt8,
              Error::NotSupported, "transposed %s filters are not supported", dtype_name(w.dtype));
    if (has_bias) {
      TRI_TRY(expect_dtype(node, in(node, values, 2), "bias", DType::F32));
      TRI_TRY(expect_constant(node, in(node, values, 2), "bias"));
    }
  } else {
    TRI_TRY(expect_dtype(node, w, "filter", DType::QInt8, DType::QCInt8));
    TRI_TRY(expect_dtype(node, y, "output", DType::QInt8));
    if (has_bias) {
      TRI_TRY(expect_dtype(node, in(node, values, 2), "bias", DType::QInt32, DType::QCInt32));
      TRI_TRY(expect_constant(node, in(node, values, 2), "bias"));
    }
  }
  if (w.dtype != DType::QInt8) {
    const int32_t channel_dim = (node.flags & kFlagTransposeWeights) != 0 ? 1 : 0;
    TRI_CHECK(w.quant.channel_dim == channel_dim || w.dtype == DType::QBInt4,
              Error::NotSupported, "filter scales along dim %d; %s takes them along dim %d",
              static_cast<int>(w.quant.channel_dim), node_type_name(node.type), channel_dim);
  }
  if (has_bias) {
    TRI_CHECK(in(node, values, 2).numel() == s.out, Error::InvalidProgram,
              "bias has %zu elements for %zu outputs", in(node, values, 2).numel(), s.out);
  }
  return Error::Ok;
}

size_t quantized_fc_packed_bytes(const Node& node, const Value* values) {
  return layout(node, values, nullptr).total();
}

void quantized_fc_pack(const Node& node, const Value* values, void* dst) {
  const QPacked p = layout(node, values, dst);
  const FcShape s = fc_shape(node, values);
  const Value& x = in(node, values, 0);
  const Value& w = in(node, values, 1);
  const Value& y = out(node, values);
  const bool has_bias = node.inputs[2] != kInvalidId;
  uint8_t* base = static_cast<uint8_t*>(dst);
  int8_t* weights = reinterpret_cast<int8_t*>(base + p.weights_offset());
  int32_t* sums = reinterpret_cast<int32_t*>(base + p.sums_offset());
  float* scales = reinterpret_cast<float*>(base + p.scales_offset());
  const size_t block = p.blocks == 0 ? 0 : s.in / p.blocks;
  for (size_t n = 0; n < s.out; ++n) {
    for (size_t b = 0; b < p.blocks; ++b) {
      int32_t sum = 0;
      for (size_t k = b * block; k < (b + 1) * block; ++k) {
        const int32_t q = weight_q(w, node, n, k, s);
        weights[n * s.in + k] = static_cast<int8_t>(q);
        sum = wrap_add(sum, q);
      }
      sums[n * p.blocks + b] = sum;
      scales[n * p.blocks + b] =
          w.dtype == DType::QBInt4 ? block_scale(w, n, b, p.blocks) : channel_scale(w, n);
    }
  }
  if (is_dynamic(node, values)) {
    float* bias = reinterpret_cast<float*>(base);
    for (size_t n = 0; n < s.out; ++n) {
      bias[n] = has_bias ? in(node, values, 2).data_as<const float>()[n] : 0.0f;
    }
    return;
  }
  // Static: fold the bias and the input zero point into one int32 per
  // output, and the three scales into one.
  int32_t* bias = reinterpret_cast<int32_t*>(base);
  for (size_t n = 0; n < s.out; ++n) {
    const float acc_scale = x.quant.scale * scales[n];
    const int32_t b = has_bias ? bias_in_accumulator_units(in(node, values, 2), n,
                                                             static_cast<double>(x.quant.scale) * scales[n]) : 0;
    bias[n] = wrap_add(b, -wrap_mul(x.quant.zero_point, sums[n]));
    scales[n] = acc_scale / y.quant.scale;
  }
}

size_t quantized_fc_scratch_bytes(const Node&, const Value*) { return 0; }

Error run_quantized_fc(const Node& node, Value* values, RunContext&) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values);
  const QPacked p = layout(node, values, node.packed);
  const size_t k = p.k;
  const size_t n_out = p.n;
  const size_t rows = k == 0 ? 0 : x.numel() / k;
  const int8_t* a = x.data_as<const int8_t>();
  const int8_t* w = p.weights();
  if (is_dynamic(node, values)) {
    // Per-row parameters follow the data (Convert wrote them). Threads take
    // groups of four output features, so one token (a single row, as in LLM
    // decoding) spreads over them too.
    const uint8_t* params = static_cast<const uint8_t*>(x.data()) + qd8_params_offset(x.numel());
    float* c = y.data_as<float>();
    const size_t groups = (n_out + 3) / 4;
    const size_t macs_per_group = rows * k * 4 + 1;
    parallel_for(groups, kMinMacsPerPiece / macs_per_group + 1, [&](size_t g0, size_t g1) {
      for (size_t r = 0; r < rows; ++r) {
        float row_scale;
        int32_t row_zp;
        memcpy(&row_scale, params + r * 8, 4);
        memcpy(&row_zp, params + r * 8 + 4, 4);
        qd8_row(a + r * k, row_scale, row_zp, p, node, g0 * 4, std::min(g1 * 4, n_out),
                c + r * n_out);
      }
    });
    return Error::Ok;
  }
  int32_t qmin, qmax;
  quantized_output_range(node, y, &qmin, &qmax);
  const int32_t zp = y.quant.zero_point;
  int8_t* c = y.data_as<int8_t>();
  for (size_t r = 0; r < rows; ++r) {
    const int8_t* row = a + r * k;
    size_t n = 0;
    for (; n + 4 <= n_out; n += 4) {
      int32_t acc[4] = {p.ibias()[n], p.ibias()[n + 1], p.ibias()[n + 2], p.ibias()[n + 3]};
      qs8_dot4(row, w + n * k, k, k, acc);
      for (size_t j = 0; j < 4; ++j) {
        c[r * n_out + n + j] =
            static_cast<int8_t>(requantize(acc[j], p.scales()[n + j], zp, qmin, qmax));
      }
    }
    for (; n < n_out; ++n) {
      const int32_t acc = wrap_add(p.ibias()[n], qs8_dot(row, w + n * k, k));
      c[r * n_out + n] = static_cast<int8_t>(requantize(acc, p.scales()[n], zp, qmin, qmax));
    }
  }
  return Error::Ok;
}

}  // namespace tri::xnnpack
