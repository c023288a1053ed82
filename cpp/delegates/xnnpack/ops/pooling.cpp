// MaxPooling2d, AvgPooling2d, GlobalAvgPooling2d and ArgMaxPooling2d over
// NHWC data, vectorized across channels. Padding taps are skipped: max
// pooling ignores them and average pooling divides by the taps that fall
// inside the input (XNNPACK's count_include_pad=False). Quantized inputs
// take max pooling in int8 directly and average through int32 sums.
#include <cinttypes>
#include <cstring>

#include "cpp/delegates/xnnpack/ops/conv_common.h"
#include "cpp/delegates/xnnpack/ops/quant_params.h"
#include "cpp/kernels/simd/qs8_dot.h"
#include "cpp/kernels/util/gemm_f4.h"
#include "cpp/runtime/platform/parallel.h"

namespace tri::xnnpack {
namespace {

bool quantized8(DType d) { return d == DType::QInt8 || d == DType::QUInt8; }

Error check_pool(Node& node, const Value* values) {
  const Value& x = in(node, values, 0);
  const Value& y = out(node, values);
  TRI_TRY(expect_rank(node, x, "input", 4));
  if (node.type != NodeType::GlobalAvgPooling2d) {
    const PoolParams& p = node.params.pool;
    TRI_CHECK(p.pool_h >= 1 && p.pool_w >= 1 && p.stride_h >= 1 && p.stride_w >= 1 &&
                  p.pool_h <= 4096 && p.pool_w <= 4096 && p.stride_h < (1u << 24) &&
                  p.stride_w < (1u << 24) && p.dilation_h < (1u << 24) &&
                  p.dilation_w < (1u << 24) && p.pad_top < (1u << 24) &&
                  p.pad_bottom < (1u << 24) && p.pad_left < (1u << 24) &&
                  p.pad_right < (1u << 24),
              Error::InvalidProgram,
              "pooling window %" PRIu32 "x%" PRIu32 ", stride %" PRIu32 "x%" PRIu32
              " out of range",
              p.pool_h, p.pool_w, p.stride_h, p.stride_w);
  }
  if (x.dtype == DType::F32) {
    TRI_TRY(expect_dtype(node, y, "output", DType::F32));
  } else {
    TRI_CHECK(quantized8(x.dtype) && y.dtype == x.dtype && node.type != NodeType::ArgMaxPooling2d,
              Error::NotSupported, "%s of %s into %s is not supported", node_type_name(node.type),
              dtype_name(x.dtype), dtype_name(y.dtype));
    TRI_CHECK(node.type != NodeType::MaxPooling2d ||
                  (x.quant.scale == y.quant.scale && x.quant.zero_point == y.quant.zero_point),
              Error::NotSupported, "quantized max pooling needs the same input and output quantization");
  }
  return Error::Ok;
}

Error reshape_pool(const Node& node, Value* values) {
  const Value& x = in(node, values, 0);
  if (node.type == NodeType::GlobalAvgPooling2d) {
    if ((node.flags & kFlagKeepDims) != 0) {
      const int32_t dims[4] = {x.dim(0), 1, 1, x.dim(3)};
      return resize_output(node, values, 0, dims, 4);
    }
    const int32_t dims[2] = {x.dim(0), x.dim(3)};
    return resize_output(node, values, 0, dims, 2);
  }
  const Window w = pool_window(node.params.pool);
  const PoolParams& p = node.params.pool;
  int64_t oh, ow;
  if (node.type == NodeType::ArgMaxPooling2d) {
    oh = (int64_t{x.dim(1)} + p.pad_top + p.pad_bottom) / p.pool_h;
    ow = (int64_t{x.dim(2)} + p.pad_left + p.pad_right) / p.pool_w;
  } else {
    oh = conv_out_size(x.dim(1), int64_t{p.pad_top} + p.pad_bottom, w.kernel_h, w.dilation_h, w.stride_h);
    ow = conv_out_size(x.dim(2), int64_t{p.pad_left} + p.pad_right, w.kernel_w, w.dilation_w, w.stride_w);
  }
  TRI_CHECK(oh >= 0 && ow >= 0 && oh <= 0x7FFFFFFF && ow <= 0x7FFFFFFF, Error::InvalidArgument,
            "a %dx%d input gives a %" PRId64 "x%" PRId64 " output", x.dim(1), x.dim(2), oh, ow);
  const int32_t dims[4] = {x.dim(0), static_cast<int32_t>(oh), static_cast<int32_t>(ow), x.dim(3)};
  TRI_TRY(resize_output(node, values, 0, dims, 4));
  if (node.type == NodeType::ArgMaxPooling2d) return resize_output(node, values, 1, dims, 4);
  return Error::Ok;
}

size_t scratch_pool(const Node& node, const Value* values) {
  if (node.type == NodeType::GlobalAvgPooling2d) {
    return in(node, values, 0).dim(3) * sizeof(float) + 64;
  }
  const size_t ks = size_t{node.params.pool.pool_h} * node.params.pool.pool_w;
  return ks * sizeof(void*) + in(node, values, 0).dim(3) * sizeof(int32_t) + 64;
}

// ---- float32 ------------------------------------------------------------------

// One output pixel of max (or average) pooling over the non-null taps.
void f32_pool_pixel(bool is_max, size_t c, const float* const* taps, size_t ks, float* out,
                    float lo, float hi) {
  size_t valid = 0;
  for (size_t t = 0; t < ks; ++t) valid += taps[t] != nullptr;
  const float init = is_max ? -__builtin_inff() : 0.0f;
  const float scale = valid > 0 ? 1.0f / static_cast<float>(valid) : 0.0f;
  const F4 vlo = f4_splat(lo);
  const F4 vhi = f4_splat(hi);
  size_t i = 0;
  for (; i + 4 <= c; i += 4) {
    F4 acc = f4_splat(init);
    for (size_t t = 0; t < ks; ++t) {
      if (taps[t] == nullptr) continue;
      const F4 v = f4_load(taps[t] + i);
      acc = is_max ? f4_max(acc, v) : f4_add(acc, v);
    }
    if (!is_max) acc = f4_mul(acc, f4_splat(scale));
    f4_store(out + i, f4_clamp(acc, vlo, vhi));
  }
  for (; i < c; ++i) {
    float acc = init;
    for (size_t t = 0; t < ks; ++t) {
      if (taps[t] == nullptr) continue;
      acc = is_max ? f4_lane_max(acc, taps[t][i]) : acc + taps[t][i];
    }
    if (!is_max) acc *= scale;
    out[i] = f4_lane_min(f4_lane_max(acc, lo), hi);
  }
}

// ---- runs ---------------------------------------------------------------------

Error run_window_pool(const Node& node, Value* values, RunContext& ctx) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values);
  const Window w = pool_window(node.params.pool);
  const size_t ks = size_t{w.kernel_h} * w.kernel_w;
  const size_t c = static_cast<size_t>(x.dim(3));
  const void** taps = ctx.scratch->allocate_array<const void*>(ks);
  int32_t* sums = ctx.scratch->allocate_array<int32_t>(c);
  TRI_CHECK(taps != nullptr && sums != nullptr, Error::MemoryAllocationFailed,
            "no scratch for the pooling window");
  const bool is_max = node.type == NodeType::MaxPooling2d;
  const WindowWalker walk(w, x, y);
  const size_t pixels = static_cast<size_t>(y.dim(1)) * y.dim(2);
  const size_t elem = element_size(x.tensor.scalar_type());
  const size_t in_image = static_cast<size_t>(x.dim(1)) * x.dim(2) * c * elem;
  int32_t qmin = 0, qmax = 0;
  if (x.dtype != DType::F32) quantized_output_range(node, y, &qmin, &qmax);
  // Float windows of usual sizes: pixels spread over the thread pool, each
  // piece with its tap pointers on its own stack.
  constexpr size_t kStackTaps = 64;
  if (x.dtype == DType::F32 && ks <= kStackTaps) {
    const size_t total = static_cast<size_t>(x.dim(0)) * pixels;
    parallel_for(total, (size_t{1} << 12) / (c * ks + 1) + 1, [&](size_t p0, size_t p1) {
      const void* local[kStackTaps];
      for (size_t p = p0; p < p1; ++p) {
        const uint8_t* image = static_cast<const uint8_t*>(x.data()) + (p / pixels) * in_image;
        walk.fill(image, 0, nullptr, p % pixels, 1, 1, local);
        f32_pool_pixel(is_max, c, reinterpret_cast<const float* const*>(local), ks,
                       y.data_as<float>() + p * c, node.out_min, node.out_max);
      }
    });
    return Error::Ok;
  }
  for (int32_t n = 0; n < x.dim(0); ++n) {
    const uint8_t* image = static_cast<const uint8_t*>(x.data()) + static_cast<size_t>(n) * in_image;
    for (size_t px = 0; px < pixels; ++px) {
      // Pointers are gathered with padding taps as nullptr.
      walk.fill(image, 0, nullptr, px, 1, 1, taps);
      const size_t at = (static_cast<size_t>(n) * pixels + px) * c;
      if (x.dtype == DType::F32) {
        f32_pool_pixel(is_max, c, reinterpret_cast<const float* const*>(taps), ks,
                       y.data_as<float>() + at, node.out_min, node.out_max);
        continue;
      }
      const bool u8 = x.dtype == DType::QUInt8;
      size_t valid = 0;
      for (size_t i = 0; i < c; ++i) sums[i] = is_max ? q8_min(x) : 0;
      for (size_t t = 0; t < ks; ++t) {
        if (taps[t] == nullptr) continue;
        ++valid;
        for (size_t i = 0; i < c; ++i) {
          const int32_t q = u8 ? static_cast<const uint8_t*>(taps[t])[i]
                               : static_cast<const int8_t*>(taps[t])[i];
          sums[i] = is_max ? (q > sums[i] ? q : sums[i]) : wrap_add(sums[i], q - x.quant.zero_point);
        }
      }
      const float scale =
          is_max ? 0.0f : x.quant.scale / (y.quant.scale * static_cast<float>(valid ? valid : 1));
      for (size_t i = 0; i < c; ++i) {
        int32_t q = is_max ? sums[i] : requantize(sums[i], scale, y.quant.zero_point, qmin, qmax);
        store_q8(y, at + i, q < qmin ? qmin : (q > qmax ? qmax : q));
      }
    }
  }
  return Error::Ok;
}

Error run_global(const Node& node, Value* values, RunContext& ctx) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values);
  const size_t c = static_cast<size_t>(x.dim(3));
  const size_t hw = static_cast<size_t>(x.dim(1)) * x.dim(2);
  float* acc = ctx.scratch->allocate_array<float>(c);
  TRI_CHECK(acc != nullptr, Error::MemoryAllocationFailed, "no scratch for global pooling");
  const float inv = hw > 0 ? 1.0f / static_cast<float>(hw) : 0.0f;
  int32_t qmin = 0, qmax = 0;
  if (x.dtype != DType::F32) quantized_output_range(node, y, &qmin, &qmax);
  for (int32_t n = 0; n < x.dim(0); ++n) {
    memset(acc, 0, c * sizeof(float));
    if (x.dtype == DType::F32) {
      const float* image = x.data_as<const float>() + static_cast<size_t>(n) * hw * c;
      for (size_t p = 0; p < hw; ++p) {
        const float* px = image + p * c;
        size_t i = 0;
        for (; i + 4 <= c; i += 4) f4_store(acc + i, f4_add(f4_load(acc + i), f4_load(px + i)));
        for (; i < c; ++i) acc[i] += px[i];
      }
      float* o = y.data_as<float>() + static_cast<size_t>(n) * c;
      for (size_t i = 0; i < c; ++i) {
        o[i] = f4_lane_min(f4_lane_max(acc[i] * inv, node.out_min), node.out_max);
      }
      continue;
    }
    const size_t image = static_cast<size_t>(n) * hw * c;
    for (size_t p = 0; p < hw; ++p) {
      for (size_t i = 0; i < c; ++i) {
        acc[i] += static_cast<float>(load_q8(x, image + p * c + i) - x.quant.zero_point);
      }
    }
    const float scale = x.quant.scale * inv / y.quant.scale;
    for (size_t i = 0; i < c; ++i) {
      store_q8(y, static_cast<size_t>(n) * c + i,
               quantize_value(acc[i], scale, y.quant.zero_point, qmin, qmax));
    }
  }
  return Error::Ok;
}

// Windows tile the input (stride = window); the index is the winning tap's
// position in its window, column-major (x * pool_h + y) as XNNPACK's.
Error run_argmax(const Node& node, Value* values, RunContext&) {
  const Value& x = in(node, values, 0);
  Value& y = out(node, values, 0);
  Value& index = out(node, values, 1);
  const PoolParams& p = node.params.pool;
  const size_t c = static_cast<size_t>(x.dim(3));
  const ScalarType index_type = index.tensor.scalar_type();
  for (int32_t n = 0; n < x.dim(0); ++n) {
    for (int32_t oh = 0; oh < y.dim(1); ++oh) {
      for (int32_t ow = 0; ow < y.dim(2); ++ow) {
        const size_t at = ((static_cast<size_t>(n) * y.dim(1) + oh) * y.dim(2) + ow) * c;
        for (size_t i = 0; i < c; ++i) {
          float best = -__builtin_inff();
          uint32_t best_index = 0;
          bool found = false;
          for (uint32_t py = 0; py < p.pool_h; ++py) {
            const int64_t ih = int64_t{oh} * p.pool_h + py - p.pad_top;
            if (ih < 0 || ih >= x.dim(1)) continue;
            for (uint32_t px = 0; px < p.pool_w; ++px) {
              const int64_t iw = int64_t{ow} * p.pool_w + px - p.pad_left;
              if (iw < 0 || iw >= x.dim(2)) continue;
              const float v = x.data_as<const float>()[((static_cast<size_t>(n) * x.dim(1) + ih) * x.dim(2) + iw) * c + i];
              if (!found || v > best) {
                best = v;
                best_index = px * p.pool_h + py;
                found = true;
              }
            }
          }
          y.data_as<float>()[at + i] = best;
          if (index_type == ScalarType::Long) {
            index.data_as<int64_t>()[at + i] = best_index;
          } else if (index_type == ScalarType::Float) {
            index.data_as<float>()[at + i] = static_cast<float>(best_index);
          } else {
            index.data_as<int32_t>()[at + i] = static_cast<int32_t>(best_index);
          }
        }
      }
    }
  }
  return Error::Ok;
}

Error run_pool(const Node& node, Value* values, RunContext& ctx) {
  switch (node.type) {
    case NodeType::GlobalAvgPooling2d: return run_global(node, values, ctx);
    case NodeType::ArgMaxPooling2d: return run_argmax(node, values, ctx);
    default: return run_window_pool(node, values, ctx);
  }
}

const OpDef kPooling = {&check_pool, &reshape_pool, &scratch_pool, nullptr, nullptr, &run_pool};

}  // namespace

const OpDef* pooling_op_def(NodeType type) {
  switch (type) {
    case NodeType::MaxPooling2d:
    case NodeType::AvgPooling2d:
    case NodeType::GlobalAvgPooling2d:
    case NodeType::ArgMaxPooling2d: return &kPooling;
    default: return nullptr;
  }
}

}  // namespace tri::xnnpack
