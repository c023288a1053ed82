#include "cpp/kernels/llm/attention.h"

#include <cinttypes>
#include <cmath>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/resize.h"

namespace tri {

BshdView BshdView::of(const Tensor& t, bool seq_at_dim_2) {
  BshdView v;
  v.data = static_cast<const char*>(t.data());
  v.type = t.scalar_type();
  if (t.dim() != 4) return v;
  const int32_t s_dim = seq_at_dim_2 ? 2 : 1;
  const int32_t h_dim = seq_at_dim_2 ? 1 : 2;
  v.batch = t.size(0);
  v.seq = t.size(s_dim);
  v.heads = t.size(h_dim);
  v.dim = t.size(3);
  // Contiguous [B, X, Y, D] (checked by the kernels).
  const int64_t strides[4] = {static_cast<int64_t>(t.size(1)) * t.size(2) * t.size(3),
                              static_cast<int64_t>(t.size(2)) * t.size(3), t.size(3), 1};
  v.stride_b = strides[0];
  v.stride_s = strides[s_dim];
  v.stride_h = strides[h_dim];
  return v;
}

const char* BshdView::row(int64_t b, int64_t s, int64_t h) const {
  return data + (b * stride_b + s * stride_s + h * stride_h) *
                    static_cast<int64_t>(element_size(type));
}

namespace {

float value_at(const BshdView& x, const TokenQuant& q, int64_t b, int64_t s, int64_t h,
               int64_t d) {
  const char* r = x.row(b, s, h);
  if (!q.present) return reinterpret_cast<const float*>(r)[d];
  const float zp = static_cast<float>(*reinterpret_cast<const int8_t*>(q.zero_points.row(b, s, h)));
  const float scale = *reinterpret_cast<const float*>(q.scales.row(b, s, h));
  return (static_cast<float>(reinterpret_cast<const int8_t*>(r)[d]) - zp) * scale;
}

Error check_quant(const TokenQuant& q, const BshdView& x, const char* what) {
  if (!q.present) return Error::Ok;
  TRI_CHECK(x.type == ScalarType::Char, Error::InvalidType, "%s must be int8 when quantized", what);
  TRI_CHECK(q.zero_points.type == ScalarType::Char && q.scales.type == ScalarType::Float,
            Error::InvalidType, "%s: zero points must be int8 and scales float32", what);
  TRI_CHECK(q.zero_points.batch == x.batch && q.zero_points.seq == x.seq &&
                q.zero_points.heads == x.heads && q.zero_points.dim == 1 &&
                q.scales.batch == x.batch && q.scales.seq == x.seq && q.scales.heads == x.heads &&
                q.scales.dim == 1,
            Error::InvalidArgument, "%s: zero points and scales must be one per token and head",
            what);
  return Error::Ok;
}

}  // namespace

Error attend(const AttentionArgs& a) {
  const BshdView& q = a.q;
  const BshdView& k = a.k;
  const BshdView& v = a.v;
  TRI_CHECK(q.data != nullptr && q.batch > 0 && k.batch == q.batch && v.batch == q.batch,
            Error::InvalidArgument, "query, key and value must be 4-D with the same batch");
  TRI_CHECK(!a.qq.present ? q.type == ScalarType::Float : true, Error::InvalidType,
            "query must be float32");
  TRI_CHECK(!a.kq.present ? k.type == ScalarType::Float && v.type == ScalarType::Float : true,
            Error::InvalidType, "key and value must be float32");
  TRI_TRY(check_quant(a.qq, q, "query"));
  TRI_TRY(check_quant(a.kq, k, "key"));
  TRI_TRY(check_quant(a.vq, v, "value"));
  TRI_CHECK(k.dim == q.dim && v.dim == q.dim, Error::InvalidArgument,
            "query, key and value head sizes differ (%" PRId64 ", %" PRId64 ", %" PRId64 ")",
            q.dim, k.dim, v.dim);
  TRI_CHECK(k.heads > 0 && k.heads == v.heads && q.heads % k.heads == 0, Error::InvalidArgument,
            "%" PRId64 " query heads cannot share %" PRId64 " key/value heads", q.heads, k.heads);
  TRI_CHECK(k.seq == v.seq, Error::InvalidArgument, "key and value caches differ in length");
  TRI_CHECK(!(a.mask != nullptr && a.is_causal), Error::InvalidArgument,
            "attn_mask and is_causal cannot both be set");
  TRI_CHECK(a.start_pos >= 0, Error::InvalidArgument, "start_pos %" PRId64 " is negative",
            a.start_pos);
  int64_t keys = a.start_pos + q.seq;
  const float* mask = nullptr;
  if (a.mask != nullptr) {
    const Tensor& m = *a.mask;
    TRI_CHECK(m.scalar_type() == ScalarType::Float && m.dim() == 2 && m.size(0) == q.seq &&
                  m.is_contiguous(),
              Error::InvalidArgument, "attn_mask must be a contiguous float32 [%" PRId64 ", keys]",
              q.seq);
    // Current kernels mask the whole cache; older ones its first start_pos + S.
    TRI_CHECK(m.size(1) == k.seq || m.size(1) == keys, Error::InvalidArgument,
              "attn_mask has %d columns; expected %" PRId64 " (the cache) or %" PRId64, m.size(1),
              k.seq, keys);
    keys = m.size(1);
    mask = static_cast<const float*>(m.data());
  }
  TRI_CHECK(keys <= k.seq, Error::InvalidArgument,
            "start_pos %" PRId64 " + %" PRId64 " tokens pass the cache's %" PRId64 " positions",
            a.start_pos, q.seq, k.seq);
  Tensor& out = *a.out;
  TRI_CHECK(out.scalar_type() == ScalarType::Float, Error::InvalidType, "out must be float32");
  const int64_t sizes[4] = {q.batch, a.seq_at_dim_2 ? q.heads : q.seq,
                            a.seq_at_dim_2 ? q.seq : q.heads, q.dim};
  TRI_TRY(resize_out(out, Span<const int64_t>(sizes, 4)));
  TRI_CHECK(out.is_contiguous(), Error::NotSupported, "out must be contiguous");
  const BshdView o = BshdView::of(out, a.seq_at_dim_2);
  const double scale = a.scale > 0 ? a.scale : 1.0 / std::sqrt(static_cast<double>(q.dim));
  const int64_t group = q.heads / k.heads;
  for (int64_t b = 0; b < q.batch; ++b) {
    for (int64_t h = 0; h < q.heads; ++h) {
      const int64_t hk = h / group;
      for (int64_t r = 0; r < q.seq; ++r) {
        const int64_t visible = a.is_causal ? a.start_pos + r + 1 : keys;
        auto score = [&](int64_t t) {
          double dot = 0;
          for (int64_t d = 0; d < q.dim; ++d) {
            dot += static_cast<double>(value_at(q, a.qq, b, r, h, d)) *
                   value_at(k, a.kq, b, t, hk, d);
          }
          double s = dot * scale;
          if (mask != nullptr) s += mask[r * keys + t];
          return s;
        };
        double max = -INFINITY;
        for (int64_t t = 0; t < visible; ++t) {
          const double s = score(t);
          max = s > max ? s : max;
        }
        float* dst = const_cast<float*>(reinterpret_cast<const float*>(o.row(b, r, h)));
        for (int64_t d = 0; d < q.dim; ++d) dst[d] = 0;
        double total = 0;
        // Accumulated in double per element, stored once.
        for (int64_t d0 = 0; d0 < q.dim; d0 += 64) {
          const int64_t d1 = d0 + 64 < q.dim ? d0 + 64 : q.dim;
          double acc[64] = {};
          double sum = 0;
          for (int64_t t = 0; t < visible; ++t) {
            const double p = std::isinf(max) && max < 0 ? NAN : std::exp(score(t) - max);
            sum += p;
            for (int64_t d = d0; d < d1; ++d) acc[d - d0] += p * value_at(v, a.vq, b, t, hk, d);
          }
          total = sum;
          for (int64_t d = d0; d < d1; ++d) dst[d] = static_cast<float>(acc[d - d0] / total);
        }
      }
    }
  }
  return Error::Ok;
}

}  // namespace tri
