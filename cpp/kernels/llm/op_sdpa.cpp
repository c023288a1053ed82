// llama::custom_sdpa.out, llama::sdpa_with_kv_cache.out and
// llama::custom_quantized_sdpa.out (ExecuTorch's LLM custom ops; the
// arithmetic is in attention.h). Newer exports add a trailing
// `bool is_seq_dim_2` input to custom_sdpa ([B, H, S, D] layout): the call's
// argument count tells the two layouts apart.
#include <cinttypes>
#include <initializer_list>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/llm/attention.h"

namespace tri {
namespace kernels {
namespace {

Error read_common(KernelArgs& args, size_t at, AttentionArgs* a) {
  TRI_ASSIGN_OR_RETURN(a->mask, args.optional_tensor(at));
  TRI_ASSIGN_OR_RETURN(const double dropout, args.double_value(at + 1));
  (void)dropout;  // inference: ExecuTorch's kernels ignore it too
  TRI_ASSIGN_OR_RETURN(a->is_causal, args.bool_value(at + 2));
  TRI_ASSIGN_OR_RETURN(const Optional<double> scale, args.optional_double(at + 3));
  if (scale.has_value) {
    TRI_CHECK(scale.value > 0, Error::InvalidArgument, "scale must be positive, got %g",
              scale.value);
    a->scale = scale.value;
  }
  return Error::Ok;
}

Error check_contiguous(const Tensor& t, const char* what) {
  TRI_CHECK(t.dim() == 4, Error::InvalidArgument, "%s must be 4-D, got rank %d", what, t.dim());
  TRI_CHECK(t.is_contiguous(), Error::NotSupported, "%s must be contiguous", what);
  return Error::Ok;
}

Error token_quant(KernelArgs& args, size_t at, bool seq_at_dim_2, const char* what,
                  TokenQuant* q) {
  TRI_ASSIGN_OR_RETURN(Tensor* zp, args.optional_tensor(at));
  TRI_ASSIGN_OR_RETURN(Tensor* scales, args.optional_tensor(at + 1));
  TRI_CHECK(zp != nullptr && scales != nullptr, Error::InvalidArgument,
            "%s: custom_quantized_sdpa needs zero points and scales", what);
  TRI_TRY(check_contiguous(*zp, what));
  TRI_TRY(check_contiguous(*scales, what));
  q->zero_points = BshdView::of(*zp, seq_at_dim_2);
  q->scales = BshdView::of(*scales, seq_at_dim_2);
  q->present = true;
  return Error::Ok;
}

}  // namespace

Error custom_sdpa_out(KernelContext&, KernelArgs& args) {
  const size_t n = args.size();
  TRI_CHECK(n == 10 || n == 11, Error::InvalidArgument,
            "custom_sdpa takes 10 arguments (11 with is_seq_dim_2), the call passes %zu", n);
  AttentionArgs a;
  if (n == 11) {
    TRI_ASSIGN_OR_RETURN(a.seq_at_dim_2, args.bool_value(8));
  }
  TRI_ASSIGN_OR_RETURN(Tensor* q, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* k, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* v, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(a.start_pos, args.int_value(3));
  TRI_TRY(read_common(args, 4, &a));
  TRI_ASSIGN_OR_RETURN(a.out, args.tensor(n - 2));
  TRI_TRY(check_contiguous(*q, "query"));
  TRI_TRY(check_contiguous(*k, "key"));
  TRI_TRY(check_contiguous(*v, "value"));
  a.q = BshdView::of(*q, a.seq_at_dim_2);
  a.k = BshdView::of(*k, a.seq_at_dim_2);
  a.v = BshdView::of(*v, a.seq_at_dim_2);
  return attend(a);
}

Error sdpa_with_kv_cache_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* q, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* key, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* value, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(Tensor* key_cache, args.tensor(3));
  TRI_ASSIGN_OR_RETURN(Tensor* value_cache, args.tensor(4));
  AttentionArgs a;
  TRI_ASSIGN_OR_RETURN(a.start_pos, args.int_value(5));
  TRI_ASSIGN_OR_RETURN(const int64_t seq_len, args.int_value(6));
  TRI_TRY(read_common(args, 7, &a));
  TRI_ASSIGN_OR_RETURN(a.out, args.tensor(11));
  for (const Tensor* t : {q, key, value, key_cache, value_cache}) {
    TRI_TRY(check_contiguous(*t, "query, key, value and the caches"));
  }
  TRI_CHECK(key->scalar_type() == ScalarType::Float && value->scalar_type() == ScalarType::Float &&
                key_cache->scalar_type() == ScalarType::Float &&
                value_cache->scalar_type() == ScalarType::Float,
            Error::InvalidType, "key, value and the caches must be float32");
  const int64_t cache_len = key_cache->size(1);
  TRI_CHECK(a.start_pos >= 0 && a.start_pos < cache_len, Error::InvalidArgument,
            "start_pos %" PRId64 " is outside the cache's %" PRId64 " positions", a.start_pos,
            cache_len);
  TRI_CHECK(seq_len >= 0 && a.start_pos + seq_len <= cache_len, Error::InvalidArgument,
            "start_pos %" PRId64 " + seq_len %" PRId64 " passes the cache's %" PRId64 " positions",
            a.start_pos, seq_len, cache_len);
  // The new keys and values go into the caches (mutable buffers) first.
  for (int32_t pass = 0; pass < 2; ++pass) {
    const Tensor& src = pass == 0 ? *key : *value;
    Tensor& cache = pass == 0 ? *key_cache : *value_cache;
    TRI_CHECK(src.size(0) == cache.size(0) && src.size(2) == cache.size(2) &&
                  src.size(3) == cache.size(3),
              Error::InvalidArgument, "%s does not match its cache's batch, heads or head size",
              pass == 0 ? "key" : "value");
    TRI_CHECK(a.start_pos + src.size(1) <= cache_len, Error::InvalidArgument,
              "start_pos %" PRId64 " + %d new tokens pass the cache's %" PRId64 " positions",
              a.start_pos, src.size(1), cache_len);
    const int64_t row = static_cast<int64_t>(src.size(2)) * src.size(3);
    const int64_t per_batch_src = src.size(1) * row;
    const int64_t per_batch_cache = cache_len * row;
    const float* s = static_cast<const float*>(src.data());
    float* c = static_cast<float*>(cache.mutable_data());
    for (int64_t b = 0; b < src.size(0); ++b) {
      const float* from = s + b * per_batch_src;
      float* to = c + b * per_batch_cache + a.start_pos * row;
      for (int64_t i = 0; i < per_batch_src; ++i) to[i] = from[i];
    }
  }
  a.q = BshdView::of(*q, false);
  a.k = BshdView::of(*key_cache, false);
  a.v = BshdView::of(*value_cache, false);
  return attend(a);
}

Error custom_quantized_sdpa_out(KernelContext&, KernelArgs& args) {
  const size_t n = args.size();
  TRI_CHECK(n == 16 || n == 17, Error::InvalidArgument,
            "custom_quantized_sdpa takes 17 arguments (16 without is_seq_at_dim_2), the call "
            "passes %zu", n);
  AttentionArgs a;
  if (n == 17) {
    TRI_ASSIGN_OR_RETURN(a.seq_at_dim_2, args.bool_value(14));
  }
  TRI_ASSIGN_OR_RETURN(Tensor* q, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* k, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(Tensor* v, args.tensor(2));
  TRI_ASSIGN_OR_RETURN(a.start_pos, args.int_value(3));
  TRI_TRY(read_common(args, 4, &a));
  TRI_TRY(check_contiguous(*q, "query"));
  TRI_TRY(check_contiguous(*k, "key"));
  TRI_TRY(check_contiguous(*v, "value"));
  TRI_TRY(token_quant(args, 8, a.seq_at_dim_2, "query", &a.qq));
  TRI_TRY(token_quant(args, 10, a.seq_at_dim_2, "key", &a.kq));
  TRI_TRY(token_quant(args, 12, a.seq_at_dim_2, "value", &a.vq));
  TRI_ASSIGN_OR_RETURN(a.out, args.tensor(n - 2));
  a.q = BshdView::of(*q, a.seq_at_dim_2);
  a.k = BshdView::of(*k, a.seq_at_dim_2);
  a.v = BshdView::of(*v, a.seq_at_dim_2);
  return attend(a);
}

}  // namespace kernels
}  // namespace tri
