#include "sim/core/rng.h"

#include <cmath>

#include "core/check.h"

namespace berth::sim {
namespace {

// 64x64 -> 128-bit product; __extension__ keeps -Wpedantic quiet (as core/quantity.h does).
__extension__ using Uint128 = unsigned __int128;

}  // namespace

uint64_t SplitMix64Next(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(uint64_t seed) {
  uint64_t sm = seed;
  for (uint64_t& word : s_) {
    word = SplitMix64Next(&sm);
  }
}

uint64_t Rng::UniformInt(uint64_t n) {
  // n == 0 has no valid answer; every caller draws from a non-empty set.
  BERTH_CHECK(n != 0, "Rng::UniformInt(0)");
  // Lemire's method: the high word of x*n is uniform in [0, n) once the low word avoids the
  // (2^64 mod n) values that would make some results one draw more likely than others. The
  // modulo is computed only when the low word is small enough to possibly fall in that zone.
  Uint128 m = static_cast<Uint128>(Next()) * n;
  auto low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    while (low < threshold) {
      m = static_cast<Uint128>(Next()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

uint64_t Rng::UniformIntByRemainder(uint64_t n) {
  BERTH_CHECK(n != 0, "Rng::UniformIntByRemainder(0)");
  // The lowest (2^64 mod n) raw values would make the small residues one draw more likely;
  // rejecting them leaves a multiple of n equally likely values.
  const uint64_t threshold = (0 - n) % n;
  while (true) {
    const uint64_t r = Next();
    if (r >= threshold) return r % n;
  }
}

int64_t Rng::UniformInRange(int64_t lo, int64_t hi) {
  BERTH_CHECK(lo <= hi, "Rng::UniformInRange with lo > hi");
  // Width in unsigned arithmetic so that [INT64_MIN, INT64_MAX] does not overflow; the full
  // range has no bias to avoid and takes one raw draw.
  const uint64_t width = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  const uint64_t offset = width == UINT64_MAX ? Next() : UniformInt(width + 1);
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + offset);
}

double Rng::Exponential(double rate) {
  BERTH_CHECK(rate > 0, "Rng::Exponential with rate <= 0");
  // U is in [0, 1), so 1 - U is in (0, 1] and the logarithm is finite.
  return -std::log1p(-UniformDouble()) / rate;
}

}  // namespace berth::sim
