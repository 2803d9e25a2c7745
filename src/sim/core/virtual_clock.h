// VirtualClock: simulated time for `berth simulate`, in integer milliseconds since the start
// of the run (time 0 is the trace's first submission or the scenario's origin). Only the
// simulator's event loop moves it, and only forward; everything else reads it. Integer time
// keeps runs bit-identical across machines (no floating-point drift in sums of durations).
// Plain value type; not thread-safe; O(1).
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/check.h"

namespace berth::sim {

inline constexpr int64_t kMsPerSecond = 1000;
inline constexpr int64_t kMsPerHour = 3600 * kMsPerSecond;

// The end of virtual time: about 31,700 years. Input times are at most 100 years
// (sim::kMaxDurationSeconds) and trace timestamps span at most 10,000 years, so no run
// reaches it; time arithmetic saturates here instead of wrapping, and the margin below
// INT64_MAX keeps sums of a thousand such times (metrics totals) exact.
inline constexpr int64_t kMaxTimeMs = 1'000'000'000'000'000;

// t + delay, both >= 0 (checked: a negative one is a simulator bug), saturating at kMaxTimeMs.
inline int64_t AddMs(int64_t t_ms, int64_t delay_ms) {
  BERTH_CHECK(t_ms >= 0 && delay_ms >= 0, "AddMs takes non-negative times");
  return delay_ms >= kMaxTimeMs - std::min(t_ms, kMaxTimeMs) ? kMaxTimeMs : t_ms + delay_ms;
}

// Whole seconds >= 0 (checked) in milliseconds, saturating at kMaxTimeMs.
inline int64_t SecondsToMs(int64_t seconds) {
  BERTH_CHECK(seconds >= 0, "SecondsToMs takes a non-negative time");
  return seconds >= kMaxTimeMs / kMsPerSecond ? kMaxTimeMs : seconds * kMsPerSecond;
}

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
