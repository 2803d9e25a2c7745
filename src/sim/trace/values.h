// Text values that `berth simulate`'s flags and scenario files share with trace columns:
// durations and counts, with exactly the trace readers' syntax and errors. The public face
// of internal/fields.h for code outside sim/trace (the cli, sim/replay). Errors are
// InvalidArgument or OutOfRange with a message and no location (callers name the flag or
// field). Pure functions.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/result.h"

namespace berth::sim {

// Seconds as a decimal number ("66", "0.25") or a duration: one or more (number, unit)
// pairs with units s, m, h, d ("90s", "15m", "1h30m", "1.5h"). Rounded up to whole
// seconds; >= 0.
core::Result<int64_t> ParseDurationSeconds(std::string_view text);

// A whole number >= 0 that fits int32 (GPU, replica and job counts).
core::Result<int32_t> ParseCountValue(std::string_view text);

}  // namespace berth::sim
