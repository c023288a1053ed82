// etnp::lstm.out: one layer of torch.nn.LSTM (seq-first, gates i, f, g, o),
// the custom op of executorch-numpy-runtime's lstm.pte. Its KernelCall:
//   [x[T,B,I], h0[B,H], c0[B,H], w_ih[4H,I], w_hh[4H,H], b_ih[4H], b_hh[4H],
//    out[T,B,H], h_n[B,H], c_n[B,H], (out, h_n, c_n)]
// Float32, contiguous. It needs no scratch: h_n carries h between steps and
// out[t] receives the new h before it is copied into h_n.
#include <cmath>

#include "cpp/custom/etnp/etnp_kernels.h"
#include "cpp/kernels/util/resize.h"

namespace tri::custom::etnp {
namespace {

Error check_tensor(const Tensor& t, const char* name, int32_t dim) {
  TRI_CHECK(t.scalar_type() == ScalarType::Float, Error::InvalidArgument,
            "%s: dtype %s, expected Float", name, scalar_type_name(t.scalar_type()));
  TRI_CHECK(t.dim() == dim, Error::InvalidArgument, "%s: %d dims, expected %d", name,
            static_cast<int>(t.dim()), static_cast<int>(dim));
  TRI_CHECK(t.is_contiguous(), Error::InvalidArgument, "%s: must be contiguous", name);
  return Error::Ok;
}

Error check_size(const Tensor& t, const char* name, int32_t d, int64_t want) {
  TRI_CHECK(t.size(d) == want, Error::InvalidArgument, "%s: size %d is %d, expected %lld",
            name, static_cast<int>(d), static_cast<int>(t.size(d)),
            static_cast<long long>(want));
  return Error::Ok;
}

float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

// Pre-activation of gate row r for batch b: w_ih[r]·x + b_ih[r] + w_hh[r]·h + b_hh[r].
float gate(const float* w_ih, const float* w_hh, const float* b_ih, const float* b_hh,
           const float* x, const float* h, int64_t r, int64_t in, int64_t hidden) {
  float acc = b_ih[r] + b_hh[r];
  for (int64_t k = 0; k < in; ++k) acc += w_ih[r * in + k] * x[k];
  for (int64_t k = 0; k < hidden; ++k) acc += w_hh[r * hidden + k] * h[k];
  return acc;
}

}  // namespace

Error lstm_out(KernelContext&, KernelArgs& args) {
  const char* names[] = {"x", "h0", "c0", "w_ih", "w_hh", "b_ih", "b_hh", "out", "h_n", "c_n"};
  const int32_t dims[] = {3, 2, 2, 2, 2, 1, 1, 3, 2, 2};
  Tensor* t[10];
  for (size_t i = 0; i < 10; ++i) {
    TRI_ASSIGN_OR_RETURN(t[i], args.tensor(i));
    TRI_TRY(check_tensor(*t[i], names[i], dims[i]));
  }
  const int64_t steps = t[0]->size(0);
  const int64_t batch = t[0]->size(1);
  const int64_t in = t[0]->size(2);
  const int64_t hidden = t[1]->size(1);
  TRI_TRY(check_size(*t[1], "h0", 0, batch));
  TRI_TRY(check_size(*t[2], "c0", 0, batch));
  TRI_TRY(check_size(*t[2], "c0", 1, hidden));
  TRI_TRY(check_size(*t[3], "w_ih", 0, 4 * hidden));
  TRI_TRY(check_size(*t[3], "w_ih", 1, in));
  TRI_TRY(check_size(*t[4], "w_hh", 0, 4 * hidden));
  TRI_TRY(check_size(*t[4], "w_hh", 1, hidden));
  TRI_TRY(check_size(*t[5], "b_ih", 0, 4 * hidden));
  TRI_TRY(check_size(*t[6], "b_hh", 0, 4 * hidden));
  const SizesType out_sizes[] = {static_cast<SizesType>(steps), static_cast<SizesType>(batch),
                                 static_cast<SizesType>(hidden)};
  TRI_TRY(resize_out(*t[7], Span<const SizesType>(out_sizes, 3), "out"));
  TRI_TRY(resize_out(*t[8], t[1]->sizes(), "h_n"));
  TRI_TRY(resize_out(*t[9], t[2]->sizes(), "c_n"));

  const float* x = t[0]->data_ptr<const float>();
  const float* w_ih = t[3]->data_ptr<const float>();
  const float* w_hh = t[4]->data_ptr<const float>();
  const float* b_ih = t[5]->data_ptr<const float>();
  const float* b_hh = t[6]->data_ptr<const float>();
  float* out = t[7]->data_ptr<float>();
  float* h = t[8]->data_ptr<float>();
  float* c = t[9]->data_ptr<float>();
  const int64_t state = batch * hidden;
  for (int64_t i = 0; i < state; ++i) {
    h[i] = t[1]->data_ptr<const float>()[i];
    c[i] = t[2]->data_ptr<const float>()[i];
  }
  for (int64_t s = 0; s < steps; ++s) {
    float* h_new = out + s * state;
    for (int64_t b = 0; b < batch; ++b) {
      const float* xb = x + (s * batch + b) * in;
      const float* hb = h + b * hidden;
      for (int64_t j = 0; j < hidden; ++j) {
        const float ig = sigmoid(gate(w_ih, w_hh, b_ih, b_hh, xb, hb, j, in, hidden));
        const float fg = sigmoid(gate(w_ih, w_hh, b_ih, b_hh, xb, hb, hidden + j, in, hidden));
        const float gg = std::tanh(gate(w_ih, w_hh, b_ih, b_hh, xb, hb, 2 * hidden + j, in, hidden));
        const float og = sigmoid(gate(w_ih, w_hh, b_ih, b_hh, xb, hb, 3 * hidden + j, in, hidden));
        float& cell = c[b * hidden + j];
        cell = fg * cell + ig * gg;
        h_new[b * hidden + j] = og * std::tanh(cell);
      }
    }
    for (int64_t i = 0; i < state; ++i) h[i] = h_new[i];
  }
  return Error::Ok;
}

}  // namespace tri::custom::etnp
