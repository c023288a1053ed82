// Data movement: StaticTranspose, StaticReshape, Copy, StaticSlice,
// StaticConstantPad, Concatenate2..5 and StaticResizeBilinear2D. They work
// on bytes, so float and int8 values share the paths; concatenating int8
// inputs quantized differently from the output requantizes them.
#include <cinttypes>
#include <cmath>
#include <cstring>

#include "cpp/delegates/xnnpack/ops/quant_params.h"
#include "cpp/kernels/simd/qs8_dot.h"
#include "cpp/kernels/util/copy.h"
#include "cpp/kernels/util/tensor_view.h"

namespace tri::xnnpack {
namespace {

size_t elem_bytes(const Value& v) { return element_size(v.tensor.scalar_type()); }

Error check_same_dtype(Node& node, const Value* values) {
  const Value& y = out(node, values);
  TRI_CHECK(y.dtype == DType::F32 || y.dtype == DType::QInt8 || y.dtype == DType::QUInt8,
            Error::NotSupported, "%s of %s values is not supported", node_type_name(node.type),
            dtype_name(y.dtype));
  for (int i = 0; i < node.num_inputs; ++i) {
    const Value& x = in(node, values, i);
    TRI_CHECK(x.dtype == y.dtype, Error::NotSupported, "input %d is %s, the output %s", i,
              dtype_name(x.dtype), dtype_name(y.dtype));
  }
  return Error::Ok;
}

// `v` as the kernel library's strided view (row-major, as the delegate's
// values are): slice, transpose and pad are views of their input (or
// output) handed to copy_view_disjoint, which copies contiguous runs over
// the thread pool, not element by element (a transformer layer's three
// q/k/v slices took 0.23 ms each that way, against 6 us for the portable
// slice_copy).
TensorView view_of(const Value& v) {
  TensorView t;
  t.data = v.data();
  t.type = v.tensor.scalar_type();
  t.dim = v.rank();
  for (int32_t d = 0; d < t.dim; ++d) t.sizes[d] = v.dim(d);
  row_major_strides(t.sizes, t.dim, t.strides);
  return t;
}

// The view moved by `offset[d]` elements along each dim d.
void shift_view(TensorView& t, const int64_t* offset) {
  int64_t at = 0;
  for (int32_t d = 0; d < t.dim; ++d) at += offset[d] * t.strides[d];
  t.data = static_cast<uint8_t*>(t.data) + at * static_cast<int64_t>(t.element_size());
}

// ---- transpose ------------------------------------------------------------

Error check_transpose(Node& node, const Value* values) {
  TRI_TRY(check_same_dtype(node, values));
  const DimLists& d = node.params.dims;
  bool seen[kMaxDims] = {};
  for (uint8_t i = 0; i < d.rank; ++i) {
    TRI_CHECK(d.a[i] >= 0 && d.a[i] < d.rank && !seen[d.a[i]], Error::InvalidProgram,
              "perm is not a permutation of 0..%u", static_cast<unsigned>(d.rank) - 1);
    seen[d.a[i]] = true;
  }
  return Error::Ok;
}

Error reshape_transpose(const Node& node, Value* values) {
  const Value& x = in(node, values, 0);
  const DimLists& d = node.params.dims;
  TRI_CHECK(x.rank() == d.rank, Error::InvalidArgument, "a rank-%d input for a rank-%u perm",
            x.rank(), static_cast<unsigned>(d.rank));
  int32_t dims[kMaxDims];
  for (int i = 0; i < d.rank; ++i) dims[i] = x.dim(static_cast<int32_t>(d.a[i]));
  return resize_output(node, values, 0, dims, d.rank);
}

Error run_transpose(const Node& node, Value* values, RunContext&) {
  const Value& x = in(node, values, 0);
  const DimLists& d = node.params.dims;
  // Output dim k walks input dim perm[k].
  const TensorView input = view_of(x);
  TensorView permuted = input;
  for (int32_t k = 0; k < input.dim; ++k) {
    permuted.sizes[k] = input.sizes[d.a[k]];
    permuted.strides[k] = input.strides[d.a[k]];
  }
  copy_view_disjoint(permuted, view_of(out(node, values)));
  return Error::Ok;
}

// ---- reshape and copy ----------------------------------------------------------

Error check_reshape(Node& node, const Value* values) {
  TRI_TRY(check_same_dtype(node, values));
  if (node.type == NodeType::Copy) return Error::Ok;
  int zeros = 0;
  for (uint8_t i = 0; i < node.params.dims.rank; ++i) zeros += node.params.dims.a[i] == 0;
  TRI_CHECK(zeros <= 1, Error::InvalidProgram,
            "new_shape has %d dims to infer (0 entries); at most one is allowed", zeros);
  return Error::Ok;
}

Error reshape_reshape(const Node& node, Value* values) {
  const Value& x = in(node, values, 0);
  if (node.type == NodeType::Copy) {
    return resize_output(node, values, 0, x.tensor.sizes().data(), x.rank());
  }
  const DimLists& d = node.params.dims;
  int32_t dims[kMaxDims];
  size_t known = 1;
  int infer = -1;
  for (int i = 0; i < d.rank; ++i) {
    if (d.a[i] == 0) {
      infer = i;
      continue;
    }
    TRI_CHECK(d.a[i] <= 0x7FFFFFFF, Error::InvalidProgram, "new_shape dim %d is %" PRId64, i,
              d.a[i]);
    dims[i] = static_cast<int32_t>(d.a[i]);
    known *= static_cast<size_t>(d.a[i]);
  }
  if (infer >= 0) {
    TRI_CHECK(known > 0 && x.numel() % known == 0, Error::InvalidArgument,
              "%zu elements cannot take the shape with one dim inferred", x.numel());
    dims[infer] = static_cast<int32_t>(x.numel() / known);
    known *= static_cast<size_t>(dims[infer]);
  }
  TRI_CHECK(known == x.numel(), Error::InvalidArgument,
            "%zu elements cannot be reshaped to %zu", x.numel(), known);
  return resize_output(node, values, 0, dims, d.rank);
}

Error run_copy(const Node& node, Value* values, RunContext&) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values);
  if (y.data() != x.data()) memmove(y.data(), x.data(), x.numel() * elem_bytes(x));
  return Error::Ok;
}

// ---- slice ------------------------------------------------------------------------

Error reshape_slice(const Node& node, Value* values) {
  const Value& x = in(node, values, 0);
  const DimLists& d = node.params.dims;
  TRI_CHECK(x.rank() == d.rank, Error::InvalidArgument, "a rank-%d input for a rank-%u slice",
            x.rank(), static_cast<unsigned>(d.rank));
  int32_t dims[kMaxDims];
  for (int i = 0; i < d.rank; ++i) {
    // A size of 0 takes the rest of the dim.
    const int64_t size = d.b[i] == 0 ? x.dim(i) - d.a[i] : d.b[i];
    TRI_CHECK(d.a[i] >= 0 && size >= 0 && d.a[i] + size <= x.dim(i), Error::InvalidArgument,
              "slice [%" PRId64 ", +%" PRId64 ") of dim %d, which is %d long", d.a[i], size, i,
              x.dim(i));
    dims[i] = static_cast<int32_t>(size);
  }
  return resize_output(node, values, 0, dims, d.rank);
}

Error run_slice(const Node& node, Value* values, RunContext&) {
  const Value& y = out(node, values);
  TensorView window = view_of(in(node, values, 0));
  shift_view(window, node.params.dims.a);
  for (int32_t k = 0; k < window.dim; ++k) window.sizes[k] = y.dim(k);
  copy_view_disjoint(window, view_of(y));
  return Error::Ok;
}

// ---- constant pad ----------------------------------------------------------------

Error reshape_pad(const Node& node, Value* values) {
  const Value& x = in(node, values, 0);
  const DimLists& d = node.params.scalar.dims;
  TRI_CHECK(x.rank() == d.rank, Error::InvalidArgument, "a rank-%d input for rank-%u paddings",
            x.rank(), static_cast<unsigned>(d.rank));
  int32_t dims[kMaxDims];
  for (int i = 0; i < d.rank; ++i) {
    const int64_t size = x.dim(i) + d.a[i] + d.b[i];
    TRI_CHECK(size <= 0x7FFFFFFF, Error::InvalidArgument, "padded dim %d would be %" PRId64, i,
              size);
    dims[i] = static_cast<int32_t>(size);
  }
  return resize_output(node, values, 0, dims, d.rank);
}

Error run_pad(const Node& node, Value* values, RunContext&) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values);
  // The padding value everywhere, then the input into its window.
  const float v = node.params.scalar.value;
  const size_t n = y.numel();
  if (y.dtype == DType::F32) {
    float* p = y.data_as<float>();
    for (size_t i = 0; i < n; ++i) p[i] = v;
  } else {
    memset(y.data(), static_cast<uint8_t>(quantize_value(v, 1.0f / y.quant.scale,
                                                         y.quant.zero_point, q8_min(y),
                                                         q8_max(y))),
           n);
  }
  TensorView window = view_of(y);
  shift_view(window, node.params.scalar.dims.a);
  for (int32_t k = 0; k < window.dim; ++k) window.sizes[k] = x.dim(k);
  copy_view_disjoint(view_of(x), window);
  return Error::Ok;
}

// ---- concatenate ------------------------------------------------------------------

Error check_concat(Node& node, const Value* values) {
  const Value& y = out(node, values);
  TRI_CHECK(y.dtype == DType::F32 || y.dtype == DType::QInt8 || y.dtype == DType::QUInt8,
            Error::NotSupported, "concatenating %s values is not supported", dtype_name(y.dtype));
  for (int i = 0; i < node.num_inputs; ++i) {
    TRI_CHECK(in(node, values, i).dtype == y.dtype, Error::NotSupported,
              "input %d is %s, the output %s", i, dtype_name(in(node, values, i).dtype),
              dtype_name(y.dtype));
  }
  return Error::Ok;
}

Error reshape_concat(const Node& node, Value* values) {
  const Value& first = in(node, values, 0);
  const int32_t axis = node.params.concat.axis;
  TRI_CHECK(axis >= 0 && axis < first.rank(), Error::InvalidArgument,
            "axis %d of rank-%d inputs", axis, first.rank());
  int32_t dims[kMaxDims];
  for (int32_t d = 0; d < first.rank(); ++d) dims[d] = first.dim(d);
  int64_t total = 0;
  for (int i = 0; i < node.num_inputs; ++i) {
    const Value& x = in(node, values, i);
    TRI_CHECK(x.rank() == first.rank(), Error::InvalidArgument,
              "input %d has rank %d, input 0 rank %d", i, x.rank(), first.rank());
    for (int32_t d = 0; d < x.rank(); ++d) {
      TRI_CHECK(d == axis || x.dim(d) == first.dim(d), Error::InvalidArgument,
                "input %d has dim %d = %d, input 0 has %d", i, d, x.dim(d), first.dim(d));
    }
    total += x.dim(axis);
  }
  TRI_CHECK(total <= 0x7FFFFFFF, Error::InvalidArgument, "concatenated dim is too large");
  dims[axis] = static_cast<int32_t>(total);
  return resize_output(node, values, 0, dims, first.rank());
}

Error run_concat(const Node& node, Value* values, RunContext&) {
  Value& y = out(node, values);
  const int32_t axis = node.params.concat.axis;
  const size_t e = elem_bytes(y);
  size_t outer = 1;
  for (int32_t d = 0; d < axis; ++d) outer *= static_cast<size_t>(y.dim(d));
  size_t inner = e;
  for (int32_t d = axis + 1; d < y.rank(); ++d) inner *= static_cast<size_t>(y.dim(d));
  const size_t out_row = static_cast<size_t>(y.dim(axis)) * inner;
  size_t at = 0;
  for (int i = 0; i < node.num_inputs; ++i) {
    const Value& x = in(node, values, i);
    const size_t row = static_cast<size_t>(x.dim(axis)) * inner;
    const bool requant = y.dtype != DType::F32 && (x.quant.scale != y.quant.scale ||
                                                   x.quant.zero_point != y.quant.zero_point);
    for (size_t o = 0; o < outer; ++o) {
      const uint8_t* src = static_cast<const uint8_t*>(x.data()) + o * row;
      uint8_t* dst = static_cast<uint8_t*>(y.data()) + o * out_row + at;
      if (!requant) {
        memcpy(dst, src, row);
        continue;
      }
      const bool u8 = y.dtype == DType::QUInt8;
      const float scale = x.quant.scale / y.quant.scale;
      for (size_t k = 0; k < row; ++k) {
        const int32_t q = u8 ? src[k] : static_cast<int8_t>(src[k]);
        dst[k] = static_cast<uint8_t>(requantize(q - x.quant.zero_point, scale,
                                                 y.quant.zero_point, q8_min(y), q8_max(y)));
      }
    }
    at += row;
  }
  return Error::Ok;
}

// ---- bilinear resize ----------------------------------------------------------------

Error check_resize(Node& node, const Value* values) {
  TRI_TRY(check_same_dtype(node, values));
  TRI_TRY(expect_rank(node, in(node, values, 0), "input", 4));
  TRI_CHECK((node.flags & kFlagTensorflowLegacy) == 0 || (node.flags & kFlagAlignCorners) == 0,
            Error::InvalidProgram, "align-corners and TensorFlow legacy modes exclude each other");
  TRI_CHECK(node.params.resize.new_h <= 0x7FFFFFFF && node.params.resize.new_w <= 0x7FFFFFFF,
            Error::InvalidProgram, "output size out of range");
  return Error::Ok;
}

Error reshape_resize(const Node& node, Value* values) {
  const Value& x = in(node, values, 0);
  TRI_CHECK((x.dim(1) > 0 && x.dim(2) > 0) || node.params.resize.new_h == 0 ||
                node.params.resize.new_w == 0 || x.dim(0) == 0 || x.dim(3) == 0,
            Error::InvalidArgument, "cannot resize a %dx%d image to %" PRIu32 "x%" PRIu32,
            x.dim(1), x.dim(2), node.params.resize.new_h, node.params.resize.new_w);
  const int32_t dims[4] = {x.dim(0), static_cast<int32_t>(node.params.resize.new_h),
                           static_cast<int32_t>(node.params.resize.new_w), x.dim(3)};
  return resize_output(node, values, 0, dims, 4);
}

// Source coordinate of output index `o` along a dim (XNNPACK's modes).
void source_of(const Node& node, int32_t o, int32_t in_size, int32_t out_size, int32_t* i0,
               int32_t* i1, float* alpha) {
  const bool align = (node.flags & kFlagAlignCorners) != 0;
  const bool legacy = (node.flags & kFlagTensorflowLegacy) != 0;
  const int32_t adj = align && out_size > 1 ? 1 : 0;
  const float scale = out_size - adj > 0 ? static_cast<float>(in_size - adj) / (out_size - adj) : 0.0f;
  const float offset = align || legacy ? 0.0f : 0.5f * scale - 0.5f;
  float src = static_cast<float>(o) * scale + offset;
  if (src < 0) src = 0;
  const int32_t lo = static_cast<int32_t>(std::floor(src));
  *i0 = lo < in_size - 1 ? lo : in_size - 1;
  *i1 = lo + 1 < in_size - 1 ? lo + 1 : in_size - 1;
  *alpha = src - static_cast<float>(lo);
}

Error run_resize(const Node& node, Value* values, RunContext&) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values);
  const int32_t ih = x.dim(1), iw = x.dim(2), c = x.dim(3);
  const bool f32 = y.dtype == DType::F32;
  auto load = [&](int32_t n, int32_t h, int32_t w, int32_t ch) -> float {
    const size_t i = ((static_cast<size_t>(n) * ih + h) * iw + w) * c + ch;
    return f32 ? x.data_as<const float>()[i] : static_cast<float>(load_q8(x, i));
  };
  for (int32_t n = 0; n < y.dim(0); ++n) {
    for (int32_t oh = 0; oh < y.dim(1); ++oh) {
      int32_t h0, h1;
      float ah;
      source_of(node, oh, ih, y.dim(1), &h0, &h1, &ah);
      for (int32_t ow = 0; ow < y.dim(2); ++ow) {
        int32_t w0, w1;
        float aw;
        source_of(node, ow, iw, y.dim(2), &w0, &w1, &aw);
        const size_t at = ((static_cast<size_t>(n) * y.dim(1) + oh) * y.dim(2) + ow) * c;
        for (int32_t ch = 0; ch < c; ++ch) {
          const float top = load(n, h0, w0, ch) + (load(n, h0, w1, ch) - load(n, h0, w0, ch)) * aw;
          const float bottom = load(n, h1, w0, ch) + (load(n, h1, w1, ch) - load(n, h1, w0, ch)) * aw;
          const float v = top + (bottom - top) * ah;
          if (f32) {
            y.data_as<float>()[at + ch] = v;
          } else {
            // Same quantization in and out: interpolate the integers.
            const int32_t q = static_cast<int32_t>(std::nearbyint(v));
            store_q8(y, at + ch, q < q8_min(y) ? q8_min(y) : (q > q8_max(y) ? q8_max(y) : q));
          }
        }
      }
    }
  }
  return Error::Ok;
}

Error check_resize_quant(Node& node, const Value* values) {
  TRI_TRY(check_resize(node, values));
  const Value& x = in(node, values, 0);
  const Value& y = out(node, values);
  TRI_CHECK(x.dtype == DType::F32 ||
                (x.quant.scale == y.quant.scale && x.quant.zero_point == y.quant.zero_point),
            Error::NotSupported, "quantized resize needs the same input and output quantization");
  return Error::Ok;
}

const OpDef kTranspose = {&check_transpose, &reshape_transpose, nullptr, nullptr, nullptr, &run_transpose};
const OpDef kReshape = {&check_reshape, &reshape_reshape, nullptr, nullptr, nullptr, &run_copy};
const OpDef kSlice = {&check_same_dtype, &reshape_slice, nullptr, nullptr, nullptr, &run_slice};
const OpDef kPad = {&check_same_dtype, &reshape_pad, nullptr, nullptr, nullptr, &run_pad};
const OpDef kConcat = {&check_concat, &reshape_concat, nullptr, nullptr, nullptr, &run_concat};
const OpDef kResize = {&check_resize_quant, &reshape_resize, nullptr, nullptr, nullptr, &run_resize};

}  // namespace

const OpDef* shape_op_def(NodeType type) {
  switch (type) {
    case NodeType::StaticTranspose: return &kTranspose;
    case NodeType::StaticReshape:
    case NodeType::Copy: return &kReshape;
    case NodeType::StaticSlice: return &kSlice;
    case NodeType::StaticConstantPad: return &kPad;
    case NodeType::Concatenate2:
    case NodeType::Concatenate3:
    case NodeType::Concatenate4:
    case NodeType::Concatenate5: return &kConcat;
    case NodeType::StaticResizeBilinear2D: return &kResize;
    default: return nullptr;
  }
}

}  // namespace tri::xnnpack
