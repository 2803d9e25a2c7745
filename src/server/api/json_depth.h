// JsonNestingDepth: how deep a JSON text nests, measured before any parser sees it, so a
// body of megabytes of '[' costs a scan and not a recursive parse. Used by every endpoint
// that parses a request body (the REST writes, the agents' sync). Pure.
#pragma once

#include <algorithm>
#include <string_view>

namespace berth::server {

// The deepest nesting of arrays and objects in `text`, stopping once past `limit` (strings
// are skipped, escapes included). O(n), no allocation.
inline int JsonNestingDepth(std::string_view text, int limit) {
  int depth = 0;
  int max_depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      max_depth = std::max(max_depth, ++depth);
      if (max_depth > limit) return max_depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return max_depth;
}

}  // namespace berth::server
