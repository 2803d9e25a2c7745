// The PyTorchJob controller of a simulated member cluster (kubeflow.org/v1), after the
// Kubeflow training-operator v1 (release-1.9 pkg/controller.v1/common and pytorch): pods
// "<job>-master-0" and "<job>-worker-<i>" labelled training.kubeflow.org/job-name,
// operator-name, replica-type, replica-index (and job-role: master), with the torch
// environment (MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK, PYTHONUNBUFFERED) and the replica's
// restartPolicy (ExitCode runs as Never); failed pods deleted and made again under OnFailure,
// Always and ExitCode with a retryable code (>= 128); runPolicy suspend, backoffLimit
// (container restarts), activeDeadlineSeconds and cleanPodPolicy (None by default); status
// replicaStatuses (active, succeeded, failed, selector), startTime, completionTime and
// conditions Created, Running, Restarting, Suspended, Succeeded (the master, or every worker
// without one) and Failed, with the operator's reasons (PyTorchJobRunning, ...). Not
// modelled: the per-pod headless Services, elastic policy, gang scheduling (README.md).
#pragma once

#include "server/member/controller_options.h"
#include "server/member/member_state.h"

namespace berth::server::member {

void RunPyTorchJobController(MemberState& state, const ControllerOptions& options);

}  // namespace berth::server::member
