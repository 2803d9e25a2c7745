// Why a separate text scan: simdjson's DOM keeps no positions, and the error must give the
// line, as the YAML converter's does. The scan costs one pass over bytes the parser reads
// anyway; objects are small, so each key is compared linearly with its object's earlier ones.
// The bounds on depth and string length ride on the same pass, before simdjson sees the text.
#include "io/internal/json_duplicates.h"

#include <algorithm>
#include <unordered_set>

#include "io/input_limits.h"

namespace berth::io::internal {

namespace {

// The end (one past the closing quote) of the string opening at `i`; json.size() if open.
size_t StringEnd(std::string_view json, size_t i) {
  for (size_t j = i + 1; j < json.size(); ++j) {
    if (json[j] == '\\') {
      ++j;
    } else if (json[j] == '"') {
      return j + 1;
    }
  }
  return json.size();
}

}  // namespace

JsonScan ScanJson(std::string_view json, size_t max) {
  JsonScan out;
  struct Frame {
    bool object;
    bool expect_key;
    size_t keys_begin;
    bool hashed = false;  // its keys are (also) in the last of `sets`
  };
  std::vector<Frame> stack;
  std::vector<std::string_view> keys;  // keys of the objects open, innermost last
  // Objects with many keys (a ConfigMap's data) switch to a hash set, so a scan stays linear.
  constexpr size_t kLinearKeys = 32;
  std::vector<std::unordered_set<std::string_view>> sets;
  // Brackets open past kMaxNestingDepth: counted, not stacked, so `[[[[...` of any length
  // costs no memory; their keys are not compared (the text is refused anyway).
  size_t too_deep = 0;
  auto breach = [&](size_t offset, std::string message) {
    if (out.breaches.size() < max) out.breaches.push_back({offset, std::move(message)});
  };
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    switch (c) {
      case '{':
      case '[':
        if (too_deep > 0 || stack.size() >= static_cast<size_t>(kMaxNestingDepth)) {
          if (too_deep++ == 0) {
            breach(i, "more than " + std::to_string(kMaxNestingDepth) +
                          " nested objects and arrays (berth's limit)");
          }
          break;
        }
        stack.push_back({c == '{', c == '{', keys.size()});
        break;
      case '}':
      case ']':
        if (too_deep > 0) {
          --too_deep;
        } else if (!stack.empty()) {
          keys.resize(stack.back().keys_begin);
          if (stack.back().hashed) sets.pop_back();
          stack.pop_back();
        }
        break;
      case ',':
        if (too_deep == 0 && !stack.empty() && stack.back().object) stack.back().expect_key = true;
        break;
      case '"': {
        const size_t end = StringEnd(json, i);
        if (end - i >= 2 && end - i - 2 > static_cast<size_t>(kMaxStringBytes)) {
          breach(i, "a string of " + std::to_string(end - i - 2) +
                        " bytes exceeds berth's limit of " + std::to_string(kMaxStringBytes) +
                        " bytes");
        }
        if (too_deep == 0 && !stack.empty() && stack.back().object && stack.back().expect_key) {
          Frame& top = stack.back();
          top.expect_key = false;
          const std::string_view key = json.substr(i, end - i);
          const auto first = keys.begin() + static_cast<std::ptrdiff_t>(top.keys_begin);
          if (!top.hashed && keys.size() - top.keys_begin >= kLinearKeys) {
            sets.emplace_back(first, keys.end());
            top.hashed = true;
          }
          const bool repeated = top.hashed ? !sets.back().insert(key).second
                                           : std::find(first, keys.end(), key) != keys.end();
          if (repeated && out.duplicates.size() < max) {
            out.duplicates.push_back({i, std::string(key)});
          }
          keys.push_back(key);
        }
        i = end - 1;
        break;
      }
      default:
        break;
    }
  }
  return out;
}

std::vector<JsonDuplicateKey> FindJsonDuplicateKeys(std::string_view json, size_t max) {
  return ScanJson(json, max).duplicates;
}

int LineOf(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(),
                                         text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

std::string DuplicateKeysMessage(std::string_view base,
                                 const std::vector<JsonDuplicateKey>& duplicates) {
  std::string message = "error converting YAML to JSON: yaml: unmarshal errors:";
  for (const JsonDuplicateKey& d : duplicates) {
    message += "\n  line " + std::to_string(LineOf(base, d.offset)) + ": key " + d.key +
               " already set in map";
  }
  return message;
}

}  // namespace berth::io::internal
