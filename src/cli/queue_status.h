// QueueStatuses: the status Kueue's controllers keep on every ClusterQueue and LocalQueue,
// from a plan: the pending, reserving and admitted Workload counts, the quota reserved and
// used per flavor and resource (with what a ClusterQueue borrows beyond its nominal quota),
// and the Active condition. The hub's scheduling loop writes them, so `kubectl get
// clusterqueues` shows PENDING WORKLOADS and `kubectl describe` the usage, as on a cluster
// running Kueue. Pure.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/time.h"
#include "model/snapshot.h"
#include "server/metrics/queue_counts.h"

namespace berth::cli {

struct QueueStatus {
  std::string kind;  // "ClusterQueue" or "LocalQueue" (kueue.x-k8s.io)
  std::string namespace_;
  std::string name;
  nlohmann::ordered_json status;
};

// One per ClusterQueue and LocalQueue of `planned`, from its `counts` (server::CountQueues
// of the same snapshot), conditions at `now`.
// Queues of the clusters in `skip_clusters` get none (their own Kueue writes it).
std::vector<QueueStatus> QueueStatuses(const model::Snapshot& planned,
                                       const server::FleetQueueCounts& counts, core::Timestamp now,
                                       const std::unordered_set<std::string>* skip_clusters = nullptr);

// Gives each condition of `next` the lastTransitionTime it has in `current` when its
// status, reason and message are the same there (a condition that stays keeps its time).
void KeepConditionTimes(const nlohmann::ordered_json& current, nlohmann::ordered_json& next);

}  // namespace berth::cli
