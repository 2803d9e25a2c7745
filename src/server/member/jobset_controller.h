// The JobSet controller of a simulated member cluster (jobset.x-k8s.io/v1alpha2), after
// kubernetes-sigs/jobset pkg/controllers/jobset_controller.go (with the webhook's defaults:
// Indexed child Jobs, restartPolicy OnFailure, successPolicy All, DNS hostnames on): child
// Jobs "<jobset>-<replicatedJob>-<index>" with the jobset.sigs.k8s.io labels and annotations
// (jobset-name, replicatedjob-name, job-index, job-global-index, restart-attempt,
// replicatedjob-replicas, global-replicas, job-key) on the Job and its pod template, pods'
// subdomain; status replicatedJobsStatus (ready, succeeded, failed, active, suspended per
// replicated job), restarts, terminalState and conditions Completed (AllJobsCompleted),
// Failed (FailedJobs, ReachedMaxRestarts, FailJobSetFailurePolicyAction), Suspended,
// RestartingJobSet; suspend and resume propagated to the child Jobs; the failure policy's
// FailJobSet and RestartJobSet actions (a restart deletes the Jobs of earlier attempts);
// dependsOn. The Job controller (job_controller.h) then runs the Jobs' pods. Not modelled:
// the headless Service, startupPolicy InOrder (treated as AnyOrder), per-Job restarts
// (RestartJob), coordinator, TTL (README.md).
#pragma once

#include "server/member/controller_options.h"
#include "server/member/member_state.h"

namespace berth::server::member {

void RunJobSetController(MemberState& state, const ControllerOptions& options);

}  // namespace berth::server::member
