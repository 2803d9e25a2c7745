// ASCII character classes and case folding, locale-free. Kubernetes names, kinds and
// quantities are ASCII; <cctype> depends on the C locale and takes int, so berth uses these.
#pragma once

#include <string>
#include <string_view>

namespace berth::core {

constexpr bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool IsAsciiLower(char c) { return c >= 'a' && c <= 'z'; }
constexpr bool IsAsciiUpper(char c) { return c >= 'A' && c <= 'Z'; }
constexpr bool IsAsciiAlpha(char c) { return IsAsciiLower(c) || IsAsciiUpper(c); }
constexpr bool IsAsciiAlnum(char c) { return IsAsciiAlpha(c) || IsAsciiDigit(c); }
constexpr bool IsAsciiHexDigit(char c) {
  return IsAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
constexpr char AsciiToLower(char c) {
  return IsAsciiUpper(c) ? static_cast<char>(c - 'A' + 'a') : c;
}

// `s` with A-Z folded to a-z; other bytes unchanged (so UTF-8 passes through).
inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiToLower(c);
  return out;
}

}  // namespace berth::core
