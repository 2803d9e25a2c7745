// The ReplicaSet controller of a simulated member cluster (apps/v1), after upstream's
// pkg/controller/replicaset/replica_set.go: as many active pods as spec.replicas (created
// from spec.template with generateName "<rs>-", or the most deletable deleted first), status
// replicas, fullyLabeledReplicas, readyReplicas, availableReplicas (minReadySeconds) and
// observedGeneration. Deployments reach their pods through it (deployment_controller.h).
#pragma once

#include "server/member/controller_options.h"
#include "server/member/member_state.h"

namespace berth::server::member {

void RunReplicaSetController(MemberState& state, const ControllerOptions& options);

}  // namespace berth::server::member
