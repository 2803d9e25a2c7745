// OCM's rollout of a workload across the clusters a Placement chose: the RolloutStrategy
// API (open-cluster-management-io/api cluster/v1alpha1/types_rolloutstrategy.go) and the
// algorithm that picks, at one instant, which clusters get the workload next, which timed
// out and which left the placement (open-cluster-management-io/sdk-go
// pkg/apis/cluster/v1alpha1/rollout.go, RolloutHandler.GetRolloutCluster, with the decision
// group look-ups of pkg/apis/cluster/v1beta1/placement.go). Called by the ManifestWorkReplicaSet
// step (replica_set_step.h) once per placementRef; `berth plan` calls it at --now, the hub
// on every change and at RecheckAfter. Pure functions of their arguments; thread-safe.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "model/ocm.h"

namespace berth::dispatch {

// ---- the API (RolloutStrategy) ----

enum class RolloutType { kAll, kProgressive, kProgressivePerGroup };

// "All", "Progressive", "ProgressivePerGroup".
const char* RolloutTypeName(RolloutType type);
// The API's spelling; "" is the CRD default All. Else InvalidArgument naming `field`.
core::Result<RolloutType> ParseRolloutType(std::string_view text, std::string_view field);

// mandatoryDecisionGroups[]: a non-empty group_name selects every decision group of that
// name, else group_index selects one group.
struct MandatoryDecisionGroup {
  std::string group_name;
  int32_t group_index = 0;
};

// RolloutStrategy with its type's sub-object (all / progressive / progressivePerGroup)
// flattened in: io fills `config` and the rest from the sub-object `type` names and ignores
// the others, as upstream does.
struct RolloutStrategy {
  RolloutType type = RolloutType::kAll;
  // RolloutConfig. minSuccessTime: soak time of a succeeded cluster before the rollout
  // moves on (Progressive, ProgressivePerGroup); ParseGoDurationSeconds reads it.
  int64_t min_success_time_s = 0;
  // "None" or "" waits forever; else a duration checked when the rollout runs
  // (ParseProgressDeadline), as upstream validates it.
  std::string progress_deadline;
  // Failed or timed-out clusters tolerated before the rollout stops: over all clusters for
  // Progressive, per group for ProgressivePerGroup; ignored by All. Default 0.
  model::IntOrPercent max_failures;
  // Progressive and ProgressivePerGroup: groups rolled out first, tolerating no failure.
  std::vector<MandatoryDecisionGroup> mandatory_decision_groups;
  // Progressive: clusters rolled out at once; 0 (unset) means all of them.
  model::IntOrPercent max_concurrency;
};

// ---- the placement's decision groups ----

// A decision group's identity: the PlacementDecision labels
// cluster.open-cluster-management.io/decision-group-name and -index.
struct GroupKey {
  std::string group_name;
  int32_t group_index = 0;
  bool operator==(const GroupKey&) const = default;
};

// One chosen cluster and its group, as the Placement's decisions list it
// (placement/decision_groups.h computes them; status.decisionGroups and the PlacementDecision
// labels carry them).
struct DecisionCluster {
  std::string cluster;
  int32_t group_index = 0;
  std::string group_name;
};

// ---- cluster statuses and the result ----

// Upstream's RolloutStatus; the numbering matches (ToApply = 0 ... Skip = 5). Values outside
// the list are treated as Progressing is ("unknown status"), as upstream does.
enum class RolloutStatus : int {
  kToApply = 0,      // not applied yet, or the work has not observed the desired spec
  kProgressing = 1,  // applied, not done
  kSucceeded = 2,
  kFailed = 3,
  kTimeOut = 4,  // progressing or failed for longer than progressDeadline
  kSkip = 5,     // leave this cluster alone
};
const char* RolloutStatusName(RolloutStatus status);  // "ToApply", ..., "Skip"

struct ClusterRolloutStatus {
  std::string cluster_name;
  GroupKey group_key;  // set for clusters the rollout adds; existing ones keep what they had
  RolloutStatus status = RolloutStatus::kToApply;
  // When the status last changed (unix seconds); the progressDeadline and minSuccessTime
  // clocks start here. nullopt: "now".
  std::optional<int64_t> last_transition_time_s;
  // When the rollout should look again: the end of the soak (Succeeded) or the deadline
  // (Progressing, Failed). Set by the algorithm.
  std::optional<int64_t> recheck_time_s;
  bool operator==(const ClusterRolloutStatus&) const = default;
};

struct RolloutResult {
  // Clusters to apply now (ToApply) and those still counting toward concurrency: progressing,
  // failed within the deadline, succeeded within the soak time.
  std::vector<ClusterRolloutStatus> clusters_to_rollout;
  // Given statuses past progressDeadline, status TimeOut.
  std::vector<ClusterRolloutStatus> clusters_timeout;
  // Given statuses whose cluster the placement no longer chooses (their works go away).
  std::vector<ClusterRolloutStatus> clusters_removed;
  // The rollout stopped early: more clusters failed or timed out than maxFailures allows.
  bool max_failure_breach = false;
  // The soonest future recheck time of clusters_to_rollout, relative to now.
  std::optional<int64_t> recheck_after_s;
};

// ---- the algorithm ----

// RolloutHandler.GetRolloutCluster for `strategy` over the clusters of `decisions` (any
// order; one entry per cluster) given the `existing` statuses of clusters that already
// hold the workload's current spec (ClusterRolloutStatusOfWork, rollout_status.h), at
// `now_s`. Upstream's rules, in short:
//  - Given statuses of clusters not in `decisions` are removed (in given order); the rest
//    are judged in name order: ToApply stays, Succeeded counts only within minSuccessTime,
//    TimeOut and Skip never count, anything else times out at last_transition +
//    progressDeadline. Failed and timed-out clusters count toward maxFailures.
//  - All: every cluster at once; only timeouts are reported.
//  - Progressive: the mandatory groups first (per group, no failure tolerated); then up to
//    maxConcurrency (int, or ceil(P% x clusters outside the mandatory groups); 0 or more
//    than them means all) clusters in name order, counting the given ones that still count;
//    maxFailures (over all clusters) stops it.
//  - ProgressivePerGroup: groups by index, the mandatory ones first; a group starts once
//    every earlier group holds no cluster still counting apart from the failed ones and
//    the group's failures stay within maxFailures (per group size).
// Groups are looked up as the placement tracker does: by index 0..n-1 where n is the number
// of distinct indexes, so indexes should be dense, as the placement controller makes them.
// Errors: InvalidArgument for a progressDeadline or maxConcurrency/maxFailures that does
// not parse, its field named ("progressDeadline", "maxConcurrency", "maxFailures").
// O(c log c) in the clusters and statuses.
core::Result<RolloutResult> ComputeRollout(const RolloutStrategy& strategy,
                                           const std::vector<DecisionCluster>& decisions,
                                           std::vector<ClusterRolloutStatus> existing,
                                           int64_t now_s);

// ---- building blocks (exposed for tests and for the hub's own checks) ----

// calculateRolloutSize: an int as is; "P%" as ceil(P / 100 x total); a result <= 0 or
// > total becomes `default_size`. A string without '%' or with a non-number before it:
// InvalidArgument "'<text>' is an invalid maximum threshold value: string is not a
// percentage" (upstream's wording) at `field`.
core::Result<int32_t> RolloutSize(const model::IntOrPercent& threshold, int32_t total,
                                  int32_t default_size, std::string_view field);

// decisionGroupsToGroupKeys: a group name wins over the index (the index is then 0).
std::vector<GroupKey> MandatoryGroupKeys(const std::vector<MandatoryDecisionGroup>& groups);

// determineRolloutStatus: appends `status` to `rollout` or `timeout` (with its recheck time
// and, past the deadline, status TimeOut) or to neither. `timeout_s` nullopt: no deadline.
void DetermineRolloutStatus(ClusterRolloutStatus status, int64_t min_success_time_s,
                            std::optional<int64_t> timeout_s, int64_t now_s,
                            std::vector<ClusterRolloutStatus>* rollout,
                            std::vector<ClusterRolloutStatus>* timeout);

// minRecheckAfter: the least recheck_time - now over `rollout` that is > 0.
std::optional<int64_t> MinRecheckAfter(const std::vector<ClusterRolloutStatus>& rollout,
                                       int64_t now_s);

}  // namespace berth::dispatch
