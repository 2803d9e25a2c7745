// The LeaderWorkerSet controller of a simulated member cluster
// (leaderworkerset.x-k8s.io/v1), after kubernetes-sigs/lws (pkg/controllers and the pod
// webhook). Upstream goes through a leader StatefulSet and one worker StatefulSet per group;
// this one writes the pods those would, directly: for group i the leader "<lws>-<i>" and the
// workers "<lws>-<i>-<j>" (j from 1 to size-1), with the labels leaderworkerset.sigs.k8s.io/
// name, group-index, worker-index, group-key and template-revision-hash, the size and
// leader-name annotations, hostname and subdomain, and LWS_LEADER_ADDRESS, LWS_GROUP_SIZE and
// LWS_WORKER_INDEX in every container. startupPolicy LeaderReady holds the workers until the
// leader is ready; restartPolicy RecreateGroupOnPodRestart (the default) recreates a whole
// group when one of its pods fails or restarts a container; a template change replaces groups
// from the highest index down, maxUnavailable (default 1) groups at a time; scale-down removes
// the highest groups. Status replicas, readyReplicas, updatedReplicas, hpaPodSelector and
// conditions Available (AllGroupsReady) / Progressing (GroupsProgressing) / UpdateInProgress
// (GroupsUpdating). No StatefulSets or Services are written (README.md).
#pragma once

#include "server/member/controller_options.h"
#include "server/member/member_state.h"

namespace berth::server::member {

void RunLeaderWorkerSetController(MemberState& state, const ControllerOptions& options);

}  // namespace berth::server::member
