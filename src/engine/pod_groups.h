// Pod groups outside Kueue (coscheduling's scheduling.x-k8s.io PodGroup, Volcano's
// scheduling.volcano.sh PodGroup, the gangs of a scheduling.k8s.io Workload): which group a
// pod belongs to and how many of its pods must bind together. Pods join through the label
// `scheduling.x-k8s.io/pod-group` (coscheduling), the annotation
// `scheduling.k8s.io/group-name` (Volcano) or spec.workloadRef (the Workload's pod group and
// replica key: key "namespace/workload/group[/replica]"). Pure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/snapshot.h"

namespace berth::engine {

struct PodGroupRef {
  std::string key;         // "namespace/name"
  int32_t min_member = 1;  // from the PodGroup object
  bool found = false;      // a PodGroup object of that name exists in the pod's cluster
  // Volcano's minTaskMember (task -> pods), from the PodGroup object.
  std::vector<std::pair<std::string, int32_t>> min_task_member;
};

// The Volcano task a pod belongs to: its volcano.sh/task-spec annotation ("" when none).
std::string VolcanoTaskOf(const model::Pod& pod);

// Volcano's CheckTaskReady: with `bound_per_task` the group's bound pods per task (input
// and this plan), the first task of `ref` short of its minTaskMember, or nullopt when every
// task has its minimum, or when min_member is below the tasks' minimums' sum (Volcano then
// checks only the total).
std::optional<std::pair<std::string, int32_t>> TaskShortOfMinimum(
    const PodGroupRef& ref, const std::map<std::string, int32_t>& bound_per_task);

// The group `pod` names, if any. Linear in PodGroups.
std::optional<PodGroupRef> PodGroupOf(const model::Snapshot& snapshot, const model::Pod& pod);

}  // namespace berth::engine
