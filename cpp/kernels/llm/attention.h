// Scaled dot-product attention over a KV cache, as ExecuTorch's llama::
// custom ops compute it (extension/llm/custom_ops): query [B, S, Hq, D] and
// caches [B, L, Hkv, D] (or [B, H, S, D] when the sequence is dim 2), query
// head h reading kv head h / (Hq / Hkv). Query row r sits at absolute
// position start_pos + r: without a mask it sees keys 0 .. start_pos + S - 1
// (causal: 0 .. start_pos + r); a float mask [S, keys] is added to the
// scaled scores instead.
#pragma once

#include <cstdint>

#include "cpp/runtime/core/error.h"
#include "cpp/runtime/core/tensor.h"

namespace tri {

// A 4-D tensor addressed as (b, s, h, d), d contiguous.
struct BshdView {
  const char* data = nullptr;
  ScalarType type = ScalarType::Float;
  int64_t batch = 0, seq = 0, heads = 0, dim = 0;
  int64_t stride_b = 0, stride_s = 0, stride_h = 0;  // elements

  static BshdView of(const Tensor& t, bool seq_at_dim_2);
  const char* row(int64_t b, int64_t s, int64_t h) const;
};

// Per-token quantization of q, k or v (custom_quantized_sdpa): int8 values
// dequantized as (x - zero_point) * scale, with one zero point (int8) and
// scale (float) per (b, s, h).
struct TokenQuant {
  BshdView zero_points;
  BshdView scales;
  bool present = false;
};

struct AttentionArgs {
  BshdView q, k, v;
  TokenQuant qq, kq, vq;
  int64_t start_pos = 0;
  const Tensor* mask = nullptr;
  bool is_causal = false;
  double scale = 0;  // 0: 1 / sqrt(D)
  Tensor* out = nullptr;
  bool seq_at_dim_2 = false;
};

// Checks shapes and ranges, then writes out (float32, query's shape).
Error attend(const AttentionArgs& a);

}  // namespace tri
