// FairSharingPreemptor: Kueue's preemption when fair sharing is on
// (pkg/scheduler/preemption/fairsharing/*, preemption.go; ../shared/reference/kueue.md §12).
// Candidates: the preemptor's own ClusterQueue (withinClusterQueue) and every ClusterQueue of
// its cohort tree that borrows on a contested FR (reclaimWithinCohort; borrowWithinCohort is
// not used). With the preemptor's usage simulated, target queues are visited by descending
// from the root to the child with the highest DRS (pruning queues without candidates and
// cohorts off the preemptor's path that do not borrow); own-queue candidates are taken
// unconditionally (InClusterQueue), all cross-queue ones when the preemptor stays within
// nominal on the contested FRs (InCohortReclamation, FairSharingPreemptWithinNominal), else
// the configured strategies decide (InCohortFairSharing). Then fill back. Reads and
// temporarily edits AdmissionState's tree (always restored). The flavor assigner's oracle
// calls it per flavor per nomination, so one search allocates nothing per tree node: the
// per-node cursors, pruning marks and cached shares live in scratch space reused across
// calls (stamped, so a call never clears it), and a search whose every candidate together
// could not free the request returns at once. Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/kueue.h"
#include "queueing/admission_state.h"
#include "queueing/fair_sharing.h"
#include "queueing/preemptor.h"

namespace berth::queueing {

class FairSharingPreemptor {
 public:
  FairSharingPreemptor(AdmissionState& state, const FairSharing& fair_sharing,
                       std::vector<model::FairSharingStrategy> strategies);
  ~FairSharingPreemptor();
  FairSharingPreemptor(const FairSharingPreemptor&) = delete;
  FairSharingPreemptor& operator=(const FairSharingPreemptor&) = delete;

  // Same contract as Preemptor::GetTargets. Cost: O(q·|usage|) to pick the q candidate
  // queues of the cohort tree; per examined candidate one DRS of the target's almost-LCA
  // (O(FRs)); per target-queue pick one walk over the unpruned children on the descent,
  // reading shares cached until a usage change on their path. Without `explain`, a search
  // whose candidate queues' whole usage could not cover the request stops before reading a
  // candidate (the answer is "none" either way).
  PreemptionResult GetTargets(const WorkloadInfo& wl, int32_t cq, const FrUsage& usage,
                              const std::vector<int32_t>& contested, bool explain);

  // Per-node scratch space reused by every call (defined in the .cc file).
  struct Scratch;

 private:
  AdmissionState& state_;
  const FairSharing& fs_;
  std::vector<model::FairSharingStrategy> strategies_;
  std::unique_ptr<Scratch> scratch_;
};

}  // namespace berth::queueing
