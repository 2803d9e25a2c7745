// AdmissionScheduler: Kueue's scheduling loop (pkg/scheduler/scheduler.go) for one cluster:
// classifies every Workload (finished, inactive, holding quota, pending, inadmissible),
// charges the holders' quota first, then runs cycles: one head per ClusterQueue, nominate
// (flavor assignment, preemption targets, partial admission), order (classical: non-borrowing
// first, priority, age; fair sharing: the DRS tournament, fair_sharing_iterator.h), process
// against the mutating quota tree (cohort re-check), and requeue. With Admission Fair Sharing
// the ClusterQueues that use it order their heads by LocalQueue usage, and every admission
// adds its entry penalty (admission_fair_sharing.h).
// Used by RunAdmission; one instance per run; not thread-safe.
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
#include "queueing/fair_sharing.h"
#include "queueing/fair_sharing_iterator.h"
#include "queueing/fair_sharing_preemptor.h"
#include "queueing/flavor_assigner.h"
#include "queueing/pending_queue.h"
#include "queueing/placement_oracle.h"
#include "queueing/preemptor.h"

namespace berth::queueing {

class AdmissionScheduler {
 public:
  AdmissionScheduler(const model::Snapshot& snapshot, const AdmissionOptions& options,
                     PlacementOracle* oracle, core::Diagnostics& diags);

  AdmissionResult Run();

 private:
  struct Entry {
    int32_t wl = -1;
    Assignment assignment;
    std::vector<int32_t> counts;
    PreemptionResult preemption;
  };

  void Classify();
  void ClassifyHolder(int32_t i, WorkloadDecision& d);
  void ClassifyPending(int32_t i, WorkloadDecision& d);
  Entry Nominate(int32_t wl);
  // Processes one nominated entry against the cycle's tree; true when it changed anything.
  bool Process(Entry& e, int32_t cycle);
  void Requeue(int32_t wl, bool park);
  bool QuotaFits(int32_t cq, const FrUsage& usage) const;
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
  core::Diagnostics& diags_;
  AdmissionState state_;
  Preemptor preemptor_;
  // Set when snapshot.kueue_config has fairSharing; the preemptor hands searches to it.
  std::unique_ptr<FairSharing> fair_sharing_;
  std::unique_ptr<FairSharingPreemptor> fair_preemptor_;
  std::unique_ptr<FairSharingIterator> fair_order_;
  FlavorAssigner assigner_;
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
};

}  // namespace berth::queueing
