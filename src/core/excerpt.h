// Quote: a value as an error message quotes it, bounded. Readers quote offending input in
// their errors (`invalid value "..."`), and input may be hostile: a 10 MB name must not make a
// 10 MB error line, nor a NUL or escape byte reach the terminal. Every place io and core
// quote an input value goes through Quote. Pure function; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace berth::core {

// The most bytes of a value an error quotes (docs/limits.md).
inline constexpr size_t kMaxQuotedBytes = 64;

// `value` in double quotes with Go's %q escapes for '"', '\\' and control bytes (\n, \t,
// \x00, ...), as the API server prints an invalid value; a value longer than
// kMaxQuotedBytes is cut there (at a UTF-8 character boundary) and followed by
// `... (N bytes)`: "aaaa..." (10485760 bytes).
std::string Quote(std::string_view value);

}  // namespace berth::core
