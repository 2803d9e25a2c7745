// Text helpers of the report writers: HTML and CSV escaping and locale-free number formatting
// (std::to_chars), so that the same numbers always print the same bytes. Internal to
// sim/report. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace berth::sim::report::internal {

// Escapes & < > " ' for use in HTML text and attribute values.
std::string HtmlEscape(std::string_view text);

// One CSV field (RFC 4180): quoted, with doubled quotes, when it holds , " CR or LF.
std::string CsvField(std::string_view text);

// Fixed notation with `decimals` digits after the point ("12.50"); -0 prints as 0; NaN and
// infinities print as "nan", "inf", "-inf".
std::string FormatFixed(double value, int decimals);

// A short human label: at most 4 significant digits, no exponent for 1e-3 <= |v| < 1e7
// ("0.125", "1250", "2.5e+08"), trailing zeros dropped.
std::string FormatShort(double value);

}  // namespace berth::sim::report::internal
