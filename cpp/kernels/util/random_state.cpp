#include "cpp/kernels/util/random_state.h"

#include <cmath>

namespace tri {
namespace {

constexpr uint64_t kDefaultSeed = 0x5eed5eed5eed5eedULL;
thread_local uint64_t g_state = kDefaultSeed;

}  // namespace

void reseed_random(uint64_t seed) { g_state = seed; }

uint64_t random_u64() {
  uint64_t z = (g_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double random_unit(int bits) {
  return static_cast<double>(random_u64() >> (64 - bits)) * std::ldexp(1.0, -bits);
}

double random_normal() {
  // u1 in (0, 1] keeps log() finite.
  const double u1 = 1.0 - random_unit(53);
  const double u2 = random_unit(53);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace tri
