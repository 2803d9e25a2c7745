// WorkloadInfo: what admission needs of one Kueue Workload, computed once per run: per pod
// set the per-pod requests (upstream PodRequests, with limits standing in for missing
// requests as Kueue's job integrations default them), the effective priority and the queue
// order timestamp; and the partial-admission search over its pod set counts (used by the
// scheduler's nomination and QuotaProbe). Plain values; built by the admission run.
#pragma once

#include <algorithm>
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

// model::PodRequests with limits standing in for missing (0) requests, as Kueue computes a
// Workload's usage; (resource, amount) pairs with amount > 0, ascending ResourceId.
std::vector<std::pair<model::ResourceId, int64_t>> KueuePodRequests(const model::Pod& pod);

// Kueue's GetQueueOrderTimestamp: the Evicted transition time when the workload was evicted
// by PodsReadyTimeout or an AdmissionCheck, else creationTimestamp.
core::Timestamp QueueOrderTimestamp(const model::Workload& wl);

WorkloadInfo BuildWorkloadInfo(const model::Workload& wl, int32_t index);

// True when the condition is present with status "True".
bool ConditionTrue(const model::Workload& wl, const char* type);

// Kueue's partial admission (podset_reducer.go): a pod set with minCount may shrink by
// delta_i = count_i - minCount_i; reduction k of total = sum(delta_i) gives the counts
// count_i - floor(delta_i * k / total). Binary search for the smallest k in [1, total] for
// which `attempt(counts)` returns a value (a smaller reduction that fails means every smaller
// one fails, as upstream assumes); returns that value, or nullopt when no k works or no pod
// set may shrink. O(log total) attempts.
template <typename T, typename Attempt>
std::optional<T> SearchPartialAdmission(const WorkloadInfo& info, Attempt&& attempt) {
  std::vector<int32_t> deltas;
  int64_t total = 0;
  for (const PodSetRequest& ps : info.pod_sets) {
    const int32_t delta = ps.min_count ? std::max(0, ps.count - *ps.min_count) : 0;
    deltas.push_back(delta);
    total += delta;
  }
  std::optional<T> best;
  if (total == 0) return best;
  int64_t lo = 1, hi = total;
  while (lo <= hi) {
    const int64_t k = lo + (hi - lo) / 2;
    std::vector<int32_t> counts;
    for (size_t p = 0; p < info.pod_sets.size(); ++p) {
      counts.push_back(static_cast<int32_t>(info.pod_sets[p].count - deltas[p] * k / total));
    }
    if (std::optional<T> trial = attempt(std::move(counts))) {
      best = std::move(trial);
      hi = k - 1;
    } else {
      lo = k + 1;
    }
  }
  return best;
}

}  // namespace berth::queueing
