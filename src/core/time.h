// Timestamps: seconds since the Unix epoch, parsed from and printed as RFC 3339 UTC
// ("2026-01-02T03:04:05Z") as Kubernetes metav1.Time is. Fractional seconds and numeric
// offsets are accepted on input. Plain value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace berth::core {

struct Timestamp {
  int64_t unix_s = 0;

  auto operator<=>(const Timestamp&) const = default;
  static Result<Timestamp> Parse(std::string_view rfc3339);
  std::string ToString() const;  // "YYYY-MM-DDTHH:MM:SSZ"
};

}  // namespace berth::core
