// VirtualClock: simulated time for `berth simulate`, in integer milliseconds since the start
// of the run (time 0 is the trace's first submission or the scenario's origin). Only the
// simulator's event loop moves it, and only forward; everything else reads it. Integer time
// keeps runs bit-identical across machines (no floating-point drift in sums of durations).
// Plain value type; not thread-safe; O(1).
#pragma once

#include <cstdint>

#include "core/check.h"

namespace berth::sim {

inline constexpr int64_t kMsPerSecond = 1000;
inline constexpr int64_t kMsPerHour = 3600 * kMsPerSecond;

class VirtualClock {
 public:
  VirtualClock() = default;
  explicit VirtualClock(int64_t start_ms) : now_ms_(start_ms) {}

  int64_t now_ms() const { return now_ms_; }
  double now_s() const { return static_cast<double>(now_ms_) / kMsPerSecond; }

  // Moves the clock to t_ms. Precondition: t_ms >= now_ms(). The event queue hands out events
  // in time order, so a step backwards means the simulator scheduled an event in the past: a
  // bug, which aborts.
  void AdvanceTo(int64_t t_ms) {
    BERTH_CHECK(t_ms >= now_ms_, "VirtualClock moved backwards");
    now_ms_ = t_ms;
  }

 private:
  int64_t now_ms_ = 0;
};

}  // namespace berth::sim
