// ScaledDotProductAttention as XNNPACK defines it: query [B, H, T, C] scaled
// per channel by `scale` [C], keys [B, H or 1, N, C], values [B, H or 1, N,
// D], an additive mask [T, N]; softmax over the keys; output [B, H, T, D].
#include <cinttypes>
#include <cmath>

#include "cpp/delegates/xnnpack/xnn_ops.h"

namespace tri::xnnpack {
namespace {

Error check(Node& node, const Value* values) {
  const char* names[5] = {"query", "key", "value", "scale", "mask"};
  for (int i = 0; i < 5; ++i) TRI_TRY(expect_dtype(node, in(node, values, i), names[i], DType::F32));
  TRI_TRY(expect_dtype(node, out(node, values), "output", DType::F32));
  TRI_TRY(expect_rank(node, in(node, values, 0), "query", 4));
  TRI_TRY(expect_rank(node, in(node, values, 1), "key", 4));
  TRI_TRY(expect_rank(node, in(node, values, 2), "value", 4));
  TRI_TRY(expect_rank(node, in(node, values, 3), "scale", 1));
  return expect_rank(node, in(node, values, 4), "mask", 2);
}

Error reshape(const Node& node, Value* values) {
  const Value& q = in(node, values, 0);
  const Value& k = in(node, values, 1);
  const Value& v = in(node, values, 2);
  const Value& scale = in(node, values, 3);
  const Value& mask = in(node, values, 4);
  TRI_CHECK(k.dim(0) == q.dim(0) && v.dim(0) == q.dim(0) &&
                (k.dim(1) == q.dim(1) || k.dim(1) == 1) && v.dim(1) == k.dim(1) &&
                k.dim(3) == q.dim(3) && v.dim(2) == k.dim(2) && scale.dim(0) == q.dim(3) &&
                mask.dim(0) == q.dim(2) && mask.dim(1) == k.dim(2),
            Error::InvalidArgument,
            "query [%d, %d, %d, %d], key [%d, %d, %d, %d], value [%d, %d, %d, %d], scale [%d], "
            "mask [%d, %d] do not match",
            q.dim(0), q.dim(1), q.dim(2), q.dim(3), k.dim(0), k.dim(1), k.dim(2), k.dim(3),
            v.dim(0), v.dim(1), v.dim(2), v.dim(3), scale.dim(0), mask.dim(0), mask.dim(1));
  const int32_t dims[4] = {q.dim(0), q.dim(1), q.dim(2), v.dim(3)};
  return resize_output(node, values, 0, dims, 4);
}

size_t scratch(const Node& node, const Value* values) {
  return static_cast<size_t>(in(node, values, 1).dim(2)) * sizeof(float) + 64;
}

Error run(const Node& node, Value* values, RunContext& ctx) {
  const Value& q = in(node, values, 0);
  const Value& k = in(node, values, 1);
  const Value& v = in(node, values, 2);
  const float* scale = in(node, values, 3).data_as<const float>();
  const float* mask = in(node, values, 4).data_as<const float>();
  Value& y = out(node, values);
  const size_t heads = static_cast<size_t>(q.dim(1));
  const size_t kv_heads = static_cast<size_t>(k.dim(1));
  const size_t t_len = static_cast<size_t>(q.dim(2));
  const size_t c = static_cast<size_t>(q.dim(3));
  const size_t n = static_cast<size_t>(k.dim(2));
  const size_t d = static_cast<size_t>(v.dim(3));
  float* logits = ctx.scratch->allocate_array<float>(n);
  TRI_CHECK(logits != nullptr, Error::MemoryAllocationFailed, "no scratch for attention logits");
  for (size_t b = 0; b < static_cast<size_t>(q.dim(0)); ++b) {
    for (size_t h = 0; h < heads; ++h) {
      const size_t kh = kv_heads == 1 ? 0 : h;
      const float* qh = q.data_as<const float>() + (b * heads + h) * t_len * c;
      const float* keys = k.data_as<const float>() + (b * kv_heads + kh) * n * c;
      const float* vals = v.data_as<const float>() + (b * kv_heads + kh) * n * d;
      float* yh = y.data_as<float>() + (b * heads + h) * t_len * d;
      for (size_t t = 0; t < t_len; ++t) {
        float top = -__builtin_inff();
        for (size_t j = 0; j < n; ++j) {
          float dot = 0;
          for (size_t i = 0; i < c; ++i) dot += qh[t * c + i] * scale[i] * keys[j * c + i];
          logits[j] = dot + mask[t * n + j];
          top = logits[j] > top ? logits[j] : top;
        }
        float sum = 0;
        for (size_t j = 0; j < n; ++j) {
          logits[j] = std::isinf(top) && top < 0 ? 0.0f : std::exp(logits[j] - top);
          sum += logits[j];
        }
        const float inv = sum > 0 ? 1.0f / sum : 0.0f;
        for (size_t i = 0; i < d; ++i) {
          float acc = 0;
          for (size_t j = 0; j < n; ++j) acc += logits[j] * vals[j * d + i];
          yh[t * d + i] = acc * inv;
        }
      }
    }
  }
  return Error::Ok;
}

const OpDef kAttention = {&check, &reshape, &scratch, nullptr, nullptr, &run};

}  // namespace

const OpDef* attention_op_def(NodeType type) {
  return type == NodeType::ScaledDotProductAttention ? &kAttention : nullptr;
}

}  // namespace tri::xnnpack
