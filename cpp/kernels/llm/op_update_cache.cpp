// llama::update_cache.out and update_cache_with_indices.out: the new keys or
// values [B, S, H, D] written into a KV cache [B, L, H, D] (a mutable buffer,
// written in place) at rows start_pos .. start_pos + S - 1, or at the rows
// `indices` [B, S] names. `out` is a placeholder that ExecuTorch's kernels
// never write. Newer exports add `bool is_seq_dim_2` ([B, H, S, D]) after
// start_pos / indices: the argument count tells the layouts apart.
#include <cinttypes>
#include <cstring>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"

namespace tri {
namespace kernels {
namespace {

Error write_rows(const Tensor& value, Tensor& cache, int64_t start_pos, const Tensor* indices,
                 bool seq_dim_2) {
  TRI_CHECK(value.dim() == 4 && cache.dim() == 4, Error::InvalidArgument,
            "value and cache must be 4-D (ranks %d and %d)", value.dim(), cache.dim());
  TRI_CHECK(value.is_contiguous() && cache.is_contiguous(), Error::NotSupported,
            "value and cache must be contiguous");
  TRI_CHECK(value.scalar_type() == cache.scalar_type(), Error::InvalidType,
            "value is %s but the cache is %s", scalar_type_name(value.scalar_type()),
            scalar_type_name(cache.scalar_type()));
  const int32_t s_dim = seq_dim_2 ? 2 : 1;
  const int32_t h_dim = seq_dim_2 ? 1 : 2;
  TRI_CHECK(value.size(0) == cache.size(0) && value.size(h_dim) == cache.size(h_dim) &&
                value.size(3) == cache.size(3),
            Error::InvalidArgument, "value does not match the cache's batch, heads or head size");
  const int64_t batch = value.size(0), seq = value.size(s_dim), heads = value.size(h_dim);
  const int64_t len = cache.size(s_dim);
  const size_t row_bytes = static_cast<size_t>(value.size(3)) * element_size(value.scalar_type());
  if (indices == nullptr) {
    TRI_CHECK(start_pos >= 0 && start_pos + seq <= len, Error::InvalidArgument,
              "start_pos %" PRId64 " + %" PRId64 " tokens pass the cache's %" PRId64 " positions",
              start_pos, seq, len);
  } else {
    TRI_CHECK(indices->scalar_type() == ScalarType::Long && indices->dim() == 2 &&
                  indices->size(0) == batch && indices->size(1) == seq && indices->is_contiguous(),
              Error::InvalidArgument, "indices must be a contiguous int64 [%" PRId64 ", %" PRId64 "]",
              batch, seq);
  }
  const char* src = static_cast<const char*>(value.data());
  char* dst = static_cast<char*>(cache.mutable_data());
  const int64_t* idx = indices != nullptr ? static_cast<const int64_t*>(indices->data()) : nullptr;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t s = 0; s < seq; ++s) {
      int64_t row = start_pos + s;
      if (idx != nullptr) {
        row = idx[b * seq + s];
        TRI_CHECK(row >= 0 && row < len, Error::InvalidArgument,
                  "indices[%" PRId64 ", %" PRId64 "] = %" PRId64 " is outside the cache's %" PRId64
                  " positions", b, s, row, len);
      }
      for (int64_t h = 0; h < heads; ++h) {
        const int64_t from = seq_dim_2 ? (b * heads + h) * seq + s : (b * seq + s) * heads + h;
        const int64_t to = seq_dim_2 ? (b * heads + h) * len + row : (b * len + row) * heads + h;
        std::memmove(dst + to * static_cast<int64_t>(row_bytes),
                    src + from * static_cast<int64_t>(row_bytes), row_bytes);
      }
    }
  }
  return Error::Ok;
}

}  // namespace

Error update_cache_out(KernelContext&, KernelArgs& args) {
  const size_t n = args.size();
  TRI_CHECK(n == 5 || n == 6, Error::InvalidArgument,
            "update_cache takes 5 arguments (6 with is_seq_dim_2), the call passes %zu", n);
  TRI_ASSIGN_OR_RETURN(Tensor* value, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* cache, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const int64_t start_pos, args.int_value(2));
  bool seq_dim_2 = false;
  if (n == 6) {
    TRI_ASSIGN_OR_RETURN(seq_dim_2, args.bool_value(3));
  }
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(n - 2));
  (void)out;
  return write_rows(*value, *cache, start_pos, nullptr, seq_dim_2);
}

Error update_cache_with_indices_out(KernelContext&, KernelArgs& args) {
  const size_t n = args.size();
  TRI_CHECK(n == 6 || n == 7, Error::InvalidArgument,
            "update_cache_with_indices takes 6 arguments (7 with is_seq_dim_2), the call passes %zu",
            n);
  TRI_ASSIGN_OR_RETURN(Tensor* value, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* cache, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const int64_t start_pos, args.int_value(2));
  TRI_ASSIGN_OR_RETURN(Tensor* indices, args.tensor(3));
  bool seq_dim_2 = false;
  if (n == 7) {
    TRI_ASSIGN_OR_RETURN(seq_dim_2, args.bool_value(4));
  }
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(n - 2));
  (void)out;
  return write_rows(*value, *cache, start_pos, indices, seq_dim_2);
}

}  // namespace kernels
}  // namespace tri
