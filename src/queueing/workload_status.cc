// Texts and reasons follow Kueue's pkg/workload (SetQuotaReservation, resetActiveCondition,
// SetPreemptedCondition, UnsetQuotaReservationWithCondition, SyncAdmittedCondition),
// pkg/workload/evict (SetEvictedCondition) and the job reconciler's eviction step, with the
// UnadmittedWorkloadsObservability gate on, its default since Kueue 0.19 (reason
// PendingEvaluation after an eviction; berth's other QuotaReserved=False reasons are the
// gate's granular ones too). Kueue does
// not set status.requeueState on preemption (only the PodsReady timeout and admission-check
// retries do), so nothing here writes it.
#include "queueing/workload_status.h"

namespace berth::queueing {
namespace {

bool IsTrue(const model::Workload& wl, const char* type) {
  const model::WorkloadCondition* c = wl.FindCondition(type);
  return c != nullptr && c->status == "True";
}

// resetActiveCondition: only a True condition is closed, and its message is kept behind
// "Previously: " so the story survives the re-admission.
void CloseActive(model::Workload& wl, const char* type, core::Timestamp now) {
  const model::WorkloadCondition* c = wl.FindCondition(type);
  if (c == nullptr || c->status != "True") return;
  const std::string previous = "Previously: " + c->message;
  SetWorkloadCondition(wl, type, "False", "QuotaReserved", previous, now);
}

}  // namespace

void SetWorkloadCondition(model::Workload& wl, const std::string& type, const std::string& status,
                          const std::string& reason, const std::string& message,
                          core::Timestamp now) {
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

void ReserveQuota(model::Workload& wl, const model::Admission& admission, core::Timestamp now) {
  wl.admission = admission;
  SetWorkloadCondition(wl, "QuotaReserved", "True", "QuotaReserved",
                       "Quota reserved in ClusterQueue " + admission.cluster_queue, now);
  CloseActive(wl, "Evicted", now);
  CloseActive(wl, "Preempted", now);
}

void SyncAdmitted(model::Workload& wl, bool all_checks_ready, core::Timestamp now) {
  if (all_checks_ready) {
    SetWorkloadCondition(wl, "Admitted", "True", "Admitted", "The workload is admitted", now);
  } else {
    // Kueue's text (workload SyncAdmittedCondition): "not all checks ready".
    SetWorkloadCondition(wl, "Admitted", "False", "UnsatisfiedAdmissionChecks",
                         "The workload has not all checks ready", now);
  }
}

void MarkPreempted(model::Workload& wl, const std::string& reason, const std::string& message,
                   core::Timestamp now) {
  SetWorkloadCondition(wl, "Preempted", "True", reason, message, now);
}

void MarkEvicted(model::Workload& wl, const std::string& reason, const std::string& message,
                 core::Timestamp now) {
  SetWorkloadCondition(wl, "Evicted", "True", reason, message, now);
}

void FinishEviction(model::Workload& wl, core::Timestamp now) {
  if (!IsTrue(wl, "Evicted")) return;
  // Copies: the writes below may reallocate the conditions.
  const model::WorkloadCondition evicted = *wl.FindCondition("Evicted");
  const bool requeued = evicted.reason == "Preempted" || evicted.reason == "NodeFailures";
  SetWorkloadCondition(wl, "Requeued", requeued ? "True" : "False", evicted.reason, evicted.message,
                       now);
  UnsetQuotaReservation(wl, "PendingEvaluation", evicted.message, now);
}

void UnsetQuotaReservation(model::Workload& wl, const std::string& reason,
                           const std::string& message, core::Timestamp now) {
  wl.admission.reset();
  SetWorkloadCondition(wl, "QuotaReserved", "False", reason, message, now);
  if (wl.FindCondition("Admitted") != nullptr) {
    SetWorkloadCondition(wl, "Admitted", "False", "NoReservation",
                         "The workload has no reservation", now);
  }
}

}  // namespace berth::queueing
