#include "engine/pod_groups.h"

namespace berth::engine {

namespace {

std::string GangNamespaceOf(const model::ObjectMeta& meta) {
  return meta.namespace_.empty() ? "default" : meta.namespace_;
}

// A pod with spec.workloadRef (scheduling.k8s.io gang API): the Workload's pod group of that
// name; each replica key is its own gang of the group's minCount. A basic-policy group is no
// gang (nullopt); a Workload or group that does not exist leaves the pod waiting, as the
// scheduler keeps it until the Workload appears.
std::optional<PodGroupRef> WorkloadGroupOf(const model::Snapshot& snapshot, const model::Pod& pod,
                                           const model::WorkloadReference& ref) {
  const std::string ns = GangNamespaceOf(pod.meta);
  PodGroupRef out;
  out.key = ns + "/" + ref.name + "/" + ref.pod_group;
  if (!ref.pod_group_replica_key.empty()) out.key += "/" + ref.pod_group_replica_key;
  for (const model::PodGroup& g : snapshot.pod_groups) {
    if (g.workload_pod_group.empty() || g.meta.name != ref.name ||
        g.workload_pod_group != ref.pod_group || GangNamespaceOf(g.meta) != ns ||
        g.cluster != pod.cluster) {
      continue;
    }
    if (!g.gang) return std::nullopt;
    out.min_member = g.min_member;
    out.found = true;
    break;
  }
  return out;
}

}  // namespace

std::optional<PodGroupRef> PodGroupOf(const model::Snapshot& snapshot, const model::Pod& pod) {
  if (pod.workload_ref.has_value()) return WorkloadGroupOf(snapshot, pod, *pod.workload_ref);
  std::string name;
  if (auto it = pod.meta.labels.find("scheduling.x-k8s.io/pod-group");
      it != pod.meta.labels.end()) {
    name = it->second;
  } else if (auto a = pod.meta.annotations.find("scheduling.k8s.io/group-name");
             a != pod.meta.annotations.end()) {
    name = a->second;
  }
  if (name.empty()) return std::nullopt;
  const std::string ns = GangNamespaceOf(pod.meta);
  PodGroupRef ref;
  ref.key = ns + "/" + name;
  for (const model::PodGroup& g : snapshot.pod_groups) {
    // A scheduling.k8s.io Workload's groups are reached through spec.workloadRef only.
    if (!g.workload_pod_group.empty()) continue;
    if (g.meta.name == name && GangNamespaceOf(g.meta) == ns && g.cluster == pod.cluster) {
      ref.min_member = g.min_member;
      ref.min_task_member = g.min_task_member;
      ref.found = true;
      break;
    }
  }
  return ref;
}

std::string VolcanoTaskOf(const model::Pod& pod) {
  auto it = pod.meta.annotations.find("volcano.sh/task-spec");
  return it == pod.meta.annotations.end() ? std::string() : it->second;
}

std::optional<std::pair<std::string, int32_t>> TaskShortOfMinimum(
    const PodGroupRef& ref, const std::map<std::string, int32_t>& bound_per_task) {
  int64_t sum = 0;
  for (const auto& [task, min] : ref.min_task_member) sum += min;
  if (ref.min_member < sum) return std::nullopt;
  for (const auto& [task, min] : ref.min_task_member) {
    auto it = bound_per_task.find(task);
    if ((it == bound_per_task.end() ? 0 : it->second) < min) return std::make_pair(task, min);
  }
  return std::nullopt;
}

}  // namespace berth::engine
