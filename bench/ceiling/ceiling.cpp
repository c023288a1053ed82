// The machine's ceiling for f32 arithmetic in wasm SIMD128 without FMA: 12
// independent f32x4 multiply+add chains, enough to hide the latency of both
// instructions, with nothing but registers. A kernel that multiplies and
// adds cannot beat it, so the benchmark reports each model's GFLOP/s as a
// fraction of this number, measured in the same run on the same core.
//
// Built as a standalone module (no JS glue) by bench/ceiling/CMakeLists.txt.
// Each call does `iterations` rounds of 12 chains x 4 lanes x 2 flops. The
// caller calls it many times: V8 tiers a function up only between calls
// (ENVIRONMENT.md), so one long call would time the baseline compiler.
#include <wasm_simd128.h>

#define CHAIN(i) v128_t a##i = wasm_f32x4_splat(seed + static_cast<float>(i))

extern "C" __attribute__((export_name("flops_per_iteration"))) int flops_per_iteration(void) {
  return 12 * 4 * 2;
}

extern "C" __attribute__((export_name("mul_add_chains"))) float mul_add_chains(int iterations, float seed) {
  CHAIN(0); CHAIN(1); CHAIN(2); CHAIN(3); CHAIN(4); CHAIN(5);
  CHAIN(6); CHAIN(7); CHAIN(8); CHAIN(9); CHAIN(10); CHAIN(11);
  // Close to 1 and 0 so the chains stay finite and normal for any count.
  const v128_t m = wasm_f32x4_splat(0.999999f);
  const v128_t c = wasm_f32x4_splat(1e-7f);
  for (int n = 0; n < iterations; ++n) {
#define STEP(i) a##i = wasm_f32x4_add(wasm_f32x4_mul(a##i, m), c)
    STEP(0); STEP(1); STEP(2); STEP(3); STEP(4); STEP(5);
    STEP(6); STEP(7); STEP(8); STEP(9); STEP(10); STEP(11);
#undef STEP
  }
  // Every chain feeds the result, so none can be dropped.
  v128_t s = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3)),
                            wasm_f32x4_add(wasm_f32x4_add(a4, a5), wasm_f32x4_add(a6, a7)));
  s = wasm_f32x4_add(s, wasm_f32x4_add(wasm_f32x4_add(a8, a9), wasm_f32x4_add(a10, a11)));
  return wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 1) +
         wasm_f32x4_extract_lane(s, 2) + wasm_f32x4_extract_lane(s, 3);
}

// The memory side, for the threads table: a stream over two 8 MB buffers,
// b = b * m + a (24 MB of traffic a pass), about the size of mobilenet_v2's
// activations. The bench runs it on one worker and then on two at once: how
// much more two cores move than one tells whether this machine, at this
// moment, can scale a memory-bound layer (a VM's neighbours share the
// caches and the memory behind them).
constexpr int kStreamFloats = 1 << 21;
alignas(16) static float g_stream_a[kStreamFloats];
alignas(16) static float g_stream_b[kStreamFloats];

extern "C" __attribute__((export_name("stream_bytes_per_pass"))) int stream_bytes_per_pass(void) {
  return 3 * kStreamFloats * static_cast<int>(sizeof(float));
}

// seed != 0 each call; a is written first once, so that its reads are of
// real pages rather than the zero page an untouched wasm memory maps.
extern "C" __attribute__((export_name("stream_pass"))) float stream_pass(float seed) {
  static bool filled = false;
  if (!filled) {
    for (int i = 0; i < kStreamFloats; ++i) g_stream_a[i] = static_cast<float>(i & 255);
    filled = true;
  }
  const v128_t m = wasm_f32x4_splat(0.5f);
  const v128_t s = wasm_f32x4_splat(seed);
  for (int i = 0; i < kStreamFloats; i += 4) {
    const v128_t a = wasm_f32x4_add(wasm_v128_load(g_stream_a + i), s);
    wasm_v128_store(g_stream_b + i, wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(g_stream_b + i), m), a));
  }
  return g_stream_b[0];
}

// The load side of arithmetic, for reading a run's state: a 2 x 16 tile of
// the gemm microkernels (cpp/kernels/simd/f32_gemm_minmax.cpp: per k step two
// broadcast loads, four vector loads, eight mul+add) over 2 rows and a
// 16-column panel that stay in L1. On a quiet core it runs close to the
// chains above; in this VM's slow state (docs/performance.md) it falls to
// about three quarters of them while the chains keep their speed, and our
// gemm kernels lose a third.
constexpr int kTileK = 256;
alignas(16) static float g_tile_a[2 * kTileK];
alignas(16) static float g_tile_b[kTileK * 16];

extern "C" __attribute__((export_name("tile_flops_per_pass"))) int tile_flops_per_pass(void) {
  return 2 * 16 * kTileK * 2;
}

extern "C" __attribute__((export_name("gemm_tile_passes"))) float gemm_tile_passes(int passes, float seed) {
  static bool filled = false;
  if (!filled) {
    for (int i = 0; i < 2 * kTileK; ++i) g_tile_a[i] = 1e-3f * static_cast<float>(i & 7);
    for (int i = 0; i < kTileK * 16; ++i) g_tile_b[i] = 1e-3f * static_cast<float>(i & 15);
    filled = true;
  }
  v128_t c00 = wasm_f32x4_splat(seed), c01 = c00, c02 = c00, c03 = c00;
  v128_t c10 = c00, c11 = c00, c12 = c00, c13 = c00;
  for (int n = 0; n < passes; ++n) {
    const float* w = g_tile_b;
    for (int p = 0; p < kTileK; ++p, w += 16) {
      const v128_t x0 = wasm_v128_load32_splat(g_tile_a + p);
      const v128_t x1 = wasm_v128_load32_splat(g_tile_a + kTileK + p);
      const v128_t b0 = wasm_v128_load(w), b1 = wasm_v128_load(w + 4);
      const v128_t b2 = wasm_v128_load(w + 8), b3 = wasm_v128_load(w + 12);
#define MADD(c, x, b) c = wasm_f32x4_add(c, wasm_f32x4_mul(x, b))
      MADD(c00, x0, b0); MADD(c01, x0, b1); MADD(c02, x0, b2); MADD(c03, x0, b3);
      MADD(c10, x1, b0); MADD(c11, x1, b1); MADD(c12, x1, b2); MADD(c13, x1, b3);
#undef MADD
    }
  }
  v128_t s = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(c00, c01), wasm_f32x4_add(c02, c03)),
                            wasm_f32x4_add(wasm_f32x4_add(c10, c11), wasm_f32x4_add(c12, c13)));
  return wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 3);
}
