#include "binding/framework/label_sig_table.h"

namespace berth::binding {

LabelSigId LabelSigTable::Intern(const std::string& namespace_name, const core::Labels& labels) {
  // Label keys and values cannot contain NUL, so NUL-separated fields are unambiguous.
  key_.clear();
  key_ += namespace_name;
  for (const auto& [k, v] : labels) {
    key_ += '\0';
    key_ += k;
    key_ += '\0';
    key_ += v;
  }
  auto it = ids_.find(key_);
  if (it != ids_.end()) return LabelSigId{it->second};
  auto id = static_cast<int32_t>(sigs_.size());
  sigs_.push_back(Sig{namespace_name, labels});
  ids_.emplace(key_, id);
  return LabelSigId{id};
}

}  // namespace berth::binding
