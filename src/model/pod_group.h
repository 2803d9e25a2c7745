// PodGroup: a gang of pods not behind Kueue (scheduling.x-k8s.io/v1alpha1 coscheduling and
// scheduling.volcano.sh/v1beta1). Pods join one through the label
// `scheduling.x-k8s.io/pod-group` or the annotation `scheduling.k8s.io/group-name`; they
// bind only when min_member of them can bind at once. Kubernetes' own gang API
// (scheduling.k8s.io Workload) gives one PodGroup per entry of its spec.podGroups[]: meta is
// the Workload's, `workload_pod_group` the entry's name, and pods join it through
// spec.workloadRef. Plain data, owned by Snapshot.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/object_meta.h"

namespace berth::model {

struct PodGroup {
  std::string api_version;
  ObjectMeta meta;
  int32_t min_member = 1;
  std::string queue;  // volcano spec.queue, informational
  // Volcano's spec.minTaskMember: per task (a pod's volcano.sh/task-spec annotation), the
  // pods that must bind, in task order. Enforced only while min_member is at least their
  // sum (Volcano's CheckTaskReady).
  std::vector<std::pair<std::string, int32_t>> min_task_member;
  // scheduling.k8s.io Workload only: the spec.podGroups[] entry's name, and whether its
  // policy is gang (min_member its minCount) rather than basic (no gang).
  std::string workload_pod_group;
  bool gang = true;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
