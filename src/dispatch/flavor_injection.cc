#include "dispatch/flavor_injection.h"

#include <algorithm>
#include <set>

namespace berth::dispatch {
namespace {

const model::ResourceFlavor* FindFlavor(const model::Snapshot& snapshot, const std::string& name,
                                        const std::string& cluster) {
  for (const auto& f : snapshot.resource_flavors) {
    if (f.meta.name == name && f.cluster == cluster) return &f;
  }
  return nullptr;
}

}  // namespace

FlavorInjection InjectionFor(const model::Snapshot& snapshot, const std::string& cluster,
                             const model::PodSetAssignment& assignment) {
  // A pod set maps several resources to one flavor (cpu, memory and GPUs of a group); each
  // flavor counts once.
  std::set<std::string> names;
  for (const auto& [resource, flavor] : assignment.flavors) names.insert(flavor);
  FlavorInjection out;
  for (const std::string& name : names) {
    const model::ResourceFlavor* flavor = FindFlavor(snapshot, name, cluster);
    if (flavor == nullptr) continue;
    // try_emplace keeps the value already there: upstream's keep-first merge.
    for (const auto& [key, value] : flavor->node_labels) out.node_selector.try_emplace(key, value);
    for (const core::Toleration& t : flavor->tolerations) {
      if (std::find(out.tolerations.begin(), out.tolerations.end(), t) == out.tolerations.end()) {
        out.tolerations.push_back(t);
      }
    }
  }
  return out;
}

std::optional<std::map<std::string, std::string>> PodTopologySelector(
    const model::TopologyAssignment& topology, int32_t pod_index) {
  if (pod_index < 0) return std::nullopt;
  int64_t remaining = pod_index;
  for (const model::TopologyDomainAssignment& domain : topology.domains) {
    if (remaining < domain.count) {
      std::map<std::string, std::string> selector;
      for (size_t l = 0; l < topology.levels.size() && l < domain.values.size(); ++l) {
        selector[topology.levels[l]] = domain.values[l];
      }
      return selector;
    }
    remaining -= std::max<int32_t>(domain.count, 0);
  }
  return std::nullopt;
}

std::map<std::string, std::string> SharedTopologySelector(
    const model::TopologyAssignment& topology) {
  std::map<std::string, std::string> selector;
  const model::TopologyDomainAssignment* first = nullptr;
  for (const auto& domain : topology.domains) {
    if (domain.count > 0) {
      first = &domain;
      break;
    }
  }
  if (first == nullptr) return selector;
  for (size_t l = 0; l < topology.levels.size() && l < first->values.size(); ++l) {
    const std::string& value = first->values[l];
    const bool shared =
        std::all_of(topology.domains.begin(), topology.domains.end(),
                    [&](const model::TopologyDomainAssignment& d) {
                      return d.count <= 0 || (l < d.values.size() && d.values[l] == value);
                    });
    if (shared) selector[topology.levels[l]] = value;
  }
  return selector;
}

}  // namespace berth::dispatch
