// Text helpers of the cel module: UTF-8 decoding and counting (CEL sizes and columns count
// code points), Go-compatible number formatting (string(1.5) must print what cel-go prints)
// and quoting for messages. Internal to src/cel; pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace berth::cel::internal {

// True when `s` is well-formed UTF-8 (no overlongs, surrogates or values above U+10FFFF).
bool IsValidUtf8(std::string_view s);

// Number of code points in valid UTF-8 (counts bytes that are not continuation bytes).
size_t CodePointCount(std::string_view s);

// Appends the UTF-8 encoding of a code point (precondition: a valid scalar value).
void AppendUtf8(uint32_t code_point, std::string* out);

// Go's fmt %g for a float64 (strconv.FormatFloat(v, 'g', -1, 64)): the shortest digits that
// round-trip, in exponent form when the decimal exponent is < -4 or >= 6: "1.5", "100000",
// "1e+06", "1e-05", "0", "NaN", "+Inf", "-Inf".
std::string FormatDouble(double v);

// Double-quoted with backslash escapes for quotes, backslashes and control characters.
std::string QuoteString(std::string_view s);

// b"..." with \xNN escapes for bytes outside printable ASCII.
std::string QuoteBytes(std::string_view s);

}  // namespace berth::cel::internal
