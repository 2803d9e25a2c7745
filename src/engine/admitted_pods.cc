#include "engine/admitted_pods.h"

#include <algorithm>
#include <set>

namespace berth::engine {
namespace {

const model::ResourceFlavor* FindFlavor(const model::Snapshot& snapshot, const std::string& name,
                                        const std::string& cluster) {
  for (const auto& f : snapshot.resource_flavors) {
    if (f.meta.name == name && f.cluster == cluster) return &f;
  }
  return nullptr;
}

void AddToleration(std::vector<core::Toleration>& tolerations, const core::Toleration& t) {
  if (std::find(tolerations.begin(), tolerations.end(), t) == tolerations.end()) {
    tolerations.push_back(t);
  }
}

}  // namespace

std::vector<AdmittedPod> AdmittedPods(const model::Snapshot& snapshot,
                                      const model::Workload& workload,
                                      const model::Admission& admission) {
  std::vector<AdmittedPod> out;
  for (size_t ps = 0; ps < workload.pod_sets.size() && ps < workload.pods.size(); ++ps) {
    const std::string& name = workload.pod_sets[ps].name;
    auto assignment = std::find_if(
        admission.pod_set_assignments.begin(), admission.pod_set_assignments.end(),
        [&](const model::PodSetAssignment& a) { return a.name == name; });
    if (assignment == admission.pod_set_assignments.end()) continue;

    // The flavors of the pod set, each once, in name order (a pod set normally has one per
    // resource group).
    std::set<std::string> flavor_names;
    for (const auto& [resource, flavor] : assignment->flavors) flavor_names.insert(flavor);
    std::vector<const model::ResourceFlavor*> flavors;
    for (const auto& f : flavor_names) {
      if (const auto* flavor = FindFlavor(snapshot, f, workload.cluster)) flavors.push_back(flavor);
    }

    // Topology domains, one per pod in order: the assignment's counts laid out flat.
    std::vector<const model::TopologyDomainAssignment*> domains;
    if (assignment->topology_assignment) {
      for (const auto& d : assignment->topology_assignment->domains) {
        for (int32_t i = 0; i < d.count; ++i) domains.push_back(&d);
      }
    }

    const auto& pods = workload.pods[ps];
    const size_t count = std::min(pods.size(), static_cast<size_t>(std::max(0, assignment->count)));
    for (size_t i = 0; i < count; ++i) {
      AdmittedPod admitted;
      admitted.pod = model::PodIndex{pods[i]};
      admitted.spec = snapshot.pod(admitted.pod);
      for (const auto* flavor : flavors) {
        for (const auto& [key, value] : flavor->node_labels) admitted.spec.node_selector[key] = value;
        for (const auto& t : flavor->tolerations) AddToleration(admitted.spec.tolerations, t);
      }
      if (i < domains.size()) {
        const auto& levels = assignment->topology_assignment->levels;
        for (size_t l = 0; l < levels.size() && l < domains[i]->values.size(); ++l) {
          admitted.spec.node_selector[levels[l]] = domains[i]->values[l];
        }
      }
      out.push_back(std::move(admitted));
    }
  }
  return out;
}

}  // namespace berth::engine
