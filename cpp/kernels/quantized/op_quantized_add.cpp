// quantized_decomposed::add.out: a + b of two quantized tensors, as
// ExecuTorch's kernel computes it: each dequantized in double and rounded
// to float, summed in float, requantized with 1 / out_scale (float) and
// round-half-to-even, then clamped. Same shapes and dtype, no broadcasting;
// quant ranges within [0, 255] (uint8 programs).
#include <cinttypes>
#include <cmath>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

struct QParams {
  float scale = 1;
  int32_t zero_point = 0;
  int64_t qmin = 0;
  int64_t qmax = 0;
};

Error read_qparams(KernelArgs& args, size_t at, const char* what, QParams* q) {
  TRI_ASSIGN_OR_RETURN(const double scale, args.double_value(at));
  TRI_ASSIGN_OR_RETURN(const int64_t zp, args.int_value(at + 1));
  TRI_ASSIGN_OR_RETURN(q->qmin, args.int_value(at + 2));
  TRI_ASSIGN_OR_RETURN(q->qmax, args.int_value(at + 3));
  TRI_CHECK(q->qmin >= 0 && q->qmax <= 255 && q->qmin <= q->qmax, Error::InvalidArgument,
            "%s: quant range [%" PRId64 ", %" PRId64 "] is not within [0, 255]", what, q->qmin,
            q->qmax);
  q->scale = static_cast<float>(scale);
  q->zero_point = static_cast<int32_t>(zp);
  return Error::Ok;
}

}  // namespace

Error quantized_add_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* a, args.tensor(0));
  QParams qa, qb, qo;
  TRI_TRY(read_qparams(args, 1, "a", &qa));
  TRI_ASSIGN_OR_RETURN(Tensor* b, args.tensor(5));
  TRI_TRY(read_qparams(args, 6, "b", &qb));
  TRI_ASSIGN_OR_RETURN(const double out_scale, args.double_value(10));
  TRI_ASSIGN_OR_RETURN(const int64_t out_zp, args.int_value(11));
  TRI_ASSIGN_OR_RETURN(qo.qmin, args.int_value(12));
  TRI_ASSIGN_OR_RETURN(qo.qmax, args.int_value(13));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(14));
  TRI_CHECK(qo.qmin >= 0 && qo.qmax <= 255 && qo.qmin <= qo.qmax, Error::InvalidArgument,
            "out: quant range [%" PRId64 ", %" PRId64 "] is not within [0, 255]", qo.qmin, qo.qmax);
  const ScalarType t = a->scalar_type();
  TRI_TRY(check_dtype(t, kIntTypes, "a"));
  TRI_TRY(check_same_dtype(*b, t, "b"));
  TRI_TRY(check_same_dtype(*out, t, "out"));
  TRI_CHECK(a->dim() == b->dim() && a->numel() == b->numel(), Error::InvalidArgument,
            "a and b must have the same shape");
  for (int32_t d = 0; d < a->dim(); ++d) {
    TRI_CHECK(a->size(d) == b->size(d), Error::InvalidArgument,
              "a and b differ at dimension %d (%d vs %d)", d, a->size(d), b->size(d));
  }
  TRI_CHECK(a->is_contiguous() && b->is_contiguous(), Error::NotSupported,
            "a and b must be contiguous");
  TRI_TRY(resize_out(*out, a->sizes()));
  TRI_CHECK(out->is_contiguous(), Error::NotSupported, "out must be contiguous");
  const float inv = 1.0f / static_cast<float>(out_scale);
  const int64_t es = static_cast<int64_t>(element_size(t));
  const char* pa = static_cast<const char*>(a->data());
  const char* pb = static_cast<const char*>(b->data());
  char* po = static_cast<char*>(out->mutable_data());
  const int64_t n = static_cast<int64_t>(a->numel());
  for (int64_t i = 0; i < n; ++i) {
    const int64_t va = load_one<int64_t>(t, pa + i * es);
    const int64_t vb = load_one<int64_t>(t, pb + i * es);
    const float da = static_cast<float>(static_cast<double>(va - qa.zero_point) * qa.scale);
    const float db = static_cast<float>(static_cast<double>(vb - qb.zero_point) * qb.scale);
    const float acc = da + db;
    int64_t q = out_zp + static_cast<int64_t>(std::nearbyint(inv * acc));
    q = q < qo.qmin ? qo.qmin : (q > qo.qmax ? qo.qmax : q);
    store_one<int64_t>(t, q, po + i * es);
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
