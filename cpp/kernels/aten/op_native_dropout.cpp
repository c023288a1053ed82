// aten::native_dropout.out: in training (train true or None) each element
// is kept with probability 1 - p and scaled by 1 / (1 - p) (0 when p is 1),
// mask (Bool) says which were kept; otherwise out0 is a copy and the mask
// all true. As in ATen, out0 = input * mask * scale, so a dropped inf or NaN
// gives NaN. Random draws come from util/random_state.h.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/fill.h"
#include "cpp/kernels/util/nd_iter.h"
#include "cpp/kernels/util/random_state.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

template <typename C>
void dropout_rows(const NdIter& it, ScalarType type, double keep, C scale) {
  it.for_each_row([&](char* const* p, const int64_t* s, int64_t n) {
    constexpr int64_t kChunk = 256;
    C x[kChunk];
    bool m[kChunk];
    for (int64_t i = 0; i < n; i += kChunk) {
      const int64_t c = n - i < kChunk ? n - i : kChunk;
      load_row<C>(type, p[2] + i * s[2], s[2], c, x);
      for (int64_t k = 0; k < c; ++k) {
        m[k] = random_unit(53) < keep;
        x[k] = x[k] * static_cast<C>(m[k] ? 1 : 0) * scale;
      }
      store_row<C>(type, x, p[0] + i * s[0], s[0], c);
      store_row<bool>(ScalarType::Bool, m, p[1] + i * s[1], s[1], c);
    }
  });
}

}  // namespace

Error native_dropout_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(const double p, args.double_value(1));
  TRI_ASSIGN_OR_RETURN(const Optional<bool> train, args.optional_bool(2));
  TRI_ASSIGN_OR_RETURN(Tensor* out, args.tensor(3));
  TRI_ASSIGN_OR_RETURN(Tensor* mask, args.tensor(4));
  const bool training = !train.has_value || train.value;
  TRI_TRY(check_dtype(input->scalar_type(), training ? kFloatHBTypes : kAllTypes, "input"));
  TRI_TRY(check_same_dtype(*out, input->scalar_type(), "out0"));
  // ATen returns an empty mask of input's dtype for an empty input.
  if (input->numel() != 0 || mask->scalar_type() != input->scalar_type()) {
    TRI_TRY(check_same_dtype(*mask, ScalarType::Bool, "out1 (mask)"));
  }
  TRI_CHECK(!training || (p >= 0 && p <= 1), Error::InvalidArgument,
            "dropout probability has to be between 0 and 1, but got %g", p);
  TRI_TRY(resize_out(*out, input->sizes(), "out0"));
  TRI_TRY(resize_out(*mask, input->sizes(), "out1 (mask)"));
  if (input->numel() == 0) return Error::Ok;
  if (!training) {
    copy_view(TensorView::of(*input), TensorView::of(*out));
    Scalar one;
    one.tag = Tag::Bool;
    one.b = true;
    fill_scalar(*mask, one);
    return Error::Ok;
  }
  const double keep = 1.0 - p;
  const double scale = keep == 0 ? 0.0 : 1.0 / keep;
  const TensorView o = TensorView::of(*out);
  const TensorView m = TensorView::of(*mask);
  const TensorView in = TensorView::of(*input);
  const TensorView* ops[] = {&o, &m, &in};
  const NdIter it(o.sizes, o.dim, ops, 3);
  if (input->scalar_type() == ScalarType::Double) {
    dropout_rows<double>(it, input->scalar_type(), keep, scale);
  } else {
    dropout_rows<float>(it, input->scalar_type(), keep, static_cast<float>(scale));
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
