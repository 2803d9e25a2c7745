// Regex: an RE2 pattern for CEL's matches(), which specifies RE2 syntax and unanchored
// (partial) matching. RE2 runs in time linear in the input, so a hostile pattern cannot
// stall the allocator. Compiled once per constant pattern at compile time. Matching is
// thread-safe. Internal to src/cel; RE2 stays out of every header.
#pragma once

#include <memory>
#include <string_view>

#include "core/result.h"

namespace re2 {
class RE2;
}  // namespace re2

namespace berth::cel::internal {

class Regex {
 public:
  // InvalidArgument "error parsing regexp: ..." for a bad pattern.
  static core::Result<std::unique_ptr<Regex>> Compile(std::string_view pattern);
  ~Regex();
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;

  // True when some substring of `text` matches.
  bool PartialMatch(std::string_view text) const;

 private:
  explicit Regex(std::unique_ptr<re2::RE2> re);
  std::unique_ptr<re2::RE2> re_;
};

}  // namespace berth::cel::internal
