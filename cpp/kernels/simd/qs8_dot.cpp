#include "cpp/kernels/simd/qs8_dot.h"

#include "cpp/kernels/util/simd.h"

namespace tri {

int32_t qs8_dot_reference(const int8_t* a, const int8_t* b, size_t n) {
  int32_t acc = 0;
  for (size_t i = 0; i < n; ++i) acc = wrap_add(acc, int32_t{a[i]} * int32_t{b[i]});
  return acc;
}

#if TRI_WASM_SIMD
namespace {

// 8 products of a and b summed pairwise into 4 int32 lanes.
inline v128_t dot8(const int8_t* a, const int8_t* b) {
  const v128_t va = wasm_i16x8_load8x8(a);
  const v128_t vb = wasm_i16x8_load8x8(b);
  return wasm_i32x4_dot_i16x8(va, vb);
}

inline int32_t hsum(v128_t v) {
  return wrap_add(wrap_add(wasm_i32x4_extract_lane(v, 0), wasm_i32x4_extract_lane(v, 1)),
                  wrap_add(wasm_i32x4_extract_lane(v, 2), wasm_i32x4_extract_lane(v, 3)));
}

}  // namespace

int32_t qs8_dot(const int8_t* a, const int8_t* b, size_t n) {
  if (!simd_enabled()) return qs8_dot_reference(a, b, n);
  v128_t acc = wasm_i32x4_splat(0);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) acc = wasm_i32x4_add(acc, dot8(a + i, b + i));
  return wrap_add(hsum(acc), qs8_dot_reference(a + i, b + i, n - i));
}

void qs8_dot4(const int8_t* a, const int8_t* b, size_t ldb, size_t n, int32_t* out) {
  if (!simd_enabled()) {
    for (size_t j = 0; j < 4; ++j) out[j] = wrap_add(out[j], qs8_dot_reference(a, b + j * ldb, n));
    return;
  }
  v128_t acc0 = wasm_i32x4_splat(0);
  v128_t acc1 = acc0;
  v128_t acc2 = acc0;
  v128_t acc3 = acc0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t va = wasm_i16x8_load8x8(a + i);
    acc0 = wasm_i32x4_add(acc0, wasm_i32x4_dot_i16x8(va, wasm_i16x8_load8x8(b + i)));
    acc1 = wasm_i32x4_add(acc1, wasm_i32x4_dot_i16x8(va, wasm_i16x8_load8x8(b + ldb + i)));
    acc2 = wasm_i32x4_add(acc2, wasm_i32x4_dot_i16x8(va, wasm_i16x8_load8x8(b + 2 * ldb + i)));
    acc3 = wasm_i32x4_add(acc3, wasm_i32x4_dot_i16x8(va, wasm_i16x8_load8x8(b + 3 * ldb + i)));
  }
  out[0] = wrap_add(out[0], wrap_add(hsum(acc0), qs8_dot_reference(a + i, b + i, n - i)));
  out[1] = wrap_add(out[1], wrap_add(hsum(acc1), qs8_dot_reference(a + i, b + ldb + i, n - i)));
  out[2] = wrap_add(out[2], wrap_add(hsum(acc2), qs8_dot_reference(a + i, b + 2 * ldb + i, n - i)));
  out[3] = wrap_add(out[3], wrap_add(hsum(acc3), qs8_dot_reference(a + i, b + 3 * ldb + i, n - i)));
}

#else

int32_t qs8_dot(const int8_t* a, const int8_t* b, size_t n) { return qs8_dot_reference(a, b, n); }

void qs8_dot4(const int8_t* a, const int8_t* b, size_t ldb, size_t n, int32_t* out) {
  for (size_t j = 0; j < 4; ++j) out[j] = wrap_add(out[j], qs8_dot_reference(a, b + j * ldb, n));
}

#endif

}  // namespace tri
