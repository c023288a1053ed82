// Convolution (plain and transposed, 1-3 spatial dims, groups) as im2col +
// gemm per (image, group), over chunks of window positions sized to the
// temp memory that is left. Called by aten::convolution.out after its checks.
#pragma once

#include <cstdint>

#include "cpp/kernels/util/channel_affine.h"
#include "cpp/kernels/util/conv_geometry.h"
#include "cpp/runtime/core/tensor.h"
#include "cpp/runtime/kernel/operator_registry.h"

namespace tri {

struct ConvProblem {
  // Plain: img = input spatial, grid = output spatial. Transposed: img =
  // output spatial, grid = input spatial (the roles swap).
  WindowGeom g;
  int64_t batch = 0;
  int64_t in_ch = 0;
  int64_t out_ch = 0;
  int64_t groups = 1;
  bool transposed = false;
  const Tensor* input = nullptr;  // [N, C, D, H, W] after the size-1 padding below
  const Tensor* weight = nullptr;
  const Tensor* bias = nullptr;   // may be null
  Tensor* out = nullptr;
  // Element strides padded to 5 dims (n, c, d, h, w) and weight sizes/strides.
  int64_t in_st[5] = {};
  int64_t out_st[5] = {};
  int64_t w_size[5] = {};
  int64_t w_st[5] = {};
  // A fused per-channel tail (trident::conv_affine_clamp), applied after
  // the bias as each output value is finished. Float32, not transposed.
  ChannelAffine affine;
  // The out lies over the input (a memory plan that gave the input's
  // memory, dead after the convolution, to what a fused tail writes).
  // Then every input value is read into the column buffer before the
  // first write, or, for a depthwise 3x3 whose out is its input exactly
  // (depthwise3x3_in_place_applies), each input row is saved before its
  // output row covers it. Where neither can be (transposed, other
  // depthwise overlaps, several images or groups, more positions than one
  // column tile), the run fails with NotSupported before writing anything.
  bool out_over_input = false;
};

// Fails with MemoryAllocationFailed (temp too small) before writing out, or
// InvalidArgument for an affine tail on a problem that cannot take one.
Error run_convolution(KernelContext& context, const ConvProblem& p);

// The temp run_convolution takes for p (out set): its fixed part and one
// column tile. With less it fails; with less than a full tile, it tiles finer.
size_t convolution_scratch(const ConvProblem& p);

// Column tiles of at most this many bytes, whatever temp is left: the tiles
// the fixed 8 MiB arena gave before scratch was sized per instruction (1 MiB
// tiles ran resnet18 no faster, 256 KiB ones slower).
constexpr int64_t kConvTileBytes = int64_t{8} << 20;

// Window positions per column tile: as many as `bytes` holds at `per_pos`
// bytes a position, no more than kConvTileBytes holds, within [1, positions].
int64_t conv_tile_positions(int64_t bytes, int64_t per_pos, int64_t positions);

// The column bytes a float32 convolution's im2col fills and its gemm packs
// at a time on one thread, so that they stay in that core's L2 between the
// two. Packing reads 16 positions of every column row: with the whole tile
// filled first, 288 rows by 12544 positions (32 -> 32 channels, 3x3, at
// 112x112) meant 288 cache misses per panel. A wasm harness timing im2col
// + gemm there: 9.97 ms in one tile, 8.42-8.51 in chunks of 256-1024
// positions (64 channels at 56x56: 8.04 -> 7.50).
constexpr int64_t kConvChunkBytes = int64_t{512} << 10;

// Positions per chunk of a span of positions with `row_bytes` of columns
// each: about what kConvChunkBytes holds, at least 64 positions, the span
// split evenly in whole 16-position gemm panels; the span itself when one
// chunk holds it.
int64_t conv_chunk_positions(int64_t span, int64_t row_bytes);

// Slack temp_left keeps back for the alignment padding of a kernel's blocks.
constexpr size_t kTempSlack = 8 * kDefaultAlignment;

// Bytes of temp still free, less kTempSlack.
size_t temp_left(const MemoryAllocator* temp);

// t's elements over sizes[5] at element strides st[5], as compute type G
// (float or double): t's own data when it holds G, else a row-major
// converted copy in temp, with st rewritten to match. Null when temp is
// too small.
template <typename G>
const G* conv_operand(KernelContext& context, const Tensor& t, const int64_t* sizes, int64_t* st);

extern template const float* conv_operand<float>(KernelContext&, const Tensor&, const int64_t*,
                                                 int64_t*);
extern template const double* conv_operand<double>(KernelContext&, const Tensor&, const int64_t*,
                                                   int64_t*);

}  // namespace tri
