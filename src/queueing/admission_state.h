// AdmissionState: the mutable state of one admission run: the queue setup with its quota
// tree, the per-workload infos, and which workloads hold quota where (HeldQuota), indexed
// per ClusterQueue so preemption looks only at the admitted workloads of one cohort tree.
// Owned by RunAdmission (dense per-workload storage) or a QuotaProbe (sparse);
// FlavorAssigner, Preemptor and AdmissionScheduler share it. Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/time.h"
#include "model/snapshot.h"
#include "queueing/queue_setup.h"
#include "queueing/topology_cache.h"
#include "queueing/workload_info.h"
#include "queueing/workload_slots.h"

namespace berth::queueing {

// (FR id, amount) pairs, ascending FR id, amounts > 0.
using FrUsage = std::vector<std::pair<int32_t, int64_t>>;

struct HeldQuota {
  int32_t cq = -1;
  FrUsage usage;
  model::Admission admission;
  // When quota was reserved, for "most recently admitted first"; `sequence` orders
  // reservations of this run after the input's (0) and among themselves.
  core::Timestamp reserved_at;
  int64_t sequence = 0;
};

// The usage `admission` charges in this setup's FR ids, per FR summed over its pod sets
// (ascending FR id, amounts > 0). Resources unknown to the catalog and flavors the queues no
// longer offer charge nothing. O(resources of the admission · log).
FrUsage AdmissionUsage(const QueueSetup& setup, const model::ResourceCatalog& catalog,
                       const model::Admission& admission);

class AdmissionState;

// Kueue's candidate order (preemption/common/ordering.go) as a total order: lower priority,
// then most recently reserved, then UID, then index. The admitted workloads of a queue are
// kept in this order so preemption reads them lazily, cheapest victims first.
struct VictimOrder {
  const AdmissionState* state;
  bool operator()(int32_t a, int32_t b) const;
};
using AdmittedSet = std::set<int32_t, VictimOrder>;

class AdmissionState {
 public:
  // `storage`: kDense when most workloads of the snapshot take part (RunAdmission), kSparse
  // when a few do (QuotaProbe: construction then costs nothing per workload).
  AdmissionState(const model::Snapshot& snapshot, QueueSetup setup,
                 WorkloadStorage storage = WorkloadStorage::kDense)
      : snapshot_(snapshot),
        setup_(std::move(setup)),
        infos_(storage, snapshot.kueue_workloads.size()),
        held_(storage, snapshot.kueue_workloads.size()),
        admitted_by_cq_(setup_.cqs.size(), AdmittedSet(VictimOrder{this})),
        topology_(snapshot) {
    MarkMissingTopologies();
  }
  // The admitted sets point back at this object.
  AdmissionState(const AdmissionState&) = delete;
  AdmissionState& operator=(const AdmissionState&) = delete;

  const model::Snapshot& snapshot() const { return snapshot_; }
  const model::Workload& workload(int32_t wl) const {
    return snapshot_.kueue_workloads[static_cast<size_t>(wl)];
  }
  const QueueSetup& setup() const { return setup_; }
  QuotaTree& tree() { return setup_.tree; }
  const QuotaTree& tree() const { return setup_.tree; }
  const ClusterQueueInfo& cq(int32_t q) const { return setup_.cqs[static_cast<size_t>(q)]; }
  const model::ClusterQueue& cq_spec(int32_t q) const {
    return snapshot_.cluster_queues[static_cast<size_t>(cq(q).index)];
  }
  WorkloadInfo& info(int32_t wl) { return infos_[wl]; }
  const WorkloadInfo& info(int32_t wl) const { return infos_.Get(wl); }

  const std::optional<HeldQuota>& held(int32_t wl) const { return held_.Get(wl); }
  // The queue's quota holders in VictimOrder.
  const AdmittedSet& admitted(int32_t q) const { return admitted_by_cq_[static_cast<size_t>(q)]; }
  // Adds the usage to the tree and indexes the workload under its ClusterQueue; pod sets
  // with a topology assignment on a TAS flavor also charge that flavor's TopologySnapshot
  // (unless their pods are bound: Build counted those). O(|usage|·depth + domains).
  void Hold(int32_t wl, HeldQuota quota);
  // Reverses Hold (quota and topology usage); returns what was held.
  HeldQuota Release(int32_t wl);
  int64_t NextSequence() { return ++sequence_; }

  void AddUsage(int32_t q, const FrUsage& usage);
  void RemoveUsage(int32_t q, const FrUsage& usage);

  // The TAS capacity trees of this run and the holders' usage on them.
  TopologyCache& topology() { return topology_; }
  // Whether every flavor of ClusterQueue `q` is a TAS flavor (Kueue's IsTASOnly): pod sets
  // without a topology annotation are then placed as unconstrained.
  bool IsTasOnly(int32_t q) const;

 private:
  // Kueue's TopologyNotFound: a ClusterQueue with a TAS flavor whose Topology is missing
  // admits nothing (clusterqueue.go inactiveReason).
  void MarkMissingTopologies();
  std::vector<TopologyUsage> TopologyUsageOf(int32_t wl, const model::Admission& admission);

  const model::Snapshot& snapshot_;
  QueueSetup setup_;
  WorkloadSlots<WorkloadInfo> infos_;
  WorkloadSlots<std::optional<HeldQuota>> held_;
  std::vector<AdmittedSet> admitted_by_cq_;
  TopologyCache topology_;
  int64_t sequence_ = 0;
};

}  // namespace berth::queueing
