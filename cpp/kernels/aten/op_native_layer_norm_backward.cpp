// aten::native_layer_norm_backward.out. Per row of the normalized block,
// with xhat = (x - mean) * rstd and g = dy * weight:
//   dx = rstd * (g - mean(g) - xhat * mean(g * xhat)),
// and over all rows dweight = sum(dy * xhat), dbias = sum(dy). Outs whose
// output_mask entry is false are left alone. Computed in double.
#include <cinttypes>

#include "cpp/kernels/kernels.h"
#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/nd_iter.h"
#include "cpp/kernels/util/norm_affine.h"
#include "cpp/kernels/util/norm_args.h"
#include "cpp/kernels/util/resize.h"

namespace tri {
namespace kernels {
namespace {

enum class Step { Zero, Sums, Dx, Params };

// One pass over a row block; operands per step:
//   Zero: dw, db;  Sums: x, dy, w;  Dx: dx, x, dy, w;  Params: dw, db, x, dy.
struct Pass {
  Step step;
  ScalarType t[4];
  double mean, rstd, a, b;  // Dx: dx = rstd * (g - a - xhat * b)
  double s1, s2;            // Sums: sum(g), sum(g * xhat)
};

void pass_row(void* ctx, char* const* p, const int64_t* st, int64_t n) {
  Pass& q = *static_cast<Pass*>(ctx);
  constexpr int64_t kChunk = 128;
  double v[4][kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    auto load = [&](int k) { load_row<double>(q.t[k], p[k] + i * st[k], st[k], m, v[k]); };
    auto store = [&](int k) { store_row<double>(q.t[k], v[k], p[k] + i * st[k], st[k], m); };
    switch (q.step) {
      case Step::Zero:
        for (int64_t j = 0; j < m; ++j) v[0][j] = 0.0;
        store_row<double>(q.t[0], v[0], p[0] + i * st[0], st[0], m);
        store_row<double>(q.t[1], v[0], p[1] + i * st[1], st[1], m);
        break;
      case Step::Sums:
        load(0), load(1), load(2);
        for (int64_t j = 0; j < m; ++j) {
          const double g = v[1][j] * v[2][j];
          q.s1 += g;
          q.s2 += g * (v[0][j] - q.mean) * q.rstd;
        }
        break;
      case Step::Dx:
        load(1), load(2), load(3);
        for (int64_t j = 0; j < m; ++j) {
          const double xhat = (v[1][j] - q.mean) * q.rstd;
          v[0][j] = q.rstd * (v[2][j] * v[3][j] - q.a - xhat * q.b);
        }
        store(0);
        break;
      case Step::Params:
        load(0), load(1), load(2), load(3);
        for (int64_t j = 0; j < m; ++j) {
          v[0][j] += v[3][j] * (v[2][j] - q.mean) * q.rstd;
          v[1][j] += v[3][j];
        }
        store(0), store(1);
        break;
    }
  }
}

// Runs q over `shape` (the normalized block's); operands broadcast to it.
void run(Pass& q, const TensorView& shape, const TensorView& a, const TensorView& b,
         const TensorView& c, const TensorView& d) {
  const TensorView* ops[] = {&a, &b, &c, &d};
  for (int k = 0; k < 4; ++k) q.t[k] = ops[k]->type;
  NdIter it(shape.sizes, shape.dim, ops, 4);
  it.walk_rows(&pass_row, &q);
}

}  // namespace

Error native_layer_norm_backward_out(KernelContext&, KernelArgs& args) {
  TRI_ASSIGN_OR_RETURN(Tensor* dy, args.tensor(0));
  TRI_ASSIGN_OR_RETURN(Tensor* input, args.tensor(1));
  TRI_ASSIGN_OR_RETURN(const Span<const int64_t> shape, args.int_list(2));
  TRI_ASSIGN_OR_RETURN(Tensor* mean, args.tensor(3));
  TRI_ASSIGN_OR_RETURN(Tensor* rstd, args.tensor(4));
  TRI_ASSIGN_OR_RETURN(Tensor* weight, args.optional_tensor(5));
  TRI_ASSIGN_OR_RETURN(Tensor* bias, args.optional_tensor(6));
  TRI_ASSIGN_OR_RETURN(const Span<const bool> mask, args.bool_list(7));
  TRI_ASSIGN_OR_RETURN(Tensor* dx, args.tensor(8));
  TRI_ASSIGN_OR_RETURN(Tensor* dw, args.tensor(9));
  TRI_ASSIGN_OR_RETURN(Tensor* db, args.tensor(10));
  (void)bias;
  TRI_CHECK(mask.size() == 3, Error::InvalidArgument, "output_mask must have 3 entries, got %zu",
            mask.size());
  const int32_t rank = input->dim();
  const int32_t nd = static_cast<int32_t>(shape.size());
  TRI_TRY(check_dtype(input->scalar_type(), kFloatHBTypes, "input"));
  TRI_TRY(check_same_dtype(*dy, input->scalar_type(), "grad_out"));
  TRI_CHECK(nd >= 1 && nd <= rank, Error::InvalidArgument,
            "normalized_shape of %d dims does not fit input of rank %d", nd, rank);
  bool same = dy->dim() == rank;
  for (int32_t d = 0; same && d < rank; ++d) same = dy->size(d) == input->size(d);
  TRI_CHECK(same, Error::InvalidArgument, "grad_out must have input's shape");
  bool ends = true;
  for (int32_t i = 0; i < nd; ++i) ends = ends && input->size(rank - nd + i) == shape[i];
  TRI_CHECK(ends, Error::InvalidArgument, "input does not end in normalized_shape");
  if (weight != nullptr) {
    bool ws = weight->dim() == nd;
    for (int32_t i = 0; ws && i < nd; ++i) ws = weight->size(i) == shape[i];
    TRI_CHECK(ws, Error::InvalidArgument, "weight must have normalized_shape");
    TRI_TRY(check_dtype(weight->scalar_type(), kFloatHBTypes, "weight"));
  }
  const int32_t axis = rank - nd;
  int64_t rows = 1;
  for (int32_t d = 0; d < axis; ++d) rows *= input->size(d);
  TRI_TRY(check_param(mean, rows, "mean"));
  TRI_TRY(check_param(rstd, rows, "rstd"));
  if (mask[0]) {
    TRI_TRY(check_same_dtype(*dx, input->scalar_type(), "out0"));
    TRI_TRY(resize_out(*dx, input->sizes(), "out0"));
  }
  for (int k = 1; k < 3; ++k) {
    Tensor* t = k == 1 ? dw : db;
    if (!mask[k]) continue;
    TRI_TRY(check_dtype(t->scalar_type(), kFloatHBTypes, k == 1 ? "out1" : "out2"));
    TRI_TRY(resize_out(*t, Span<const int64_t>(shape.data(), shape.size()), k == 1 ? "out1" : "out2"));
  }
  const double one = 1.0;
  const TensorView w = weight != nullptr ? TensorView::of(*weight)
                                         : TensorView::scalar(&one, ScalarType::Double);
  const TensorView x = TensorView::of(*input);
  const TensorView g = TensorView::of(*dy);
  const TensorView o = TensorView::of(*dx);
  // An unrequested parameter grad is a broadcast double that the passes
  // write to harmlessly, so one pass serves every mask.
  double sink_w = 0.0, sink_b = 0.0;
  const TensorView dwv = mask[1] ? TensorView::of(*dw) : TensorView::scalar(&sink_w, ScalarType::Double);
  const TensorView dbv = mask[2] ? TensorView::of(*db) : TensorView::scalar(&sink_b, ScalarType::Double);
  const bool params = mask[1] || mask[2];
  const TensorView block = trailing_view(x, axis, 0);
  const int64_t n = rows == 0 ? 0 : static_cast<int64_t>(input->numel()) / rows;
  Pass q{};
  if (params) {
    q.step = Step::Zero;
    run(q, block, dwv, dbv, dwv, dwv);
  }
  int64_t idx[kTensorDimLimit] = {};
  for (int64_t r = 0; r < rows; ++r) {
    int64_t xo = 0, go = 0, oo = 0;
    for (int32_t d = 0; d < axis; ++d) {
      xo += idx[d] * x.strides[d];
      go += idx[d] * g.strides[d];
      oo += idx[d] * o.strides[d];
    }
    const TensorView xb = trailing_view(x, axis, xo);
    const TensorView gb = trailing_view(g, axis, go);
    q.mean = param_at(mean, r, 0);
    q.rstd = param_at(rstd, r, 0);
    if (mask[0]) {
      q.step = Step::Sums;
      q.s1 = q.s2 = 0.0;
      run(q, block, xb, gb, w, w);
      q.a = q.s1 / static_cast<double>(n);
      q.b = q.s2 / static_cast<double>(n);
      q.step = Step::Dx;
      run(q, block, trailing_view(o, axis, oo), xb, gb, w);
    }
    if (params) {
      q.step = Step::Params;
      run(q, block, dwv, dbv, xb, gb);
    }
    for (int32_t d = axis - 1; d >= 0; --d) {
      if (++idx[d] < x.sizes[d]) break;
      idx[d] = 0;
    }
  }
  return Error::Ok;
}

}  // namespace kernels
}  // namespace tri
