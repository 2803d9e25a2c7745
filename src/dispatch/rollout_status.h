// How a ManifestWork's status reads as a rollout status, and the conditions the
// ManifestWorkReplicaSet controller keeps: the work agent's conditions (Applied, Available,
// Progressing, Degraded, each with an observedGeneration), OCM's clusterRolloutStatusFunc
// and its readiness rules (open-cluster-management-io/ocm
// pkg/work/hub/controllers/manifestworkreplicasetcontroller/
// manifestworkreplicaset_deploy_reconcile.go), and apimachinery's SetStatusCondition. Called
// by replica_set_step.cc and by the rollback policy's callers. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch/rollout_strategy.h"
#include "model/ocm.h"

namespace berth::dispatch {

// Condition types the work agent sets on a ManifestWork (work.open-cluster-management.io/v1).
inline constexpr const char* kWorkApplied = "Applied";
inline constexpr const char* kWorkAvailable = "Available";
inline constexpr const char* kWorkProgressing = "Progressing";
inline constexpr const char* kWorkDegraded = "Degraded";

// Go's zero time (0001-01-01T00:00:00Z) in unix seconds: what a condition without a
// lastTransitionTime holds upstream, so a deadline counted from it has long passed.
inline constexpr int64_t kGoZeroTimeUnixS = -62135596800;

// A metav1.Condition as dispatch sees it (the work agent's on a ManifestWork, the
// controller's on a ManifestWorkReplicaSet).
struct WorkCondition {
  std::string type;
  model::ConditionStatus status = model::ConditionStatus::kUnknown;
  std::string reason;
  std::string message;
  int64_t observed_generation = 0;
  std::optional<int64_t> last_transition_time_s;
  bool operator==(const WorkCondition&) const = default;
};

// The condition of `type`, or nullptr. The pointer borrows from `conditions`.
const WorkCondition* FindWorkCondition(const std::vector<WorkCondition>& conditions,
                                       std::string_view type);

// isConditionReady: present, observed `generation`, and True when `require_true`.
bool IsConditionReady(const WorkCondition* condition, int64_t generation, bool require_true);

// shouldReturnToApply: the agent has not caught up with the work's `generation` yet. True
// when Applied is not ready and True, or Progressing is not ready, or Degraded is present
// but observed another generation (checked in that order; Applied first so stale timestamps
// of an older generation are never read).
bool ShouldReturnToApply(int64_t generation, const WorkCondition* applied,
                         const WorkCondition* progressing, const WorkCondition* degraded);

// clusterRolloutStatusFunc for the ManifestWork in namespace `cluster` with
// metadata.generation `generation` and status.conditions `conditions`:
//   not caught up (ShouldReturnToApply)      -> ToApply, no transition time
//   Progressing=True and Degraded=True       -> Failed,      since Degraded's transition
//   Progressing=True                         -> Progressing, since Progressing's transition
//   Progressing=False                        -> Succeeded,   since Progressing's transition
//   Progressing=Unknown                      -> Progressing, since Progressing's transition
// Available is not read (Progressing=False is the agent's "done"). A transition time the
// condition lacks reads as Go's zero time (kGoZeroTimeUnixS). The group key stays empty, as
// upstream leaves it.
ClusterRolloutStatus ClusterRolloutStatusOfWork(const std::string& cluster, int64_t generation,
                                                const std::vector<WorkCondition>& conditions);

// apimeta.SetStatusCondition: replaces the condition of `condition.type` in place, or
// appends it. The transition time changes only with the status: kept when the status is the
// same, else `condition`'s own or `now_s` when it has none.
void SetWorkCondition(std::vector<WorkCondition>* conditions, WorkCondition condition,
                      int64_t now_s);

// What is wrong with a work, for people: its conditions that are not as a healthy work has
// them (Applied or Available not True, Progressing or Degraded True), as
// "Available=False (Reason: message)", joined by ", "; "" when none is.
std::string DescribeWorkConditions(const std::vector<WorkCondition>& conditions);

}  // namespace berth::dispatch
