// Rng: the replay's seeded random source, xoshiro256** seeded through SplitMix64, with
// unbiased bounded integers and a Fisher-Yates shuffle. It is berth's own so that a seed
// gives the same stream on every platform and standard library (std::mt19937 is portable but
// the std distributions are not). Used by the OpenB replay for the arrival order, the
// inflation draws and every random tie-break. Not thread-safe: one per run. O(1) per draw.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <utility>

namespace berth::sim::gpushare {

class Rng {
 public:
  explicit Rng(uint64_t seed);

  // The next 64 random bits.
  uint64_t Next();
  // Uniform in [0, bound), without modulo bias. Precondition: bound > 0.
  uint64_t Uniform(uint64_t bound);

  // Fisher-Yates from the back: position i swaps with a uniform j in [0, i].
  template <typename T>
  void Shuffle(std::span<T> items) {
    for (size_t i = items.size(); i > 1; --i) {
      const auto j = static_cast<size_t>(Uniform(i));
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  std::array<uint64_t, 4> s_;
};

}  // namespace berth::sim::gpushare
