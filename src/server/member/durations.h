// How long a simulated pod runs: Go duration text (the berth.dev/simulated-duration
// annotation, "5s", "1m30s", "1.5h", as time.ParseDuration reads it) and the per-cluster
// default distribution for pods without the annotation ("none", "fixed:30s",
// "uniform:10s-60s", "exp:30s"), sampled deterministically from a pod's uid and the seed so
// every round agrees on a pod's duration. Pure functions and plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace berth::server::member {

// Go's time.ParseDuration: an optionally signed sequence of decimal numbers, each with an
// optional fraction and a unit (ns, us, µs, μs, ms, s, m, h); "0" alone needs no unit.
// Returns nanoseconds. InvalidArgument for malformed text and for values beyond int64
// nanoseconds (about 292 years), with Go's wording ("time: missing unit in duration \"5\"").
core::Result<int64_t> ParseGoDuration(std::string_view text);

// A Go duration as Go's Duration.String prints it ("1m30s", "1.5s", "0s").
std::string FormatGoDuration(int64_t ns);

class DurationDistribution {
 public:
  enum class Shape { kNone, kFixed, kUniform, kExponential };

  // "none" (pods run until deleted), "fixed:D", "uniform:D1-D2" (D1 <= D2), "exp:MEAN"
  // (exponential with that mean). Durations are Go text and must not be negative.
  static core::Result<DurationDistribution> Parse(std::string_view text);

  Shape shape() const { return shape_; }
  // A duration in nanoseconds for `u` in [0, 1); nullopt for kNone. kExponential is capped at
  // 100 means (a pod never runs for ever by accident).
  std::optional<int64_t> Sample(double u) const;
  // The text Parse reads back ("uniform:10s-1m0s").
  std::string ToString() const;

 private:
  Shape shape_ = Shape::kNone;
  int64_t first_ns_ = 0;   // fixed value, uniform low bound, exponential mean
  int64_t second_ns_ = 0;  // uniform high bound
};

// A number in [0, 1) from the 53 high bits of `seed`.
double UnitInterval(uint64_t seed);

}  // namespace berth::server::member
