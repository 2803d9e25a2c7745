// The Workload status changes Kueue's controllers make, one function per change, with
// Kueue's reasons and messages: the only place berth writes a Workload's conditions and
// status.admission (ApplyDecisions replays a workload's story through them; a one-cycle
// view can call the same steps). Pure functions of their arguments; not thread-safe on one
// Workload.
#pragma once

#include <string>

#include "core/time.h"
#include "model/kueue.h"

namespace berth::queueing {

// meta.SetStatusCondition: adds or updates the condition of `type`; lastTransitionTime
// moves to `now` only when the status changes.
void SetWorkloadCondition(model::Workload& wl, const std::string& type, const std::string& status,
                          const std::string& reason, const std::string& message,
                          core::Timestamp now);

// The scheduler reserves quota (workload.SetQuotaReservation): status.admission,
// QuotaReserved=True "Quota reserved in ClusterQueue <cq>", and an active Evicted or
// Preempted condition turns False with reason QuotaReserved and "Previously: <message>".
void ReserveQuota(model::Workload& wl, const model::Admission& admission, core::Timestamp now);

// Admitted as workload.SyncAdmittedCondition writes it for a workload holding quota: True
// when every admission check is Ready, else False (UnsatisfiedAdmissionChecks).
void SyncAdmitted(model::Workload& wl, bool all_checks_ready, core::Timestamp now);

// The preemptor's write on a victim (workload.SetPreemptedCondition): Preempted=True with
// the preemption reason (InClusterQueue, InCohortReclamation, ...) and Kueue's message.
void MarkPreempted(model::Workload& wl, const std::string& reason, const std::string& message,
                   core::Timestamp now);

// evict.SetEvictedCondition: Evicted=True with the eviction reason (Preempted,
// ClusterQueueStopped, AdmissionCheck, Deactivated, ...).
void MarkEvicted(model::Workload& wl, const std::string& reason, const std::string& message,
                 core::Timestamp now);

// The job's reconciler once the evicted job stopped (jobframework, "handle eviction"):
// Requeued with the Evicted condition's reason and message (True only for Preempted and
// NodeFailures), then UnsetQuotaReservation(PendingEvaluation, that message). No-op without
// an active Evicted condition. berth assumes every Workload has a job that stops.
void FinishEviction(model::Workload& wl, core::Timestamp now);

// workload.UnsetQuotaReservationWithCondition: QuotaReserved=False with `reason` and
// `message`, status.admission cleared, and Admitted=False (NoReservation) when the
// workload had an Admitted condition.
void UnsetQuotaReservation(model::Workload& wl, const std::string& reason,
                           const std::string& message, core::Timestamp now);

}  // namespace berth::queueing
