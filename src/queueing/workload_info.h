// WorkloadInfo: what admission needs of one Kueue Workload, computed once per run: per pod
// set the per-pod requests (upstream PodRequests, with limits standing in for missing
// requests as Kueue's job integrations default them), the effective priority and the queue
// order timestamp. Plain values; built by the admission run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/time.h"
#include "model/kueue.h"
#include "model/pod.h"
#include "model/resources.h"

namespace berth::queueing {

struct PodSetRequest {
  std::string name;
  int32_t count = 1;
  std::optional<int32_t> min_count;
  // (resource, amount per pod), amounts > 0 only, ascending ResourceId.
  std::vector<std::pair<model::ResourceId, int64_t>> per_pod;
};

struct WorkloadInfo {
  int32_t index = -1;  // into snapshot.kueue_workloads
  int32_t cq = -1;     // into QueueSetup::cqs; -1 when unresolved
  int32_t priority = 0;
  core::Timestamp queue_timestamp;
  std::vector<PodSetRequest> pod_sets;
  // Kueue's scheduling-equivalence hash: workloads with the same key get the same flavor
  // assignment from the same quota state (priority, pod set counts and requests, node
  // selector, tolerations). Templates with affinity or topology requests get a key of their
  // own.
  std::string equivalence;
};

// requests = max(sum(app containers) + sum(sidecars), max over init containers i of
// (init i + sidecars declared before i)) + overhead; per container a missing request
// (0) with a limit takes the limit.
std::vector<std::pair<model::ResourceId, int64_t>> PodRequests(const model::Pod& pod);

// Kueue's GetQueueOrderTimestamp: the Evicted transition time when the workload was evicted
// by PodsReadyTimeout or an AdmissionCheck, else creationTimestamp.
core::Timestamp QueueOrderTimestamp(const model::Workload& wl);

WorkloadInfo BuildWorkloadInfo(const model::Workload& wl, int32_t index);

// True when the condition is present with status "True".
bool ConditionTrue(const model::Workload& wl, const char* type);

}  // namespace berth::queueing
