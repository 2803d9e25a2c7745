#include "binding/framework/reason_table.h"

namespace berth::binding {

ReasonId ReasonTable::Intern(std::string_view plugin, std::string_view text) {
  auto it = ids_.find(std::string(text));
  if (it != ids_.end()) return ReasonId{it->second};
  auto id = static_cast<int32_t>(texts_.size());
  texts_.emplace_back(text);
  plugins_.emplace_back(plugin);
  ids_.emplace(std::string(text), id);
  return ReasonId{id};
}

}  // namespace berth::binding
