// RngSource: the run's seeded Rng seen as the gpu module's RandomSource, so that a policy's
// random draws (Random's GPU choice) come from the replay's one stream in its fixed order.
// Borrows the Rng, which must outlive it; not thread-safe (one per run, like the Rng).
#pragma once

#include <cstdint>

#include "gpu/random_source.h"
#include "sim/core/rng.h"

namespace berth::sim::gpushare {

class RngSource final : public gpu::RandomSource {
 public:
  explicit RngSource(Rng& rng) : rng_(rng) {}
  uint64_t UniformIntByRemainder(uint64_t n) override { return rng_.UniformIntByRemainder(n); }

 private:
  Rng& rng_;
};

}  // namespace berth::sim::gpushare
