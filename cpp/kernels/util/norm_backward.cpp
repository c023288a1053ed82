#include "cpp/kernels/util/norm_backward.h"

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/nd_iter.h"

namespace tri {
namespace {

enum class Step { Zero, Sums, Dx, Params };

// One pass over a block; operands per step:
//   Zero: dw, db;  Sums: x, dy, w;  Dx: dx, x, dy, w;  Params: dw, db, x, dy.
struct Pass {
  Step step;
  ScalarType t[4];
  NormStats s;
  double a, b;    // Dx
  double s1, s2;  // Sums: sum(g), sum(g * xhat)
};

void pass_row(void* ctx, char* const* p, const int64_t* st, int64_t n) {
  Pass& q = *static_cast<Pass*>(ctx);
  constexpr int64_t kChunk = 128;
  double v[4][kChunk];
  const double mean = q.s.mean, rstd = q.s.rstd;
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
          q.s2 += g * (v[0][j] - mean) * rstd;
        }
        break;
      case Step::Dx:
        load(1), load(2), load(3);
        for (int64_t j = 0; j < m; ++j) {
          const double xhat = (v[1][j] - mean) * rstd;
          v[0][j] = rstd * (v[2][j] * v[3][j] - q.a - xhat * q.b);
        }
        store(0);
        break;
      case Step::Params:
        load(0), load(1), load(2), load(3);
        for (int64_t j = 0; j < m; ++j) {
          v[0][j] += v[3][j] * (v[2][j] - mean) * rstd;
          v[1][j] += v[3][j];
        }
        store(0), store(1);
        break;
    }
  }
}

void run(Pass& q, const TensorView& shape, const TensorView& a, const TensorView& b,
         const TensorView& c, const TensorView& d) {
  const TensorView* ops[] = {&a, &b, &c, &d};
  for (int k = 0; k < 4; ++k) q.t[k] = ops[k]->type;
  NdIter it(shape.sizes, shape.dim, ops, 4);
  it.walk_rows(&pass_row, &q);
}

}  // namespace

void norm_grad_sums(const TensorView& shape, const TensorView& x, const TensorView& dy,
                    const TensorView& w, NormStats s, double* sum_g, double* sum_g_xhat) {
  Pass q{};
  q.step = Step::Sums;
  q.s = s;
  run(q, shape, x, dy, w, w);
  *sum_g += q.s1;
  *sum_g_xhat += q.s2;
}

void norm_grad_dx(const TensorView& shape, const TensorView& dx, const TensorView& x,
                  const TensorView& dy, const TensorView& w, NormStats s, double a, double b) {
  Pass q{};
  q.step = Step::Dx;
  q.s = s;
  q.a = a;
  q.b = b;
  run(q, shape, dx, x, dy, w);
}

void norm_grad_params(const TensorView& shape, const TensorView& dw, const TensorView& db,
                      const TensorView& x, const TensorView& dy, NormStats s) {
  Pass q{};
  q.step = Step::Params;
  q.s = s;
  run(q, shape, dw, db, x, dy);
}

void norm_grad_zero(const TensorView& shape, const TensorView& dw, const TensorView& db) {
  Pass q{};
  q.step = Step::Zero;
  run(q, shape, dw, db, dw, dw);
}

}  // namespace tri
