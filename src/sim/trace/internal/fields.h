// Cell parsers of the trace readers: whole numbers, seconds, wall-clock times, and CPU and
// memory quantities; durations and counts are the public sim::ParseDuration and
// sim::ParseCount (values.h, included here, defined in fields.cc beside the decimal reader
// they share). Used only by src/sim/trace/*.cc. Errors are InvalidArgument or OutOfRange with a message
// and no location (the reader adds file, line and column). Pure functions; std::from_chars,
// no locale, no regex, no allocation unless an error is built.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/result.h"
#include "sim/trace/values.h"

namespace berth::sim::trace_internal {

// A whole number with an optional sign; OutOfRange beyond int64.
core::Result<int64_t> ParseInt64(std::string_view text);
// A whole number that fits int32 (priorities).
core::Result<int32_t> ParseInt32(std::string_view text);

// Seconds as a decimal number ("66", "66.0", "0.25"), rounded up to whole seconds;
// 0 <= result <= kMaxDurationSeconds (values.h).
core::Result<int64_t> ParseSeconds(std::string_view text);

// "YYYY-MM-DD HH:MM:SS" (Philly's local wall clock) as seconds since 1970-01-01 00:00:00 of
// that same wall clock; no time zone, so differences between two such times are exact
// except across a daylight-saving change.
core::Result<int64_t> ParseWallClock(std::string_view text);

// A Kubernetes CPU quantity ("500m", "2") in milli-cores; >= 0.
core::Result<int64_t> ParseCpuMilli(std::string_view text);
// A Kubernetes memory quantity ("16Gi", "1e9") in bytes, rounded up; >= 0.
core::Result<int64_t> ParseMemoryBytes(std::string_view text);

// a * b / c rounded up, for non-negative values, without overflow for the sizes traces hold
// (the product is taken in 128 bits); OutOfRange when the result exceeds int64.
core::Result<int64_t> MulDivCeil(int64_t a, int64_t b, int64_t c);

}  // namespace berth::sim::trace_internal
