#include "cpp/kernels/util/copy.h"

#include <cstddef>
#include <cstring>

#include "cpp/kernels/util/convert.h"
#include "cpp/kernels/util/dtype_dispatch.h"
#include "cpp/kernels/util/nd_iter.h"
#include "cpp/kernels/util/resize.h"
#include "cpp/kernels/util/simd.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri {
namespace {

// Below this many elements a parallel copy stays on one thread.
constexpr size_t kParallelCopyElements = size_t{1} << 15;

// Copies use memmove, here and in the kernels that move tensor bytes: a
// program's memory plan may put an out over its own input (a hostile file,
// or a plan edited by hand), and a copy between overlapping bytes must stay
// defined (memmove costs what memcpy does when nothing overlaps).
template <typename T>
void copy_row(char* const* p, const int64_t* s, int64_t n) {
  if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
    std::memmove(p[0], p[1], static_cast<size_t>(n) * sizeof(T));
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    std::memmove(p[0] + i * s[0], p[1] + i * s[1], sizeof(T));
  }
}

template <typename T>
void copy_bits(const NdIter& it, bool parallel) {
  const auto row = [](char* const* p, const int64_t* s, int64_t n) { copy_row<T>(p, s, n); };
  if (parallel) {
    it.for_each_row_parallel(row);
  } else {
    it.for_each_row(row);
  }
}

constexpr int64_t kTransposeTile = 16;

// out(r, c) = in(c, r) for r in [r0, r1), c in [c0, c1): out's rows are
// out_row elements apart, in's in_col.
template <typename T>
void transpose_scalar(const T* in, ptrdiff_t in_col, T* out, ptrdiff_t out_row, size_t r0,
                      size_t r1, size_t c0, size_t c1) {
  for (size_t c = c0; c < c1; ++c) {
    const T* src = in + static_cast<ptrdiff_t>(c) * in_col;
    for (size_t r = r0; r < r1; ++r) out[static_cast<ptrdiff_t>(r) * out_row + c] = src[r];
  }
}

template <typename T>
void transpose_tile(const T* in, ptrdiff_t in_col, T* out, ptrdiff_t out_row, size_t r0,
                    size_t r1, size_t c0, size_t c1) {
#if TRI_WASM_SIMD
  // 4-byte elements in 4 x 4 blocks: four 16-byte loads, eight shuffles,
  // four 16-byte stores; the tile's ragged edges as scalars.
  if (sizeof(T) == 4 && simd_enabled()) {
    const size_t c4 = c0 + (c1 - c0) / 4 * 4;
    const size_t r4 = r0 + (r1 - r0) / 4 * 4;
    for (size_t c = c0; c < c4; c += 4) {
      const T* s0 = in + static_cast<ptrdiff_t>(c) * in_col;
      for (size_t r = r0; r < r4; r += 4) {
        const v128_t v0 = wasm_v128_load(s0 + r);
        const v128_t v1 = wasm_v128_load(s0 + in_col + r);
        const v128_t v2 = wasm_v128_load(s0 + 2 * in_col + r);
        const v128_t v3 = wasm_v128_load(s0 + 3 * in_col + r);
        const v128_t t0 = wasm_i32x4_shuffle(v0, v1, 0, 4, 1, 5);
        const v128_t t1 = wasm_i32x4_shuffle(v0, v1, 2, 6, 3, 7);
        const v128_t t2 = wasm_i32x4_shuffle(v2, v3, 0, 4, 1, 5);
        const v128_t t3 = wasm_i32x4_shuffle(v2, v3, 2, 6, 3, 7);
        T* d = out + static_cast<ptrdiff_t>(r) * out_row + c;
        wasm_v128_store(d, wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5));
        wasm_v128_store(d + out_row, wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7));
        wasm_v128_store(d + 2 * out_row, wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5));
        wasm_v128_store(d + 3 * out_row, wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7));
      }
      transpose_scalar(in, in_col, out, out_row, r4, r1, c, c + 4);
    }
    transpose_scalar(in, in_col, out, out_row, r0, r1, c4, c1);
    return;
  }
#endif
  transpose_scalar(in, in_col, out, out_row, r0, r1, c0, c1);
}

// A transpose (NCHW <-> NHWC, a matrix's .t()): the out's innermost dim is
// not the input's. Row by row, each element of an out row is read from
// another line of the input (through 64-bit index arithmetic in wasm32),
// and an image's 3 channels made rows of 3; in tiles of 16 x 16 both sides
// move along their own contiguous dim. False when the copy is no such
// transpose.
template <typename T>
bool copy_transposed(const NdIter& it, bool parallel) {
  constexpr int64_t es = sizeof(T);
  const int n = it.ndim();
  const int di = n - 1;  // the out's contiguous dim, walked innermost
  if (n < 2 || it.stride(0, di) != es || it.stride(1, di) == es) return false;
  int si = -1;  // the input's contiguous dim
  for (int d = 0; d < di; ++d) {
    if (it.stride(1, d) == es) si = d;
  }
  // Few input rows (an NHWC -> NCHW of 3 channels) gain nothing from tiles.
  if (si < 0 || it.size(si) < kTransposeTile) return false;
  for (int d = 0; d < n; ++d) {
    if (it.stride(0, d) % es != 0 || it.stride(1, d) % es != 0) return false;
  }
  // The out is [planes..., rows (dim si), cols (dim di)] in walk order.
  const size_t rows = static_cast<size_t>(it.size(si));
  const size_t cols = static_cast<size_t>(it.size(di));
  const ptrdiff_t out_row = static_cast<ptrdiff_t>(it.stride(0, si) / es);
  const ptrdiff_t in_col = static_cast<ptrdiff_t>(it.stride(1, di) / es);
  size_t planes = 1;
  for (int d = 0; d < di; ++d) {
    if (d != si) planes *= static_cast<size_t>(it.size(d));
  }
  // An empty out (a zero-size dim) has nothing to copy, and the chunk size
  // below would divide by its zero columns.
  if (planes == 0 || cols == 0) return true;
  const size_t blocks = (rows + kTransposeTile - 1) / kTransposeTile;
  auto run = [&](size_t begin, size_t end) {
    for (size_t task = begin; task < end; ++task) {
      // The plane's offsets: its index spelled out over the other dims.
      size_t plane = task / blocks;
      int64_t out_off = 0, in_off = 0;
      for (int d = di - 1; d >= 0; --d) {
        if (d == si) continue;
        const int64_t i = static_cast<int64_t>(plane % static_cast<size_t>(it.size(d)));
        plane /= static_cast<size_t>(it.size(d));
        out_off += i * it.stride(0, d);
        in_off += i * it.stride(1, d);
      }
      T* out = reinterpret_cast<T*>(it.base(0) + out_off);
      const T* in = reinterpret_cast<const T*>(it.base(1) + in_off);
      const size_t r0 = task % blocks * kTransposeTile;
      const size_t r1 = rows - r0 < kTransposeTile ? rows : r0 + kTransposeTile;
      for (size_t c0 = 0; c0 < cols; c0 += kTransposeTile) {
        const size_t c1 = cols - c0 < kTransposeTile ? cols : c0 + kTransposeTile;
        transpose_tile<T>(in, in_col, out, out_row, r0, r1, c0, c1);
      }
    }
  };
  if (parallel) {
    // Chunks of at least kParallelCopyElements elements (whole tile rows).
    parallel_for(planes * blocks, (kParallelCopyElements + cols * kTransposeTile - 1) /
                                      (cols * kTransposeTile),
                 run);
  } else {
    run(0, planes * blocks);
  }
  return true;
}

template <typename T>
void copy_same_width(const NdIter& it, bool parallel) {
  if (!copy_transposed<T>(it, parallel)) copy_bits<T>(it, parallel);
}

// Same-type copies by element width; false for a conversion.
bool copy_same_type(const NdIter& it, const TensorView& src, const TensorView& dst,
                    bool parallel) {
  if (src.type != dst.type) return false;
  switch (dst.element_size()) {
    case 1: copy_same_width<uint8_t>(it, parallel); return true;
    case 2: copy_same_width<uint16_t>(it, parallel); return true;
    case 4: copy_same_width<uint32_t>(it, parallel); return true;
    case 8: copy_same_width<uint64_t>(it, parallel); return true;
    default: return false;
  }
}

// Converting copies go through a pivot type that holds every source value
// exactly, so that pivot -> dst rounds once, as a direct conversion would:
// float between Half, BFloat16 and Float; double for other floating
// sources; int64 for Bool and the integers. UInt64 to a floating type is the
// one pair int64 cannot carry (values >= 2^63).
template <typename P>
void convert_rows(const NdIter& it, ScalarType from, ScalarType to) {
  it.for_each_row([from, to](char* const* p, const int64_t* s, int64_t n) {
    constexpr int64_t kChunk = 256;
    P buf[kChunk];
    for (int64_t i = 0; i < n; i += kChunk) {
      const int64_t m = n - i < kChunk ? n - i : kChunk;
      load_row<P>(from, p[1] + i * s[1], s[1], m, buf);
      store_row<P>(to, buf, p[0] + i * s[0], s[0], m);
    }
  });
}

void uint64_to_floating(const NdIter& it, ScalarType to) {
  it.for_each_row([to](char* const* p, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t v = *reinterpret_cast<const uint64_t*>(p[1] + i * s[1]);
      char* d = p[0] + i * s[0];
      switch (to) {
        case ScalarType::Half: *reinterpret_cast<Half*>(d) = cast_value<Half>(v); break;
        case ScalarType::BFloat16: *reinterpret_cast<BFloat16*>(d) = cast_value<BFloat16>(v); break;
        case ScalarType::Float: *reinterpret_cast<float*>(d) = cast_value<float>(v); break;
        default: *reinterpret_cast<double*>(d) = cast_value<double>(v); break;
      }
    }
  });
}

bool is_float32_or_narrower(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Half || t == ScalarType::BFloat16;
}

void convert_view(const NdIter& it, ScalarType from, ScalarType to) {
  if (is_float32_or_narrower(from) && is_float32_or_narrower(to)) {
    convert_rows<float>(it, from, to);
  } else if (is_floating_type(from)) {
    convert_rows<double>(it, from, to);
  } else if (from == ScalarType::UInt64 && is_floating_type(to)) {
    uint64_to_floating(it, to);
  } else {
    convert_rows<int64_t>(it, from, to);
  }
}

// Walks both views in logical order with their own index counters: the
// general reshape when neither side is row-major. One element at a time: a
// rare case.
void copy_dual_counter(const TensorView& src, const TensorView& dst) {
  const int64_t n = dst.numel();
  const int64_t src_size = static_cast<int64_t>(src.element_size());
  const int64_t dst_size = static_cast<int64_t>(dst.element_size());
  int64_t si[kTensorDimLimit] = {};
  int64_t di[kTensorDimLimit] = {};
  int64_t so = 0;
  int64_t doff = 0;
  // A rank-0 view of one element on each side, for the converting copy.
  TensorView s1 = TensorView::scalar(src.data, src.type);
  TensorView d1 = TensorView::scalar(dst.data, dst.type);
  for (int64_t i = 0; i < n; ++i) {
    char* d = static_cast<char*>(dst.data) + doff * dst_size;
    const char* s = static_cast<const char*>(src.data) + so * src_size;
    if (src.type == dst.type) {
      std::memmove(d, s, static_cast<size_t>(dst_size));
    } else {
      s1.data = const_cast<char*>(s);
      d1.data = d;
      copy_view(s1, d1);
    }
    for (int32_t k = src.dim - 1; k >= 0; --k) {
      so += src.strides[k];
      if (++si[k] < src.sizes[k]) break;
      so -= src.strides[k] * src.sizes[k];
      si[k] = 0;
    }
    for (int32_t k = dst.dim - 1; k >= 0; --k) {
      doff += dst.strides[k];
      if (++di[k] < dst.sizes[k]) break;
      doff -= dst.strides[k] * dst.sizes[k];
      di[k] = 0;
    }
  }
}

// Whether dst is src itself: the same elements at the same addresses (a
// view op whose out the memory planner placed over its input). Strides of
// size-1 dims never address anything, so they may differ.
bool same_elements(const TensorView& src, const TensorView& dst) {
  if (src.data != dst.data || src.type != dst.type || src.dim != dst.dim) return false;
  for (int32_t d = 0; d < src.dim; ++d) {
    if (src.sizes[d] != dst.sizes[d]) return false;
    if (src.sizes[d] > 1 && src.strides[d] != dst.strides[d]) return false;
  }
  return true;
}

}  // namespace

void copy_view(const TensorView& src, const TensorView& dst) {
  if (same_elements(src, dst)) return;
  const TensorView* ops[] = {&dst, &src};
  const NdIter it(dst.sizes, dst.dim, ops, 2);
  if (!copy_same_type(it, src, dst, /*parallel=*/false)) convert_view(it, src.type, dst.type);
}

void copy_view_disjoint(const TensorView& src, const TensorView& dst) {
  const TensorView* ops[] = {&dst, &src};
  const NdIter it(dst.sizes, dst.dim, ops, 2);
  if (!copy_same_type(it, src, dst, /*parallel=*/true)) convert_view(it, src.type, dst.type);
}

void copy_bytes(void* dst, const void* src, size_t n) {
  // Split in cache lines, even for a small copy: a tensor's halves were
  // most likely written on different cores (kernels split their outputs
  // alike), and one thread copying all of it read half from the other
  // core's cache. 16 KiB at least per chunk, so the split still pays.
  constexpr size_t kLine = 64;
  constexpr size_t kMinLines = (size_t{16} << 10) / kLine;
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  parallel_for((n + kLine - 1) / kLine, kMinLines, [&](size_t begin, size_t end) {
    const size_t from = begin * kLine;
    const size_t to = end * kLine < n ? end * kLine : n;
    std::memmove(d + from, s + from, to - from);
  });
}

void copy_reshape(const TensorView& src, const TensorView& dst) {
  bool same_shape = src.dim == dst.dim;
  for (int32_t d = 0; same_shape && d < src.dim; ++d) {
    same_shape = src.sizes[d] == dst.sizes[d];
  }
  if (same_shape) {
    copy_view(src, dst);
    return;
  }
  if (dst.numel() == 0) {
    return;
  }
  if (dst.is_row_major()) {
    // dst's memory seen with src's shape.
    TensorView d = src;
    d.data = dst.data;
    d.type = dst.type;
    row_major_strides(d.sizes, d.dim, d.strides);
    copy_view(src, d);
    return;
  }
  if (src.is_row_major()) {
    TensorView s = dst;
    s.data = src.data;
    s.type = src.type;
    row_major_strides(s.sizes, s.dim, s.strides);
    copy_view(s, dst);
    return;
  }
  copy_dual_counter(src, dst);
}

Error check_copy_dtypes(const Tensor& self, const Tensor& out) {
  TRI_TRY(check_dtype(self.scalar_type(), kAllTypes, "self"));
  return check_dtype(out.scalar_type(), kAllTypes, "out");
}

Error copy_into(const TensorView& src, Tensor& out) {
  TRI_TRY(resize_out(out, Span<const int64_t>(src.sizes, static_cast<size_t>(src.dim))));
  copy_view(src, TensorView::of(out));
  return Error::Ok;
}

bool bytes_overlap(const Tensor& a, const Tensor& b) {
  const char* pa = static_cast<const char*>(a.data());
  const char* pb = static_cast<const char*>(b.data());
  if (a.nbytes() == 0 || b.nbytes() == 0 || pa == nullptr || pb == nullptr) return false;
  return pa < pb + b.nbytes() && pb < pa + a.nbytes();
}

Error alias_result(const Tensor& self, Tensor& ret) {
  if (&ret == &self) return Error::Ok;
  if (ret.data() == self.data() && ret.scalar_type() == self.scalar_type()) {
    return resize_out(ret, self.sizes());
  }
  TRI_CHECK(!bytes_overlap(self, ret), Error::NotSupported,
            "the returned value shares memory with self without being self");
  TRI_TRY(check_same_dtype(ret, self.scalar_type(), "the returned value"));
  return copy_into(TensorView::of(self), ret);
}

}  // namespace tri
