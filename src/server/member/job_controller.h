// The Job controller of a simulated member cluster (batch/v1 Jobs), after upstream's
// pkg/controller/job/job_controller.go with the k8s 1.31+ behaviour (JobPodReplacementPolicy
// and JobManagedBy on): pods from spec.template up to parallelism and the remaining
// completions (NonIndexed, or Indexed with the completion index annotation and label, hostname
// and JOB_COMPLETION_INDEX), the job-tracking finalizer counting finished pods exactly once,
// replacements for failed pods after the pod-failure back-off, suspend (pods deleted,
// Suspended condition), backoffLimit and activeDeadlineSeconds (FailureTarget, then Failed
// once no pod is terminating), success (SuccessCriteriaMet, then Complete and completionTime),
// status active/ready/succeeded/failed/terminating/completedIndexes/startTime. Not modelled:
// podFailurePolicy, successPolicy, backoffLimitPerIndex, TTL after finished (README.md).
#pragma once

#include "server/member/controller_options.h"
#include "server/member/member_state.h"

namespace berth::server::member {

inline constexpr char kJobTrackingFinalizer[] = "batch.kubernetes.io/job-tracking";
inline constexpr char kJobCompletionIndexKey[] = "batch.kubernetes.io/job-completion-index";
inline constexpr char kJobNameLabel[] = "batch.kubernetes.io/job-name";
inline constexpr char kJobControllerUidLabel[] = "batch.kubernetes.io/controller-uid";

// Syncs every Job in `state` once (and releases the tracking finalizer of pods whose Job is
// gone or finished).
void RunJobController(MemberState& state, const ControllerOptions& options);

}  // namespace berth::server::member
