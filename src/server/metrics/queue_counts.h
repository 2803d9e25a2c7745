// QueueCounts: what each ClusterQueue and LocalQueue holds after a plan, counted once from
// the planned Workloads: pending (active or inadmissible), reserving, admitted, and the
// quota reserved and used per flavor and resource. The one home of these counts: Kueue's
// gauges (kueue_metrics.h) and the queues' status the hub writes (cli/queue_status.h) read
// them. Pure.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>
#include <unordered_set>
#include <utility>

#include "model/snapshot.h"

namespace berth::server {

struct QueueCounts {
  int64_t pending_active = 0;
  int64_t pending_inadmissible = 0;  // QuotaReserved=False with reason Inadmissible
  int64_t reserving = 0;             // holding quota (admitted or not yet)
  int64_t admitted = 0;
  // (flavor, resource name) -> amount in ResourceVector units (cpu milli).
  std::map<std::pair<std::string, std::string>, int64_t> reservation;
  std::map<std::pair<std::string, std::string>, int64_t> usage;  // of admitted Workloads

  int64_t pending() const { return pending_active + pending_inadmissible; }
};

struct FleetQueueCounts {
  std::map<std::string, QueueCounts> cluster_queues;  // by name; every ClusterQueue present
  // (namespace, name); every LocalQueue present.
  std::map<std::pair<std::string, std::string>, QueueCounts> local_queues;
};

// Finished Workloads count nowhere; a pending one counts for its LocalQueue and, when that
// exists, its ClusterQueue; one holding quota for the ClusterQueue of its admission and its
// LocalQueue. Queues and Workloads of the clusters in `skip_clusters` (member clusters an
// agent reports to the hub, whose queues are their own Kueue's) count nowhere.
// O(workloads log queues).
FleetQueueCounts CountQueues(const model::Snapshot& planned,
                             const std::unordered_set<std::string>* skip_clusters = nullptr);

}  // namespace berth::server
