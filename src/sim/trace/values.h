// Text values that trace columns, `berth simulate`'s flags and scenario files share:
// durations and counts. The trace readers (internal/fields.h includes this header) and
// code outside sim/trace (the cli, sim/replay) call the same two functions, so every place
// accepts the same text with the same errors. Errors are InvalidArgument or OutOfRange
// with a message and no location (callers name the column, flag or field). Pure functions;
// no allocation unless an error is built.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/result.h"

namespace berth::sim {

// The longest time or duration any simulator input may give (trace submit offsets and
// durations, scenario times, --until and --interval): 100 years. Longer is an OutOfRange
// error, not a value: a century of virtual time is no workload anyone replays, and the bound
// keeps every sum of such times far from int64 overflow once in milliseconds.
inline constexpr int64_t kMaxDurationSeconds = 36525LL * 86400;

// Seconds as a decimal number ("66", "0.25") or a duration: one or more (number, unit)
// pairs with units s, m, h, d ("90s", "15m", "1h30m", "1.5h"). Rounded up to whole
// seconds; 0 <= result <= kMaxDurationSeconds (more is OutOfRange: "... is too large:
// at most 36525d (100 years)").
core::Result<int64_t> ParseDuration(std::string_view text);

// A whole number >= 0 that fits int32 (GPU, replica and job counts).
core::Result<int32_t> ParseCount(std::string_view text);

}  // namespace berth::sim
