// Glob matching with '*' only, as OCM matches a manifestConfig's resourceIdentifier name and
// namespace (wildcard.Match). Used by the work agent and by the hub reading what a work's
// feedback rules cover. Pure; thread-safe.
#pragma once

#include <string_view>

namespace berth::core {

// '*' in `pattern` matches any run of characters (also none); every other byte must be
// equal ('.' and '?' are literal). O(|value| * |pattern|) at worst.
inline bool WildcardMatch(std::string_view value, std::string_view pattern) {
  // Iterative glob with backtracking to the last '*'.
  size_t v = 0;
  size_t p = 0;
  size_t star = std::string_view::npos;
  size_t resume = 0;
  while (v < value.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = v;
    } else if (p < pattern.size() && pattern[p] == value[v]) {
      ++p;
      ++v;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      v = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace berth::core
