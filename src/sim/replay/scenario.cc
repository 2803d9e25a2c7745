#include "sim/replay/scenario.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace berth::sim {

const char* ActionKindName(ActionKind kind) {
  switch (kind) {
    case ActionKind::kNodeFailure:
      return "NodeFailure";
    case ActionKind::kGpuFailure:
      return "GpuFailure";
    case ActionKind::kDrain:
      return "Drain";
    case ActionKind::kScaleUp:
      return "ScaleUp";
  }
  return "Unknown";
}

core::Result<std::vector<ResolvedAction>> ResolveActions(const std::vector<ScenarioAction>& actions,
                                                         const model::Snapshot& fleet,
                                                         const std::string& cluster) {
  std::unordered_map<std::string, int32_t> by_name;
  for (size_t n = 0; n < fleet.nodes.size(); ++n) {
    if (fleet.nodes[n].cluster == cluster) by_name[fleet.nodes[n].meta.name] = static_cast<int32_t>(n);
  }
  std::vector<ResolvedAction> out;
  for (const ScenarioAction& a : actions) {
    ResolvedAction r;
    r.action = a;
    std::set<int32_t> nodes;
    for (const std::string& name : a.node_names) {
      auto it = by_name.find(name);
      if (it == by_name.end()) {
        return core::InvalidArgument(
            (a.field_path.empty() ? a.line : a.field_path + ".nodes") + ": node " + name +
            " not found in cluster \"" + cluster + "\" of the fleet");
      }
      nodes.insert(it->second);
    }
    if (a.selector) {
      for (size_t n = 0; n < fleet.nodes.size(); ++n) {
        const model::Node& node = fleet.nodes[n];
        if (node.cluster == cluster && a.selector->Matches(node.meta.labels)) {
          nodes.insert(static_cast<int32_t>(n));
        }
      }
    }
    if (nodes.empty()) {
      const std::string where =
          a.field_path.empty() ? a.line
                               : a.field_path + (a.selector ? ".selector" : ".nodes");
      return core::InvalidArgument(where + ": " + ActionKindName(a.kind) +
                                   " matches no node of cluster \"" + cluster + "\"");
    }
    r.nodes.assign(nodes.begin(), nodes.end());
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace berth::sim
