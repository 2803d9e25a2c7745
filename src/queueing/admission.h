// Kueue admission for one cluster: which pending Workloads get quota in which flavors,
// which admitted ones are preempted, and why the rest wait (../shared/reference/kueue.md
// §1, §3-§11, §14, §15; design and deviations: docs/queueing.md). The engine calls
// RunAdmission once per plan and ApplyDecisions to write the result into the planned
// snapshot. Pure functions of their inputs; deterministic; no wall clock; not thread-safe
// only in that the PlacementOracle is called from the calling thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/boxed.h"
#include "core/diagnostics.h"
#include "core/time.h"
#include "model/kueue.h"
#include "model/snapshot.h"
#include "queueing/placement_oracle.h"

namespace berth::queueing {

struct AdmissionOptions {
  core::Timestamp now;
  std::string cluster = "default";
  // Upper bound on scheduling cycles; 0 picks 4 × (workloads + ClusterQueues) + 64. Every
  // cycle that changes nothing ends the run first (docs/queueing.md, "Termination").
  int32_t max_cycles = 0;
  // false: decisions carry no flavor attempts or preemption candidates (attempts,
  // candidates), which explain prints and a simulation never reads; the decisions are the same.
  bool explain = true;
};

enum class WorkloadOutcome {
  kAdmitted,         // quota reserved and every admission check Ready (Admitted=True)
  kQuotaReserved,    // quota reserved, admission checks still Pending
  kAlreadyAdmitted,  // held quota in the input and keeps it unchanged
  kPending,          // waits; reason and message say why (QuotaReserved=False)
  kInadmissible,     // cannot be considered (missing or inactive queue, namespace, ...)
  kPreempted,        // held quota and was evicted to make room for `preempted_by`
  kInactive,         // spec.active=false, or deactivated by a Rejected admission check
  kFinished,         // Finished=True: holds nothing, never considered
};

const char* WorkloadOutcomeName(WorkloadOutcome outcome);

// One resource of a flavor attempt, in ResourceVector units.
struct ResourceFit {
  std::string resource;
  int64_t requested = 0;  // this pod set plus what earlier pod sets put on the flavor
  int64_t nominal = 0;
  int64_t used = 0;
  int64_t available = 0;
  int64_t borrowing_limit = -1;  // -1: none
  std::string verdict;           // Fit, Borrow, Preempt, Reclaim, NoFit, NoCandidates
};

struct FlavorAttempt {
  std::string pod_set;
  std::string flavor;
  std::string mode;  // Fit, Borrow, Preempt, Reclaim, NoFit, NoCandidates, Skipped
  std::string reason;
  std::vector<ResourceFit> resources;
};

struct CandidateVerdict {
  int32_t workload = -1;
  std::string cluster_queue;
  bool chosen = false;
  std::string reason;  // InClusterQueue, InCohortReclamation, ... or why it was passed over
};

// Why and how a workload was evicted in this plan, and what it met when tried again.
struct Eviction {
  std::string reason;             // Preempted, Deactivated, AdmissionCheck, ClusterQueueStopped
  std::string preemption_reason;  // victims: InClusterQueue, InCohortReclamation, ...
  // Victims of this plan (preempted_by set): the Evicted/Preempted message of the last
  // eviction, kept when the workload gets quota again (it then prints "Previously: ...").
  std::string message;
  // Victims still waiting: why their last attempt after the eviction failed, as Kueue's
  // scheduler writes it into QuotaReserved=False; empty when no attempt failed since.
  std::string retry_reason, retry_message;
};

struct WorkloadDecision {
  int32_t workload = -1;  // index into snapshot.kueue_workloads
  WorkloadOutcome outcome = WorkloadOutcome::kPending;
  std::optional<model::Admission> admission;
  // Kueue's condition reason and message (QuotaReserved=False, or Preempted/Evicted for
  // victims).
  std::string reason, message;
  int32_t cycle = 0;                    // cycle that decided it (0: before the first)
  std::vector<FlavorAttempt> attempts;  // the last flavor assignment, for explain
  std::vector<CandidateVerdict> candidates;
  std::vector<int32_t> victims;  // workloads this one preempted
  std::optional<int32_t> preempted_by;
  // Set for an evicted workload only (victims of this plan, deactivated ones, those of a
  // stopped ClusterQueue); boxed because most decisions of a large plan have none.
  core::Boxed<Eviction> eviction;
  bool deactivate = false;        // a Rejected admission check sets spec.active=false
  // Victims evicted in the last cycle of a bounded run (`plan --cycles N`): their pods are
  // still terminating, so the job's reconciler has not yet cleared the reservation (Kueue's
  // jobframework waits for !job.IsActive()): Evicted/Preempted only, admission kept.
  bool eviction_in_flight = false;
};

struct FlavorResourceUsage {
  std::string flavor;
  std::string resource;
  int64_t total = 0;
  int64_t borrowed = 0;
};

struct ClusterQueueState {
  std::string name;
  bool active = true;
  std::string reason, message;  // the Active condition
  int32_t pending = 0, reserving = 0, admitted = 0;
  // status.fairSharing.weightedShare with fair sharing on: ceil(DRS), INT64_MAX for a zero
  // weight that borrows; 0 when fair sharing is off.
  int64_t weighted_share = 0;
  std::vector<FlavorResourceUsage> usage;  // after the plan, per flavor and resource
};

struct AdmissionResult {
  // One per kueue_workloads entry of options.cluster, ascending index.
  std::vector<WorkloadDecision> decisions;
  std::vector<ClusterQueueState> cluster_queues;  // snapshot order
  int32_t cycles = 0;
};

// Runs Kueue's scheduler over snapshot.kueue_workloads of options.cluster until no cycle
// changes anything. Invalid queues are reported to `diags` (warnings naming object and
// field) and made inactive; every other queue still admits. `oracle` may be null (quota
// only). Cost: O(W log W) to queue, then per cycle one nomination per ClusterQueue head;
// quota operations are O(cohort depth) (docs/queueing.md).
AdmissionResult RunAdmission(const model::Snapshot& snapshot, const AdmissionOptions& options,
                             PlacementOracle* oracle, core::Diagnostics& diags);

// Writes decisions into planned.kueue_workloads as Kueue's controllers do (through
// workload_status.h): status.admission, conditions QuotaReserved/Admitted/Evicted/Preempted/
// Requeued with Kueue's reasons and messages; lastTransitionTime = now for conditions whose
// status changes only. A workload preempted and admitted again within the plan gets both
// writes in that order, so it ends as Kueue leaves it (Evicted=False, "Previously: ...").
void ApplyDecisions(const AdmissionResult& result, core::Timestamp now, model::Snapshot* planned);

}  // namespace berth::queueing
