// Pod groups outside Kueue (coscheduling's scheduling.x-k8s.io PodGroup, Volcano's
// scheduling.volcano.sh PodGroup, the gangs of a scheduling.k8s.io Workload): which group a
// pod belongs to and how many of its pods must bind together. Pods join through the label
// `scheduling.x-k8s.io/pod-group` (coscheduling), the annotation
// `scheduling.k8s.io/group-name` (Volcano) or spec.workloadRef (the Workload's pod group and
// replica key: key "namespace/workload/group[/replica]"). Pure.
#pragma once

#include <optional>
#include <string>

#include "model/snapshot.h"

namespace berth::engine {

struct PodGroupRef {
  std::string key;         // "namespace/name"
  int32_t min_member = 1;  // from the PodGroup object
  bool found = false;      // a PodGroup object of that name exists in the pod's cluster
};

// The group `pod` names, if any. Linear in PodGroups.
std::optional<PodGroupRef> PodGroupOf(const model::Snapshot& snapshot, const model::Pod& pod);

}  // namespace berth::engine
