#include "queueing/admission.h"

#include "queueing/admission_scheduler.h"
#include "queueing/workload_status.h"

namespace berth::queueing {
namespace {

bool IsQuotaReserved(const model::Workload& wl) {
  const model::WorkloadCondition* c = wl.FindCondition("QuotaReserved");
  return c != nullptr && c->status == "True";
}

// A victim of this plan, as the preemptor and then the job's reconciler leave it:
// Evicted=True and Preempted=True with the preemption message, Requeued=True, no quota.
// `d.eviction` is set for every victim.
void WritePlanEviction(const WorkloadDecision& d, model::Workload& wl, core::Timestamp now) {
  MarkEvicted(wl, d.eviction->reason, d.eviction->message, now);
  MarkPreempted(wl, d.eviction->preemption_reason, d.eviction->message, now);
  FinishEviction(wl, now);
}

}  // namespace

const char* WorkloadOutcomeName(WorkloadOutcome outcome) {
  switch (outcome) {
    case WorkloadOutcome::kAdmitted:
      return "Admitted";
    case WorkloadOutcome::kQuotaReserved:
      return "QuotaReserved";
    case WorkloadOutcome::kAlreadyAdmitted:
      return "AlreadyAdmitted";
    case WorkloadOutcome::kPending:
      return "Pending";
    case WorkloadOutcome::kInadmissible:
      return "Inadmissible";
    case WorkloadOutcome::kPreempted:
      return "Preempted";
    case WorkloadOutcome::kInactive:
      return "Inactive";
    case WorkloadOutcome::kFinished:
      return "Finished";
  }
  return "Pending";
}

AdmissionResult RunAdmission(const model::Snapshot& snapshot, const AdmissionOptions& options,
                             PlacementOracle* oracle, core::Diagnostics& diags) {
  AdmissionScheduler scheduler(snapshot, options, oracle, diags);
  return scheduler.Run();
}

void ApplyDecisions(const AdmissionResult& result, core::Timestamp now, model::Snapshot* planned) {
  for (const WorkloadDecision& d : result.decisions) {
    model::Workload& wl = planned->kueue_workloads[static_cast<size_t>(d.workload)];
    switch (d.outcome) {
      case WorkloadOutcome::kAdmitted:
      case WorkloadOutcome::kQuotaReserved:
        // Preempted earlier in this plan and admitted again: the eviction happened first.
        if (d.preempted_by) WritePlanEviction(d, wl, now);
        ReserveQuota(wl, *d.admission, now);
        SyncAdmitted(wl, d.outcome == WorkloadOutcome::kAdmitted, now);
        break;
      case WorkloadOutcome::kAlreadyAdmitted:
      case WorkloadOutcome::kFinished:
        break;
      case WorkloadOutcome::kPending:
      case WorkloadOutcome::kInadmissible:
        if (d.eviction && !d.eviction->reason.empty()) {
          MarkEvicted(wl, d.eviction->reason, d.message, now);
          FinishEviction(wl, now);
        } else if (!d.reason.empty()) {
          UnsetQuotaReservation(wl, d.reason, d.message, now);
        }
        break;
      case WorkloadOutcome::kPreempted:
        if (d.eviction_in_flight) {
          MarkEvicted(wl, d.eviction->reason, d.eviction->message, now);
          MarkPreempted(wl, d.eviction->preemption_reason, d.eviction->message, now);
          break;
        }
        WritePlanEviction(d, wl, now);
        // Requeued, it was tried again and failed: the scheduler wrote why.
        if (!d.eviction->retry_reason.empty()) {
          UnsetQuotaReservation(wl, d.eviction->retry_reason, d.eviction->retry_message, now);
        }
        break;
      case WorkloadOutcome::kInactive:
        if (d.eviction && !d.eviction->reason.empty()) {
          MarkEvicted(wl, d.eviction->reason, d.message, now);
          FinishEviction(wl, now);
        } else if (!d.reason.empty() && !IsQuotaReserved(wl)) {
          SetWorkloadCondition(wl, "QuotaReserved", "False", d.reason, d.message, now);
        }
        if (d.deactivate) wl.active = false;
        break;
    }
  }
}

}  // namespace berth::queueing
