// QueueSetup: the ClusterQueues, Cohorts and LocalQueues of one cluster, validated and
// indexed for admission: per ClusterQueue its resource groups with dense (flavor, resource)
// ids, whether it is active (and Kueue's reason when not), and the QuotaTree over
// ClusterQueues (nodes [0, cqs.size())) and Cohorts (the nodes after them). Built once per
// RunAdmission by BuildQueueSetup; read-only afterwards except the tree's usage.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "model/snapshot.h"
#include "queueing/quota_tree.h"

namespace berth::queueing {

struct GroupFlavor {
  std::string name;
  int32_t flavor = -1;       // index into snapshot.resource_flavors; -1 when missing
  std::vector<int32_t> frs;  // FR id per covered resource of the group (parallel)
};

struct QuotaGroup {
  std::vector<model::ResourceId> resources;
  std::vector<GroupFlavor> flavors;  // preference order
};

struct ClusterQueueInfo {
  int32_t index = -1;  // into snapshot.cluster_queues
  std::string name;
  bool active = true;
  std::string reason, message;  // Active=False
  bool stopped = false;         // stopPolicy Hold or HoldAndDrain
  std::vector<QuotaGroup> groups;
  std::map<uint16_t, int32_t> group_of_resource;  // ResourceId.v -> group
  bool covers_pods = false;
  std::vector<int32_t> same_tree;  // the ClusterQueues of this queue's cohort tree (incl. self)
};

struct QueueSetup {
  std::vector<ClusterQueueInfo> cqs;  // the cluster's ClusterQueues, snapshot order
  std::unordered_map<std::string, int32_t> cq_by_name;
  std::vector<std::string> cohort_names;  // tree node cqs.size() + i
  // FR ids: flavor name and resource.
  std::vector<std::pair<std::string, model::ResourceId>> frs;
  std::map<std::pair<std::string, uint16_t>, int32_t> fr_ids;
  std::unordered_map<std::string, int32_t> flavor_by_name;           // -> resource_flavors
  std::unordered_map<std::string, int32_t> local_queue_by_key;       // "ns/name" -> local_queues
  std::unordered_map<std::string, int32_t> namespace_by_name;        // -> namespaces
  std::unordered_map<std::string, int32_t> admission_check_by_name;  // -> admission_checks
  QuotaTree tree;

  int32_t FrId(const std::string& flavor, model::ResourceId r) const {
    auto it = fr_ids.find({flavor, r.v});
    return it == fr_ids.end() ? -1 : it->second;
  }
};

// Where a pending workload queues in this setup, checked as Kueue does before it queues one:
// the LocalQueue <workload namespace>/<queue_name> exists and is not stopped, its ClusterQueue
// exists and is active, and the workload's namespace matches the ClusterQueue's
// namespaceSelector. The workload may belong to any cluster (QuotaProbe asks about hub
// workloads in a worker's setup).
struct QueueResolution {
  int32_t cq = -1;              // into QueueSetup::cqs once the ClusterQueue is found
  std::string reason, message;  // QuotaReserved=False reason and message; empty: it queues
  bool ok() const { return reason.empty(); }
};

// O(1) expected plus the namespaceSelector match.
QueueResolution ResolveQueue(const QueueSetup& setup, const model::Snapshot& snapshot,
                             const model::Workload& wl);

// Validates and indexes the Kueue queues of `cluster`. Each invalid ClusterQueue is
// reported to `diags` (an error naming the object and field: a missing ResourceFlavor or
// AdmissionCheck, a cohort cycle, a spec Kueue's webhook refuses) and made inactive with
// Kueue's reason; the others are unaffected. A LocalQueue naming a missing ClusterQueue and a
// second ClusterQueue of one name (left out) are errors too.
QueueSetup BuildQueueSetup(const model::Snapshot& snapshot, const std::string& cluster,
                           core::Diagnostics& diags);

// Reports what BuildQueueSetup reports, for a cluster where admission does not run (no
// workload queues there in this plan), so that a broken queue is never silent. Returns at once
// when the cluster has no ClusterQueue, Cohort or LocalQueue.
void CheckQueueSetup(const model::Snapshot& snapshot, const std::string& cluster,
                     core::Diagnostics& diags);

}  // namespace berth::queueing
