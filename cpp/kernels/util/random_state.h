// The random source of rand, randn, randperm and native_dropout.
//
// KernelContext carries no generator, so the state lives here: one
// splitmix64 stream per thread, seeded with a fixed constant when the thread
// first draws. Results are therefore reproducible for a given sequence of
// calls on a thread, and differ from PyTorch's (tests check properties, not
// values). reseed_random() restarts the stream (tests, or a caller wanting
// a fresh sequence).
#pragma once

#include <cstdint>

namespace tri {

void reseed_random(uint64_t seed);

uint64_t random_u64();

// Uniform in [0, 1) with `bits` random mantissa bits (<= 53): k / 2^bits,
// exactly representable in any type with at least `bits` significant bits,
// so converting it never rounds up to 1.
double random_unit(int bits);

// Standard normal (Box-Muller on two uniforms).
double random_normal();

}  // namespace tri
