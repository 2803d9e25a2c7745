// ReasonTable: interns the reason texts filters give (with the plugin that gives each) so that
// per-node verdicts and the per-reason histogram carry small ids, not strings. Owned by a
// Scheduler; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace berth::binding {

struct ReasonId {
  int32_t v = -1;
  auto operator<=>(const ReasonId&) const = default;
};

class ReasonTable {
 public:
  // Returns the id of `text`; the first plugin to intern a text owns it (upstream reasons
  // are plugin-specific, so a text never belongs to two plugins).
  ReasonId Intern(std::string_view plugin, std::string_view text);
  const std::string& Text(ReasonId id) const { return texts_[static_cast<size_t>(id.v)]; }
  const std::string& Plugin(ReasonId id) const { return plugins_[static_cast<size_t>(id.v)]; }
  size_t size() const { return texts_.size(); }

 private:
  std::vector<std::string> texts_;
  std::vector<std::string> plugins_;
  std::unordered_map<std::string, int32_t> ids_;
};

}  // namespace berth::binding
