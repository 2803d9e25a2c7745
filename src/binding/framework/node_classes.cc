#include "binding/framework/node_classes.h"

#include <map>
#include <unordered_map>
#include <unordered_set>

#include "binding/framework/plugin_names.h"

namespace berth::binding {

namespace {

void AppendField(std::string* key, std::string_view field) {
  // Length-prefixed, so no separator can be confused with content.
  *key += std::to_string(field.size());
  *key += ':';
  *key += field;
}

}  // namespace

NodeClasses::NodeClasses(const ClusterState& state, const ResourceTable& resources) {
  std::map<std::string, std::unordered_set<std::string_view>, std::less<>> values;
  for (int32_t i = 0; i < state.num_nodes(); ++i) {
    for (const auto& [k, v] : state.node(model::NodeIndex{i}).meta.labels) values[k].insert(v);
  }
  per_node_keys_.insert(std::string(kLabelHostname));
  for (const auto& [k, vs] : values) {
    if (vs.size() > kMaxClassKeyValues) per_node_keys_.insert(k);
  }
  std::unordered_map<std::string, int32_t> ids;
  class_of_.assign(static_cast<size_t>(state.num_nodes()), -1);
  std::string key;
  for (int32_t i = 0; i < state.num_nodes(); ++i) {
    model::NodeIndex n{i};
    const model::Node& node = state.node(n);
    key.clear();
    key += node.unschedulable ? 'U' : 'S';
    for (const auto& t : node.taints) {
      AppendField(&key, t.key);
      AppendField(&key, t.value);
      key += static_cast<char>('0' + static_cast<int>(t.effect));
    }
    key += '|';
    for (const auto& [k, v] : node.meta.labels) {
      if (IsPerNodeKey(k)) continue;
      AppendField(&key, k);
      AppendField(&key, v);
    }
    key += '|';
    NodeLoad load = state.load(n);
    for (size_t r = 0; r < resources.size(); ++r) {
      key += std::to_string(load.allocatable[r]);
      key += ',';
    }
    auto [it, inserted] = ids.emplace(key, static_cast<int32_t>(members_.size()));
    if (inserted) members_.emplace_back();
    class_of_[static_cast<size_t>(i)] = it->second;
    members_[static_cast<size_t>(it->second)].push_back(n);
  }
}

bool NodeClasses::IsPerNodeKey(std::string_view key) const {
  return per_node_keys_.find(key) != per_node_keys_.end();
}

}  // namespace berth::binding
