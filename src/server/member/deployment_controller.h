// The Deployment controller of a simulated member cluster (apps/v1), after upstream's
// pkg/controller/deployment (sync.go, rolling.go, recreate.go, progress.go, util): one
// ReplicaSet per pod template, named "<deployment>-<pod-template-hash>" with the
// pod-template-hash label, revisions in deployment.kubernetes.io/revision (a template that
// returns to an old ReplicaSet's bumps its revision and records revision-history, so
// `kubectl rollout undo` works); RollingUpdate (maxSurge and maxUnavailable, 25% by default)
// or Recreate; scaling events resized proportionally; paused Deployments only scale;
// revisionHistoryLimit (10) old ReplicaSets kept; status observedGeneration, replicas,
// updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas and conditions
// Available (MinimumReplicasAvailable / MinimumReplicasUnavailable) and Progressing
// (NewReplicaSetCreated, FoundNewReplicaSet, ReplicaSetUpdated, NewReplicaSetAvailable,
// ProgressDeadlineExceeded after progressDeadlineSeconds, DeploymentPaused/Resumed).
#pragma once

#include <cstdint>
#include <optional>

#include "server/member/controller_options.h"
#include "server/member/member_state.h"

namespace berth::server::member {

inline constexpr char kDeploymentRevisionAnnotation[] = "deployment.kubernetes.io/revision";
inline constexpr char kPodTemplateHashLabel[] = "pod-template-hash";

// maxSurge and maxUnavailable of a rolling update of `desired` replicas (the deployment
// util's ResolveFenceposts): surge rounded up, unavailability down, an absent field 0, and
// unavailability 1 when both come to 0 (the rollout could not move otherwise). nullopt when a
// field is neither an integer nor "N%".
struct RolloutLimits {
  int64_t max_surge = 0;
  int64_t max_unavailable = 0;
};
std::optional<RolloutLimits> ResolveFenceposts(const Json* max_surge, const Json* max_unavailable,
                                               int64_t desired);

// How many replicas the new ReplicaSet of a rolling update may have (NewRSNewReplicas): up by
// what maxSurge leaves above `all_replicas` (every ReplicaSet's spec.replicas, the new one's
// included), never past `desired`.
int64_t NewReplicaSetReplicas(int64_t desired, int64_t max_surge, int64_t all_replicas,
                              int64_t new_rs_replicas);

void RunDeploymentController(MemberState& state, const ControllerOptions& options);

}  // namespace berth::server::member
