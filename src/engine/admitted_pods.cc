#include "engine/admitted_pods.h"

#include <algorithm>

#include "dispatch/flavor_injection.h"

namespace berth::engine {

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
    const dispatch::FlavorInjection injection =
        dispatch::InjectionFor(snapshot, workload.cluster, *assignment);
    const auto& pods = workload.pods[ps];
    const size_t count = std::min(pods.size(), static_cast<size_t>(std::max(0, assignment->count)));
    for (size_t i = 0; i < count; ++i) {
      AdmittedPod admitted;
      admitted.pod = model::PodIndex{pods[i]};
      admitted.spec = snapshot.pod(admitted.pod);
      for (const auto& [key, value] : injection.node_selector) {
        admitted.spec.node_selector[key] = value;
      }
      for (const core::Toleration& t : injection.tolerations) {
        if (std::find(admitted.spec.tolerations.begin(), admitted.spec.tolerations.end(), t) ==
            admitted.spec.tolerations.end()) {
          admitted.spec.tolerations.push_back(t);
        }
      }
      if (assignment->topology_assignment) {
        if (auto pinned = dispatch::PodTopologySelector(*assignment->topology_assignment,
                                                        static_cast<int32_t>(i))) {
          for (const auto& [key, value] : *pinned) admitted.spec.node_selector[key] = value;
        }
      }
      out.push_back(std::move(admitted));
    }
  }
  return out;
}

}  // namespace berth::engine
