// Rng: the deterministic random number generator every part of `berth simulate` draws from
// (shuffles, ties, failure times). xoshiro256** seeded through SplitMix64, with its own
// UniformInt, Shuffle, Bernoulli and Exponential, because the std distributions give different
// numbers on different standard libraries and a seed must mean the same run everywhere.
// Used by sim/gpushare (arrival shuffle, inflation, node ranks and random ties, through the
// ...ByRemainder draws), sim/trace and the simulator. Not thread-safe: one Rng per run (or
// per thread); Fork() derives independent child streams. Every draw is O(1); Shuffle is O(n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace berth::sim {

// SplitMix64 (Steele, Lea, Flood 2014): one step of the generator whose outputs seed
// xoshiro256**. Advances *state by the golden-ratio increment and returns the mixed value.
uint64_t SplitMix64Next(uint64_t* state);

class Rng {
 public:
  // The four state words are the first four SplitMix64 outputs starting from `seed`, as the
  // xoshiro authors recommend; any seed (0 included) gives a valid, non-zero state.
  explicit Rng(uint64_t seed);

  // The next 64 raw bits (xoshiro256**, Blackman and Vigna 2018).
  uint64_t Next() {
    const uint64_t result = RotL(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = RotL(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n) without modulo bias (Lemire 2019, "Fast random integer
  // generation in an interval": a 64x64->128 multiply, rejecting the few low products that
  // would bias the result). Precondition: n >= 1 (n == 0 is a bug and aborts).
  // Consumes one Next() except, rarely, when a draw is rejected.
  uint64_t UniformInt(uint64_t n);

  // Uniform integer in [0, n) by rejection and remainder: raw draws below 2^64 mod n are
  // rejected and the rest reduced mod n (the method of OpenBSD's arc4random_uniform). Same
  // distribution as UniformInt, a different stream: the OpenB replay (sim/gpushare) draws
  // with it because its published figures (seeds 42-51, docs/benchmarks.md) were measured on
  // this stream. One 64-bit division per draw. Precondition: n >= 1 (n == 0 aborts).
  uint64_t UniformIntByRemainder(uint64_t n);

  // Uniform integer in [lo, hi], both included. Precondition: lo <= hi.
  int64_t UniformInRange(int64_t lo, int64_t hi);

  // Uniform double in [0, 1) with 53 random bits (the top bits of one Next()).
  double UniformDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // True with probability p (p <= 0: never, p >= 1: always). Always consumes exactly one
  // Next(), so the stream position does not depend on p.
  bool Bernoulli(double p) { return UniformDouble() < p; }

  // A sample of the exponential distribution with the given rate (mean 1/rate), by inversion:
  // -log1p(-U)/rate. Precondition: rate > 0. Consumes one Next(). The result goes through
  // std::log1p, whose last bit may differ between math libraries; the integer draws above are
  // bit-exact everywhere.
  double Exponential(double rate);

  // Fisher-Yates (Durstenfeld) shuffle: for i from n-1 down to 1, swap item i with a uniform
  // item in [0, i]. Consumes n-1 UniformInt draws; O(n).
  template <typename T>
  void Shuffle(std::span<T> items) {
    FisherYates(items, [this](uint64_t n) { return UniformInt(n); });
  }
  template <typename T>
  void Shuffle(std::vector<T>& items) {
    Shuffle(std::span<T>(items));
  }

  // Shuffle's Fisher-Yates drawing with UniformIntByRemainder (the OpenB replay's stream).
  template <typename T>
  void ShuffleByRemainder(std::span<T> items) {
    FisherYates(items, [this](uint64_t n) { return UniformIntByRemainder(n); });
  }

  // A child generator seeded with this generator's next output (through SplitMix64, so the
  // child's stream shares no state with the parent's). Advances this generator by one draw.
  Rng Fork() { return Rng(Next()); }

 private:
  // Fisher-Yates with `draw(n)` giving the uniform index in [0, n) for each swap.
  template <typename T, typename Draw>
  static void FisherYates(std::span<T> items, Draw draw) {
    for (size_t i = items.size(); i > 1; --i) {
      const size_t j = static_cast<size_t>(draw(i));
      using std::swap;
      swap(items[i - 1], items[j]);
    }
  }

  static uint64_t RotL(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t s_[4];
};

}  // namespace berth::sim
