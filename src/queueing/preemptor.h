// Preemptor: Kueue's classical preemption (pkg/scheduler/preemption, classical/): which
// admitted workloads to evict so a preemptor fits. Candidates come from the preemptor's
// ClusterQueue (withinClusterQueue) and from borrowing ClusterQueues of its cohort tree
// (reclaimWithinCohort, borrowWithinCohort), classified as hierarchy / priority / same-queue
// candidates, ordered, then reduced to a minimal set with fill-back. Also the preemption
// oracle the flavor assigner asks for one (flavor, resource). Reads and temporarily edits
// AdmissionState's tree (always restored). Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "queueing/admission.h"
#include "queueing/admission_state.h"

namespace berth::queueing {

struct PreemptionTarget {
  int32_t workload = -1;
  std::string reason;  // InClusterQueue, InCohortReclamation, InCohortReclaimWhileBorrowing
  bool same_queue = false;
};

struct PreemptionResult {
  std::vector<PreemptionTarget> targets;     // empty: no set of candidates makes it fit
  std::vector<CandidateVerdict> candidates;  // filled only when asked (explain)
};

class AdmissionFairSharing;
class FairSharingPreemptor;

class Preemptor {
 public:
  explicit Preemptor(AdmissionState& state) : state_(state) {}

  // With fair sharing on, every search (including the flavor assigner's oracle) is handed to
  // `fair` (fair_sharing_preemptor.h), which must outlive this object; null: classical.
  void UseFairSharing(FairSharingPreemptor* fair) { fair_ = fair; }
  bool fair_sharing() const { return fair_ != nullptr; }
  // With Admission Fair Sharing, the candidates of a preemptor's own ClusterQueue that uses it
  // are taken from the LocalQueue with the higher usage first, then in candidate order
  // (Kueue's CandidatesOrdering). `afs` must outlive this object; null: off.
  void UseAdmissionFairSharing(const AdmissionFairSharing* afs) { afs_ = afs; }

  // Targets for `wl` in ClusterQueue `cq` needing `usage` (every FR of its assignment),
  // contesting `contested` (FRs whose flavor was chosen in a preempt mode). Candidates are
  // read lazily from the queues' admitted sets, which are kept in candidate order, so the
  // cost is O(q + c·(log q + |usage|·depth)) for the q queues of the cohort tree and the c
  // candidates examined, not a sort of every admitted workload. With `explain`, the examined
  // candidates are listed.
  PreemptionResult GetTargets(const WorkloadInfo& wl, int32_t cq, const FrUsage& usage,
                              const std::vector<int32_t>& contested, bool explain);

 private:
  bool Fits(int32_t cq, const FrUsage& usage, bool allow_borrowing) const;
  bool IsBorrowingOnAny(int32_t node, const std::vector<int32_t>& frs) const;

  AdmissionState& state_;
  FairSharingPreemptor* fair_ = nullptr;
  const AdmissionFairSharing* afs_ = nullptr;
};

// Kueue's preemption policy check (common/preemption_policy.go).
bool PolicyAllows(model::PreemptionPolicy policy, const WorkloadInfo& preemptor,
                  const WorkloadInfo& candidate);

}  // namespace berth::queueing
