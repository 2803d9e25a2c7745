// RandomSource: the one random draw a GPU-sharing policy makes (Random's in-node GPU choice,
// gpu_choice.h), as an interface so that the policies need no particular generator: the
// simulator hands in its seeded run RNG (sim/gpushare/replay.cc), tests a fixed sequence.
// Implementations are not required to be thread-safe; one per run.
#pragma once

#include <cstdint>

namespace berth::gpu {

class RandomSource {
 public:
  virtual ~RandomSource() = default;
  // A uniform integer in [0, n). Precondition: n >= 1.
  virtual uint64_t UniformIntByRemainder(uint64_t n) = 0;
};

}  // namespace berth::gpu
