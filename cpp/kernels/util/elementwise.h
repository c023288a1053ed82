// Elementwise maps over broadcast operands, computed in one of three compute
// types (see convert.h):
//
//   TRI_TRY(map2<kComputeAll>(common, a, b, out, [&](auto tag) {
//     using C = typename decltype(tag)::type;   // int64_t, float or double
//     return [](C x, C y) -> C { return arith_add(x, y); };
//   }));
//
// `common` is the dtype the op is defined in (after type promotion); the op
// runs in its compute type C. `make` is called once per compute type in
// kKinds and returns the per-element function, whose result is C (stored to
// out, wrapped to `common` first for integers) or bool (comparisons).
//
// The op's loop is instantiated for C only. Per row of the iteration (see
// NdIter) the non-template driver (elementwise.cpp) hands it plain arrays:
// operands that already are contiguous (or broadcast) arrays of C are passed
// in place, so all-Float / all-Double / all-Long calls run the op straight
// over the tensors with no copies; other operands are converted through small
// stack buffers a chunk at a time. The caller has checked dtypes and shapes
// and resized out.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/tensor_view.h"

namespace tri {

// The op's loop over one chunk: out[i] = op(in[0][i], ...) for i < n, where
// in[k] is a single value (repeated) when scalar[k].
template <typename C, typename R>
using ChunkFn = void (*)(const void* op, R* out, const C* const* in, const bool* scalar,
                         int64_t n);

// The driver: iterates out's shape over the inputs (nin <= 3), converting as
// needed, and calls fn(op, ...) per chunk.
template <typename C, typename R>
void map_chunks(const TensorView& out, const TensorView* const* in, int nin, ScalarType common,
                ChunkFn<C, R> fn, const void* op);

extern template void map_chunks<int64_t, int64_t>(const TensorView&, const TensorView* const*,
                                                  int, ScalarType, ChunkFn<int64_t, int64_t>,
                                                  const void*);
extern template void map_chunks<float, float>(const TensorView&, const TensorView* const*, int,
                                              ScalarType, ChunkFn<float, float>, const void*);
extern template void map_chunks<double, double>(const TensorView&, const TensorView* const*,
                                                int, ScalarType, ChunkFn<double, double>,
                                                const void*);
extern template void map_chunks<int64_t, bool>(const TensorView&, const TensorView* const*, int,
                                               ScalarType, ChunkFn<int64_t, bool>, const void*);
extern template void map_chunks<float, bool>(const TensorView&, const TensorView* const*, int,
                                             ScalarType, ChunkFn<float, bool>, const void*);
extern template void map_chunks<double, bool>(const TensorView&, const TensorView* const*, int,
                                              ScalarType, ChunkFn<double, bool>, const void*);

// The int32 path (kComputeInt32), for an Int common dtype: out is row-major,
// and every input is a row-major Int tensor of out's shape or a single
// element of any dtype.
bool int32_flat(const TensorView& out, const TensorView* const* in, int nin);
// Runs fn over the flat operands; false (nothing done) unless out's dtype is
// R's (Int, or Bool for comparisons).
template <typename R>
bool map_int32_flat(const TensorView& out, const TensorView* const* in, int nin,
                    ChunkFn<int32_t, R> fn, const void* op);
extern template bool map_int32_flat<int32_t>(const TensorView&, const TensorView* const*, int,
                                             ChunkFn<int32_t, int32_t>, const void*);
extern template bool map_int32_flat<bool>(const TensorView&, const TensorView* const*, int,
                                          ChunkFn<int32_t, bool>, const void*);

// True if some element of `v`, as a value of integral dtype `common`, is 0
// (integer division checks).
bool any_zero_in(const TensorView& v, ScalarType common);

namespace elementwise_detail {

// out never partially overlaps an input (out-variant kernels; ATen refuses
// partial overlap). It may be exactly an input (addmm scales out in place),
// which element-by-element loops handle: element i is read before it is
// written. Telling the compiler so drops its runtime alias checks and the
// unvectorized copy of every loop.
#if defined(__GNUC__)
#define TRI_RESTRICT __restrict
#else
#define TRI_RESTRICT
#endif

template <typename C, typename R, typename F>
void chunk1(const void* f, R* TRI_RESTRICT out, const C* const* in, const bool* scalar,
            int64_t n) {
  const F& op = *static_cast<const F*>(f);
  const C* a = in[0];
  if (scalar[0]) {
    const R v = op(*a);
    for (int64_t i = 0; i < n; ++i) out[i] = v;
    return;
  }
  for (int64_t i = 0; i < n; ++i) out[i] = op(a[i]);
}

// Comparisons of 4-byte values: clang's default picks 4 lanes and stores 4
// bools at a time; 16 lanes (four compares narrowed into one 16-byte store)
// runs about twice as fast under V8.
template <typename C, typename R>
constexpr bool kWideBoolLoop = std::is_same<R, bool>::value && sizeof(C) == 4;
#if defined(__clang__)
#define TRI_WIDE_BOOL_LOOP _Pragma("clang loop vectorize_width(16)")
#else
#define TRI_WIDE_BOOL_LOOP
#endif

template <typename C, typename R, typename F>
void chunk2(const void* f, R* TRI_RESTRICT out, const C* const* in, const bool* scalar,
            int64_t n) {
  const F& op = *static_cast<const F*>(f);
  const C* a = in[0];
  const C* b = in[1];
  if (scalar[0] && scalar[1]) {
    const R v = op(*a, *b);
    for (int64_t i = 0; i < n; ++i) out[i] = v;
    return;
  }
  // Each case gets its own loop, so that all of them vectorize.
  if constexpr (kWideBoolLoop<C, R>) {
    if (!scalar[0] && !scalar[1]) {
      TRI_WIDE_BOOL_LOOP
      for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], b[i]);
    } else if (!scalar[0]) {
      const C bv = *b;
      TRI_WIDE_BOOL_LOOP
      for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], bv);
    } else {
      const C av = *a;
      TRI_WIDE_BOOL_LOOP
      for (int64_t i = 0; i < n; ++i) out[i] = op(av, b[i]);
    }
  } else {
    if (!scalar[0] && !scalar[1]) {
      for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], b[i]);
    } else if (!scalar[0]) {
      const C bv = *b;
      for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], bv);
    } else {
      const C av = *a;
      for (int64_t i = 0; i < n; ++i) out[i] = op(av, b[i]);
    }
  }
}

template <typename C, typename R, typename F>
void chunk3(const void* f, R* TRI_RESTRICT out, const C* const* in, const bool* scalar,
            int64_t n) {
  const F& op = *static_cast<const F*>(f);
  const C* a = in[0];
  const C* b = in[1];
  const C* c = in[2];
  if (!scalar[0] && !scalar[1] && !scalar[2]) {
    for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], b[i], c[i]);
    return;
  }
  const int64_t sa = scalar[0] ? 0 : 1;
  const int64_t sb = scalar[1] ? 0 : 1;
  const int64_t sc = scalar[2] ? 0 : 1;
  for (int64_t i = 0; i < n; ++i) out[i] = op(a[i * sa], b[i * sb], c[i * sc]);
}

// Calls map(fn, op) with the op's chunk function for N inputs.
template <typename C, int N, typename Make, typename Map>
void run_with(Make& make, const Map& map) {
  const auto op = make(TypeTag<C>{});
  using F = std::decay_t<decltype(op)>;
  if constexpr (N == 1) {
    using R = decltype(op(std::declval<C>()));
    static_assert(std::is_same<R, C>::value || std::is_same<R, bool>::value, "result C or bool");
    map(&chunk1<C, R, F>, &op);
  } else if constexpr (N == 2) {
    using R = decltype(op(std::declval<C>(), std::declval<C>()));
    static_assert(std::is_same<R, C>::value || std::is_same<R, bool>::value, "result C or bool");
    map(&chunk2<C, R, F>, &op);
  } else {
    using R = decltype(op(std::declval<C>(), std::declval<C>(), std::declval<C>()));
    static_assert(std::is_same<R, C>::value || std::is_same<R, bool>::value, "result C or bool");
    map(&chunk3<C, R, F>, &op);
  }
}

template <typename C, int N, typename Make>
void run(ScalarType common, const TensorView& out, const TensorView* const* in, Make& make) {
  run_with<C, N>(make, [&](auto fn, const void* op) {
    map_chunks(out, in, N, common, fn, op);
  });
}

template <uint32_t kKinds, int N, typename Make>
Error dispatch(ScalarType common, const TensorView& out, const TensorView* const* in,
               Make& make) {
  switch (compute_kind(common)) {
    case ComputeKind::Int:
      if constexpr ((kKinds & kComputeInt32) != 0) {
        if (common == ScalarType::Int && int32_flat(out, in, N)) {
          bool done = false;
          run_with<int32_t, N>(make, [&](auto fn, const void* op) {
            done = map_int32_flat(out, in, N, fn, op);
          });
          if (done) return Error::Ok;
        }
      }
      if constexpr ((kKinds & kComputeInt) != 0) {
        run<int64_t, N>(common, out, in, make);
        return Error::Ok;
      }
      break;
    case ComputeKind::Float:
      if constexpr ((kKinds & kComputeFloat) != 0) {
        run<float, N>(common, out, in, make);
        return Error::Ok;
      }
      break;
    case ComputeKind::Double:
      if constexpr ((kKinds & kComputeDouble) != 0) {
        run<double, N>(common, out, in, make);
        return Error::Ok;
      }
      break;
  }
  return unsupported_dtype(common);
}

}  // namespace elementwise_detail

template <uint32_t kKinds, typename Make>
Error map1(ScalarType common, const TensorView& a, const TensorView& out, Make&& make) {
  const TensorView* in[] = {&a};
  return elementwise_detail::dispatch<kKinds, 1>(common, out, in, make);
}

template <uint32_t kKinds, typename Make>
Error map2(ScalarType common, const TensorView& a, const TensorView& b, const TensorView& out,
           Make&& make) {
  const TensorView* in[] = {&a, &b};
  return elementwise_detail::dispatch<kKinds, 2>(common, out, in, make);
}

template <uint32_t kKinds, typename Make>
Error map3(ScalarType common, const TensorView& a, const TensorView& b, const TensorView& c,
           const TensorView& out, Make&& make) {
  const TensorView* in[] = {&a, &b, &c};
  return elementwise_detail::dispatch<kKinds, 3>(common, out, in, make);
}

}  // namespace tri
