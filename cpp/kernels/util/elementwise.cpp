#include "cpp/kernels/util/elementwise.h"

#include "cpp/kernels/util/nd_iter.h"

namespace tri {
namespace {

// Elements per conversion chunk: small enough for the stack (3 inputs and an
// out of 8 bytes: 8 KiB), large enough to amortize the per-chunk calls.
constexpr int64_t kChunk = 256;
constexpr int kMaxInputs = 3;

template <typename C, typename R>
struct Plan {
  ChunkFn<C, R> fn;
  const void* op;
  int nin;
  ScalarType common;
  ScalarType in_type[kMaxInputs];
  bool in_wrap[kMaxInputs];
  ScalarType out_type;
  bool out_wrap;
};

// Makes computed values values of `common`: integers wrap to its range
// (inputs and results); Half/BFloat16 results round to it.
template <typename C>
inline void wrap(ScalarType common, C* v, int64_t n) {
  if constexpr (std::is_same<C, int64_t>::value) {
    wrap_to_dtype(common, v, n);
  } else if constexpr (std::is_same<C, float>::value) {
    round_to_dtype(common, v, n);
  }
}

// One row (chunk) of the iteration: p[0]/s[0] are out's, p[k + 1]/s[k + 1]
// input k's (bytes).
template <typename C, typename R>
void run_row(const Plan<C, R>& pl, char* const* p, const int64_t* s, int64_t n) {
  const C* direct[kMaxInputs];
  bool scalar[kMaxInputs];
  bool buffered[kMaxInputs];
  C value[kMaxInputs];
  bool any_buffered = false;
  for (int k = 0; k < pl.nin; ++k) {
    const char* src = p[k + 1];
    const int64_t stride = s[k + 1];
    scalar[k] = stride == 0;
    buffered[k] = false;
    if (pl.in_type[k] == dtype_of<C>() && !pl.in_wrap[k] &&
        (stride == 0 || stride == static_cast<int64_t>(sizeof(C)))) {
      direct[k] = reinterpret_cast<const C*>(src);
    } else if (stride == 0) {
      load_row<C>(pl.in_type[k], src, 0, 1, &value[k]);
      if (pl.in_wrap[k]) wrap(pl.common, &value[k], 1);
      direct[k] = &value[k];
    } else {
      buffered[k] = true;
      any_buffered = true;
    }
  }
  const bool out_direct = pl.out_type == dtype_of<R>() && !pl.out_wrap &&
                          s[0] == static_cast<int64_t>(sizeof(R));
  if (!any_buffered && out_direct) {
    pl.fn(pl.op, reinterpret_cast<R*>(p[0]), direct, scalar, n);
    return;
  }
  C buf[kMaxInputs][kChunk];
  R out_buf[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = n - i < kChunk ? n - i : kChunk;
    const C* in[kMaxInputs];
    for (int k = 0; k < pl.nin; ++k) {
      if (buffered[k]) {
        load_row<C>(pl.in_type[k], p[k + 1] + i * s[k + 1], s[k + 1], m, buf[k]);
        if (pl.in_wrap[k]) wrap(pl.common, buf[k], m);
        in[k] = buf[k];
      } else {
        in[k] = scalar[k] ? direct[k] : direct[k] + i;
      }
    }
    if (out_direct) {
      pl.fn(pl.op, reinterpret_cast<R*>(p[0]) + i, in, scalar, m);
      continue;
    }
    pl.fn(pl.op, out_buf, in, scalar, m);
    if (pl.out_wrap) wrap(pl.common, out_buf, m);
    store_row<R>(pl.out_type, out_buf, p[0] + i * s[0], s[0], m);
  }
}

}  // namespace

template <typename C, typename R>
void map_chunks(const TensorView& out, const TensorView* const* in, int nin, ScalarType common,
                ChunkFn<C, R> fn, const void* op) {
  Plan<C, R> pl;
  pl.fn = fn;
  pl.op = op;
  pl.nin = nin;
  pl.common = common;
  const bool int_compute = std::is_same<C, int64_t>::value;
  for (int k = 0; k < nin; ++k) {
    pl.in_type[k] = in[k]->type;
    pl.in_wrap[k] = int_compute && needs_wrap(in[k]->type, common);
  }
  pl.out_type = out.type;
  // Results are values of `common`: integers wrap to it, Half/BFloat16 round
  // to it, before they are stored into an out of another dtype (storing into
  // `common` itself does that).
  const bool reduced = common == ScalarType::Half || common == ScalarType::BFloat16;
  pl.out_wrap = std::is_same<R, C>::value && out.type != common &&
                ((int_compute && common != ScalarType::Long) ||
                 (std::is_same<C, float>::value && reduced));
  const TensorView* ops[1 + kMaxInputs] = {&out};
  for (int k = 0; k < nin; ++k) ops[k + 1] = in[k];
  const NdIter it(out.sizes, out.dim, ops, nin + 1);
  it.for_each_row_parallel([&pl](char* const* p, const int64_t* s, int64_t n) { run_row(pl, p, s, n); });
}

template void map_chunks<int64_t, int64_t>(const TensorView&, const TensorView* const*, int,
                                           ScalarType, ChunkFn<int64_t, int64_t>, const void*);
template void map_chunks<float, float>(const TensorView&, const TensorView* const*, int,
                                       ScalarType, ChunkFn<float, float>, const void*);
template void map_chunks<double, double>(const TensorView&, const TensorView* const*, int,
                                         ScalarType, ChunkFn<double, double>, const void*);
template void map_chunks<int64_t, bool>(const TensorView&, const TensorView* const*, int,
                                        ScalarType, ChunkFn<int64_t, bool>, const void*);
template void map_chunks<float, bool>(const TensorView&, const TensorView* const*, int,
                                      ScalarType, ChunkFn<float, bool>, const void*);
template void map_chunks<double, bool>(const TensorView&, const TensorView* const*, int,
                                       ScalarType, ChunkFn<double, bool>, const void*);

bool int32_flat(const TensorView& out, const TensorView* const* in, int nin) {
  if (!out.is_row_major()) {
    return false;
  }
  for (int k = 0; k < nin; ++k) {
    const TensorView& v = *in[k];
    if (v.numel() == 1) {
      continue;
    }
    if (v.type != ScalarType::Int || v.dim != out.dim || !v.is_row_major()) {
      return false;
    }
    for (int32_t d = 0; d < v.dim; ++d) {
      if (v.sizes[d] != out.sizes[d]) return false;
    }
  }
  return true;
}

template <typename R>
bool map_int32_flat(const TensorView& out, const TensorView* const* in, int nin,
                    ChunkFn<int32_t, R> fn, const void* op) {
  if (out.type != dtype_of<R>()) {
    return false;
  }
  const int64_t n = out.numel();
  const int32_t* ptr[kMaxInputs];
  bool scalar[kMaxInputs];
  int32_t value[kMaxInputs];
  for (int k = 0; k < nin; ++k) {
    const TensorView& v = *in[k];
    scalar[k] = v.numel() == 1 && n != 1;
    if (v.numel() == 1) {
      // A single element of any dtype (a Scalar operand is Long), as an Int.
      int64_t x = load_one<int64_t>(v.type, v.data);
      wrap_to_dtype(ScalarType::Int, &x, 1);
      value[k] = static_cast<int32_t>(x);
      ptr[k] = &value[k];
    } else {
      ptr[k] = static_cast<const int32_t*>(v.data);
    }
  }
  R* o = static_cast<R*>(out.data);
  // Chunked like NdIter rows, so the loop function is entered often.
  for (int64_t i = 0; i < n; i += kRowChunk) {
    const int64_t m = n - i < kRowChunk ? n - i : kRowChunk;
    const int32_t* p[kMaxInputs];
    for (int k = 0; k < nin; ++k) p[k] = scalar[k] ? ptr[k] : ptr[k] + i;
    fn(op, o + i, p, scalar, m);
  }
  return true;
}

template bool map_int32_flat<int32_t>(const TensorView&, const TensorView* const*, int,
                                      ChunkFn<int32_t, int32_t>, const void*);
template bool map_int32_flat<bool>(const TensorView&, const TensorView* const*, int,
                                   ChunkFn<int32_t, bool>, const void*);

bool any_zero_in(const TensorView& v, ScalarType common) {
  const TensorView* ops[] = {&v};
  const NdIter it(v.sizes, v.dim, ops, 1);
  const bool wrap_values = needs_wrap(v.type, common);
  bool zero = false;
  it.for_each_row([&](char* const* p, const int64_t* s, int64_t n) {
    int64_t buf[kChunk];
    for (int64_t i = 0; i < n && !zero; i += kChunk) {
      const int64_t m = n - i < kChunk ? n - i : kChunk;
      load_row<int64_t>(v.type, p[0] + i * s[0], s[0], m, buf);
      if (wrap_values) wrap_to_dtype(common, buf, m);
      for (int64_t j = 0; j < m; ++j) zero = zero || buf[j] == 0;
    }
  });
  return zero;
}

}  // namespace tri
