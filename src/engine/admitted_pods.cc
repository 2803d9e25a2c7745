#include "engine/admitted_pods.h"

#include <algorithm>

#include "dispatch/flavor_injection.h"

namespace berth::engine {

bool HoldsAdmission(const model::Workload& w) {
  if (!w.admission) return false;
  const model::WorkloadCondition* reserved = w.FindCondition("QuotaReserved");
  if (reserved != nullptr && reserved->status != "True") return false;
  const model::WorkloadCondition* finished = w.FindCondition("Finished");
  if (finished != nullptr && finished->status == "True") return false;
  const model::WorkloadCondition* evicted = w.FindCondition("Evicted");
  return evicted == nullptr || evicted->status != "True";
}

void AddAdmission(const core::Labels& node_selector,
                  const std::vector<core::Toleration>& tolerations, model::Pod* pod) {
  for (const auto& [key, value] : node_selector) pod->node_selector[key] = value;
  for (const core::Toleration& t : tolerations) {
    if (std::find(pod->tolerations.begin(), pod->tolerations.end(), t) == pod->tolerations.end()) {
      pod->tolerations.push_back(t);
    }
  }
}

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
      admitted.pod_set = ps;
      admitted.added_node_selector.insert(injection.node_selector.begin(),
                                          injection.node_selector.end());
      admitted.added_tolerations = injection.tolerations;
      if (assignment->topology_assignment) {
        if (auto pinned = dispatch::PodTopologySelector(*assignment->topology_assignment,
                                                        static_cast<int32_t>(i))) {
          for (const auto& [key, value] : *pinned) admitted.added_node_selector[key] = value;
        }
      }
      AddAdmission(admitted.added_node_selector, admitted.added_tolerations, &admitted.spec);
      out.push_back(std::move(admitted));
    }
  }
  return out;
}

std::vector<model::Pod> GuestPods(const model::Snapshot& whole, int32_t workload,
                                  const model::Admission& admission,
                                  const std::string& flavor_cluster, const std::string& worker) {
  const model::Workload& w = whole.kueue_workloads[static_cast<size_t>(workload)];
  std::vector<model::Pod> out;
  for (size_t ps = 0; ps < w.pod_sets.size(); ++ps) {
    const model::KueuePodSet& set = w.pod_sets[ps];
    auto assignment = std::find_if(admission.pod_set_assignments.begin(),
                                   admission.pod_set_assignments.end(),
                                   [&](const model::PodSetAssignment& a) { return a.name == set.name; });
    if (assignment == admission.pod_set_assignments.end()) continue;
    const dispatch::FlavorInjection injection =
        dispatch::InjectionFor(whole, flavor_cluster, *assignment);
    const bool expanded = ps < w.pods.size() && !w.pods[ps].empty();
    for (int32_t i = 0; i < assignment->count; ++i) {
      model::Pod pod;
      if (expanded) {
        if (static_cast<size_t>(i) >= w.pods[ps].size()) break;
        pod = whole.pods[static_cast<size_t>(w.pods[ps][static_cast<size_t>(i)])];
      } else {
        pod = set.pod_template;
        pod.meta.name = w.meta.name + "-" + set.name + "-" + std::to_string(i);
        pod.meta.namespace_ = w.meta.namespace_;
      }
      pod.node_name.clear();
      pod.cluster = worker;
      // Claims stay with the cluster that owns them; dispatch places the pods' other needs.
      pod.resource_claims.clear();
      for (const auto& [key, value] : injection.node_selector) pod.node_selector[key] = value;
      for (const core::Toleration& t : injection.tolerations) {
        if (std::find(pod.tolerations.begin(), pod.tolerations.end(), t) == pod.tolerations.end()) {
          pod.tolerations.push_back(t);
        }
      }
      if (assignment->topology_assignment) {
        if (auto pinned = dispatch::PodTopologySelector(*assignment->topology_assignment, i)) {
          for (const auto& [key, value] : *pinned) pod.node_selector[key] = value;
        }
      }
      out.push_back(std::move(pod));
    }
  }
  return out;
}

}  // namespace berth::engine
