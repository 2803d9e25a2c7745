#include "queueing/admission.h"

#include "queueing/admission_scheduler.h"

namespace berth::queueing {
namespace {

// meta.SetStatusCondition: the transition time moves only when the status changes.
void SetCondition(model::Workload& wl, const char* type, const char* status,
                  const std::string& reason, const std::string& message, core::Timestamp now) {
  for (auto& c : wl.conditions) {
    if (c.type != type) continue;
    if (c.status != status) {
      c.status = status;
      c.last_transition_time = now;
    }
    c.reason = reason;
    c.message = message;
    return;
  }
  wl.conditions.push_back({type, status, reason, message, now});
}

bool HasTrue(const model::Workload& wl, const char* type) {
  const model::WorkloadCondition* c = wl.FindCondition(type);
  return c != nullptr && c->status == "True";
}

// A workload that gets quota again closes its earlier eviction (workload.SetQuotaReservation).
void CloseEviction(model::Workload& wl, core::Timestamp now) {
  for (const char* type : {"Evicted", "Preempted"}) {
    const model::WorkloadCondition* c = wl.FindCondition(type);
    if (c == nullptr || c->status != "True") continue;
    const std::string previous = "Previously: " + c->message;
    SetCondition(wl, type, "False", "QuotaReserved", previous, now);
  }
}

void Unreserve(model::Workload& wl, const std::string& reason, const std::string& message,
               core::Timestamp now) {
  wl.admission.reset();
  SetCondition(wl, "QuotaReserved", "False", reason, message, now);
  if (wl.FindCondition("Admitted") != nullptr) {
    SetCondition(wl, "Admitted", "False", "NoReservation", "The workload has no reservation", now);
  }
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
      case WorkloadOutcome::kQuotaReserved: {
        wl.admission = d.admission;
        SetCondition(wl, "QuotaReserved", "True", "QuotaReserved",
                     "Quota reserved in ClusterQueue " + d.admission->cluster_queue, now);
        if (d.outcome == WorkloadOutcome::kAdmitted) {
          SetCondition(wl, "Admitted", "True", "Admitted", "The workload is admitted", now);
        } else {
          // Kueue's text (workload SyncAdmittedCondition): "not all checks ready".
          SetCondition(wl, "Admitted", "False", "UnsatisfiedAdmissionChecks",
                       "The workload has not all checks ready", now);
        }
        CloseEviction(wl, now);
        break;
      }
      case WorkloadOutcome::kAlreadyAdmitted:
      case WorkloadOutcome::kFinished:
        break;
      case WorkloadOutcome::kPending:
      case WorkloadOutcome::kInadmissible:
        if (!d.eviction_reason.empty()) {
          SetCondition(wl, "Evicted", "True", d.eviction_reason, d.message, now);
          Unreserve(wl, "Pending", d.message, now);
        } else if (!d.reason.empty()) {
          Unreserve(wl, d.reason, d.message, now);
        }
        break;
      case WorkloadOutcome::kPreempted:
        SetCondition(wl, "Evicted", "True", "Preempted", d.message, now);
        SetCondition(wl, "Preempted", "True", d.preemption_reason, d.message, now);
        Unreserve(wl, "Preempted", d.message, now);
        break;
      case WorkloadOutcome::kInactive:
        if (!d.eviction_reason.empty()) {
          SetCondition(wl, "Evicted", "True", d.eviction_reason, d.message, now);
          Unreserve(wl, "Inadmissible", d.message, now);
        } else if (!d.reason.empty() && !HasTrue(wl, "QuotaReserved")) {
          SetCondition(wl, "QuotaReserved", "False", d.reason, d.message, now);
        }
        if (d.deactivate) wl.active = false;
        break;
    }
  }
}

}  // namespace berth::queueing
