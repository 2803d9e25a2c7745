// AdmissionScheduler: Kueue's scheduling loop (pkg/scheduler/scheduler.go) for one cluster:
// classifies every Workload (finished, inactive, holding quota, pending, inadmissible),
// charges the holders' quota first, then runs cycles: one head per ClusterQueue, nominate
// (flavor assignment, preemption targets, partial admission), order (classical: non-borrowing
// first, priority, age; fair sharing: the DRS tournament, fair_sharing_iterator.h), process
// against the mutating quota tree (cohort re-check), and requeue. With Admission Fair Sharing
// the ClusterQueues that use it order their heads by LocalQueue usage, and every admission
// adds its entry penalty (admission_fair_sharing.h).
// Used by RunAdmission (one instance per run) and, incrementally, by berth simulate: Start,
// then Submit / Finish / Schedule as virtual time passes, each costing only the cycles the
// change causes (no rescan of the workloads). Not thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/diagnostics.h"
#include "model/snapshot.h"
#include "queueing/admission.h"
#include "queueing/admission_fair_sharing.h"
#include "queueing/admission_state.h"
#include "queueing/dra_quota.h"
#include "queueing/fair_sharing.h"
#include "queueing/fair_sharing_iterator.h"
#include "queueing/fair_sharing_preemptor.h"
#include "queueing/flavor_assigner.h"
#include "queueing/pending_queue.h"
#include "queueing/placement_oracle.h"
#include "queueing/preemptor.h"

namespace berth::queueing {

// What a workload holds for the rest of a cycle when it is not admitted in it: a Fit
// assignment's whole usage; a Preempt one without victims (scheduler.go
// quotaResourcesToReserve) only its queue's nominal headroom, or up to its borrowing limit
// when the assignment borrows. O(resources of the assignment).
FrUsage QuotaToReserve(const QuotaTree& tree, int32_t cq, const Assignment& a);

class AdmissionScheduler {
 public:
  AdmissionScheduler(const model::Snapshot& snapshot, const AdmissionOptions& options,
                     PlacementOracle* oracle, core::Diagnostics& diags);

  AdmissionResult Run();

  // --- Incremental use -----------------------------------------------------------------
  // Classifies the workloads of the cluster that hold quota in the input (charged and placed
  // as Run does); every other workload takes part only once Submitted. Call once, first.
  void Start();
  // The workload (of this cluster, holding nothing) arrives or comes back: queued in its
  // ClusterQueue as Kueue queues it, or left inadmissible (decision() says why).
  // `queue_order_time`, when given, replaces its queue-order timestamp (Kueue's requeue after
  // a PodsReady-timeout eviction). O(log queue).
  void Submit(int32_t wl, std::optional<core::Timestamp> queue_order_time = std::nullopt);
  // The workload ended (finished, failed or evicted outside Kueue's own preemption): its
  // quota and placement are freed and the parked workloads of its cohort tree retried. A
  // no-op when it holds nothing (a pending one is taken out of its queue lazily: it is never
  // admitted once Finished). O(usage · depth + parked groups of the tree).
  void Finish(int32_t wl);
  // Every parked workload of every ClusterQueue gets another chance (capacity outside Kueue's
  // quota changed: nodes came back or were added). O(parked groups).
  void ReactivateAll();
  // What one Schedule call changed.
  struct Change {
    int32_t workload = -1;
    bool admitted = false;  // true: quota reserved (and placed); false: evicted by preemption
  };
  struct Changes {
    // In the order they happened: one workload may be admitted, preempted and admitted again
    // within one call.
    std::vector<Change> changes;
    int32_t cycles = 0;
  };
  // Runs scheduling cycles at `now` until one changes nothing, at most 4 x (workloads queued
  // or holding quota + ClusterQueues) + 64 of them (Run's bound); admissions are stamped `now`.
  Changes Schedule(core::Timestamp now);
  const WorkloadDecision& decision(int32_t wl) const {
    return decisions_[static_cast<size_t>(wl)];
  }
  bool holds_quota(int32_t wl) const { return state_.held(wl).has_value(); }
  int32_t cluster_queue_of(int32_t wl) const { return state_.info(wl).cq; }
  size_t pending_in(int32_t cq) const { return queues_[static_cast<size_t>(cq)].size(); }
  const AdmissionState& state() const { return state_; }

 private:
  struct Entry {
    int32_t wl = -1;
    Assignment assignment;
    std::vector<int32_t> counts;
    PreemptionResult preemption;
  };

  void Classify(bool holders_only);
  // Runs cycles until one changes nothing or `max_cycles` ran; returns the cycles run.
  int32_t RunCycles(int64_t max_cycles);
  void ClassifyHolder(int32_t i, WorkloadDecision& d);
  void ClassifyPending(int32_t i, WorkloadDecision& d);
  Entry Nominate(int32_t wl);
  // Processes one nominated entry against the cycle's tree; true when it changed anything.
  bool Process(Entry& e, int32_t cycle);
  void Requeue(int32_t wl, bool park);
  bool QuotaFits(int32_t cq, const FrUsage& usage) const;
  // "/root/.../cohort/cq", as Kueue names queues in preemption messages.
  std::string CqPath(int32_t cq) const;
  model::Admission BuildAdmission(const Entry& e) const;
  // States of the ClusterQueue's admission checks that apply to the assigned flavors.
  std::vector<model::CheckState> CheckStates(int32_t wl, int32_t cq,
                                             const model::Admission& admission) const;
  ClusterQueueState CqState(int32_t q) const;
  // Processes the cycle's entries in classical or fair-sharing order; true on any change.
  bool ProcessCycle(std::vector<Entry>& entries, int32_t cycle);

  const model::Snapshot& snapshot_;
  AdmissionOptions options_;
  PlacementOracle* oracle_;
  AdmissionState state_;
  Preemptor preemptor_;
  // Set when snapshot.kueue_config has fairSharing; the preemptor hands searches to it.
  std::unique_ptr<FairSharing> fair_sharing_;
  std::unique_ptr<FairSharingPreemptor> fair_preemptor_;
  std::unique_ptr<FairSharingIterator> fair_order_;
  FlavorAssigner assigner_;
  DraQuota dra_;  // devices of ResourceClaimTemplates as quota (deviceClassMappings)
  // Set when snapshot.kueue_config has admissionFairSharing (before queues_, which read it).
  std::unique_ptr<AdmissionFairSharing> afs_;
  std::deque<PendingQueue> queues_;          // per ClusterQueue (stable addresses)
  std::vector<WorkloadDecision> decisions_;  // by snapshot index
  std::vector<bool> in_cluster_;
  // Per cycle: victims chosen, and usage reserved for preemptors (undone at cycle end).
  std::vector<int32_t> cycle_victims_;
  std::vector<std::pair<int32_t, FrUsage>> cycle_reservations_;
  // "cq#equivalence" -> the last workload parked for that group (its message explains the rest).
  std::unordered_map<std::string, int32_t> parked_by_;
  // Incremental use: what the cycles since the last Schedule changed; workloads Finished
  // while still queued (skipped when popped).
  std::vector<Change> log_;
  std::vector<bool> finished_;
  std::vector<bool> queued_;  // in its ClusterQueue's pending queue (heap, parked or sticky)
};

}  // namespace berth::queueing
