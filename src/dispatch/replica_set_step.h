// One reconcile of a ManifestWorkReplicaSet (work.open-cluster-management.io/v1alpha1,
// MWRS) as OCM's controller makes it: its deploy reconciler (which works to create, update
// and delete, following each placementRef's rollout strategy) then its status reconciler
// (status.summary, status.placementSummary[] and the conditions PlacementVerified,
// PlacementRolledOut, ManifestworkApplied). Ported from open-cluster-management-io/ocm
// pkg/work/hub/controllers/manifestworkreplicasetcontroller/
// (manifestworkreplicaset_deploy_reconcile.go, _status_reconcile.go, _controller.go). The
// caller does the io: `berth plan` once at --now, the hub on every change of the MWRS, its
// Placements, PlacementDecisions or works, and again after requeue_after_s. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "dispatch/rollout_status.h"
#include "dispatch/rollout_strategy.h"

namespace berth::dispatch {

// Labels on the works an MWRS owns: "<mwrs namespace>.<mwrs name>", and the placementRef
// that chose the work's cluster.
inline constexpr const char* kMwrsOwnerLabel =
    "work.open-cluster-management.io/manifestworkreplicaset";
inline constexpr const char* kMwrsPlacementLabel = "work.open-cluster-management.io/placementname";

// Condition types and reasons (work/v1alpha1 types_manifestworkreplicaset.go).
inline constexpr const char* kMwrsPlacementVerified = "PlacementVerified";
inline constexpr const char* kMwrsPlacementRolledOut = "PlacementRolledOut";
inline constexpr const char* kMwrsManifestworkApplied = "ManifestworkApplied";
inline constexpr const char* kMwrsReasonAsExpected = "AsExpected";
inline constexpr const char* kMwrsReasonNotAsExpected = "NotAsExpected";
inline constexpr const char* kMwrsReasonProcessing = "Processing";
inline constexpr const char* kMwrsReasonPlacementDecisionNotFound = "PlacementDecisionNotFound";
inline constexpr const char* kMwrsReasonPlacementDecisionEmpty = "PlacementDecisionEmpty";
inline constexpr const char* kMwrsReasonProgressing = "Progressing";
inline constexpr const char* kMwrsReasonComplete = "Complete";
inline constexpr const char* kMwrsReasonInvalidManifestWorkName = "InvalidManifestWorkName";

// The owner label value: "<namespace>.<name>" (not bounded: an MWRS whose key is no valid
// label value gets InvalidManifestWorkName instead of works).
std::string ManifestWorkReplicaSetKey(const std::string& ns, const std::string& name);

// status.summary and placementSummary[].summary. desired_total and updated are in the API
// but the controller does not write them: the step keeps what the status held.
struct MwrsSummary {
  int32_t total = 0;
  int32_t progressing = 0;
  int32_t available = 0;
  int32_t degraded = 0;
  int32_t applied = 0;
  int32_t desired_total = 0;
  int32_t updated = 0;
  bool operator==(const MwrsSummary&) const = default;
};

struct MwrsPlacementSummary {
  std::string name;
  // "<decision groups> (<clusters with a current work> / <selected clusters> clusters applied)"
  std::string available_decision_groups;
  MwrsSummary summary;
  bool operator==(const MwrsPlacementSummary&) const = default;
};

struct MwrsStatus {
  std::vector<WorkCondition> conditions;
  MwrsSummary summary;
  std::vector<MwrsPlacementSummary> placement_summary;
};

struct MwrsPlacementRef {
  std::string name;
  RolloutStrategy rollout_strategy;  // CRD default: All, progressDeadline None
};

// The parts of the MWRS the step reads.
struct ManifestWorkReplicaSetView {
  std::string namespace_;
  std::string name;
  // A canonical hash of spec.manifestWorkTemplate; a work is current when its spec hashes
  // the same (upstream's ManifestWorkEqual on the spec).
  std::string template_hash;
  std::vector<MwrsPlacementRef> placement_refs;
  MwrsStatus status;  // as stored: the step updates it
};

// A Placement of the MWRS's namespace, as its status and PlacementDecisions give it.
struct MwrsPlacement {
  std::string name;
  int32_t number_of_selected_clusters = 0;  // status.numberOfSelectedClusters
  int32_t decision_group_count = 0;         // len(status.decisionGroups)
  std::vector<DecisionCluster> decisions;   // one entry per chosen cluster
};

// A ManifestWork carrying the MWRS's owner label.
struct ReplicaWork {
  std::string cluster;  // metadata.namespace
  std::string name;
  std::string placement;  // kMwrsPlacementLabel; "" when absent
  std::string spec_hash;  // hashed as template_hash is
  int64_t generation = 0;
  bool deleting = false;  // metadata.deletionTimestamp set
  std::vector<WorkCondition> conditions;
};

// Create or update the work of `cluster` to the template, labelled with the owner label and
// `placement` (plus the MWRS's own labels). `name` is the cluster's existing work of this
// placement; "" means create one named by the API server from generate_name (the MWRS's
// name), which the caller may replace with a deterministic name.
struct MwrsWorkApply {
  std::string cluster;
  std::string placement;
  std::string name;
  std::string generate_name;
};

struct MwrsWorkDelete {
  std::string cluster;
  std::string name;
  std::string reason;  // "placement <p> is no longer referenced", "cluster <c> left placement <p>"
};

struct MwrsPlacementRollout {
  std::string placement;
  RolloutResult result;
};

struct MwrsStep {
  std::vector<MwrsWorkDelete> remove;  // in the order upstream deletes
  std::vector<MwrsWorkApply> apply;    // in rollout order, placement by placement
  std::vector<MwrsPlacementRollout> rollouts;
  MwrsStatus status;  // to write back
  // Look again this much later (the least RecheckAfter), when under the controller's
  // 30 minute resync.
  std::optional<int64_t> requeue_after_s;
  // Rollout strategies that did not parse (field "spec.placementRefs[i].rolloutStrategy.…");
  // upstream logs them, sets PlacementVerified=NotAsExpected and skips the placement.
  std::vector<core::Error> errors;
  // The deploy step stopped early (InvalidManifestWorkName, PlacementDecisionNotFound): the
  // status step does not run.
  bool stopped = false;
};

// One reconcile, upstream's order:
//  1. The owner key must be a valid label value, else ManifestworkApplied=False
//     InvalidManifestWorkName, nothing else changes.
//  2. Works whose placement label names no placementRef (or is absent) are deleted.
//  3. Per placementRef: a Placement missing from `placements` stops the step with
//     PlacementVerified=False PlacementDecisionNotFound (the status is otherwise kept; the
//     applies and deletes of earlier refs stand). Else the current works of this placement
//     (spec_hash == template_hash) give their ClusterRolloutStatusOfWork; ComputeRollout
//     picks the clusters; ToApply ones are applied, removed ones' works deleted; its summary
//     counts the clusters holding a current work.
//  4. summary.total and PlacementVerified (AsExpected, or PlacementDecisionEmpty when no
//     cluster holds a current work); PlacementRolledOut Complete when the Succeeded current
//     works equal the placements' numberOfSelectedClusters summed, else Progressing.
//  5. Status: applied/available/progressing/degraded counted from the given works (per
//     placement summary's label, not deleting, current) with the condition True;
//     ManifestworkApplied AsExpected (all available, none progressing or degraded),
//     Processing (some progressing, none degraded) or NotAsExpected; with total 0:
//     PlacementDecisionEmpty if PlacementVerified says so, else NotAsExpected.
// Works the step applies are counted as they were given (upstream reads its informer cache,
// which has not seen its own writes yet). `works`: the works carrying this MWRS's owner label,
// in any order (where upstream keeps one work per cluster namespace, the last given wins).
// Conditions change their transition time only when their status changes
// (SetWorkCondition), at `now_s`. When `errors` is not empty upstream retries with backoff
// instead of requeueing, so requeue_after_s is then unset. Linear in works and decisions
// (times log).
MwrsStep StepManifestWorkReplicaSet(const ManifestWorkReplicaSetView& mwrs,
                                    const std::vector<MwrsPlacement>& placements,
                                    const std::vector<ReplicaWork>& works, int64_t now_s);

// Steps 1-4 alone (upstream's deployReconciler).
MwrsStep DeployManifestWorkReplicaSet(const ManifestWorkReplicaSetView& mwrs,
                                      const std::vector<MwrsPlacement>& placements,
                                      const std::vector<ReplicaWork>& works, int64_t now_s);

// Step 5 alone (upstream's statusReconciler), on a status whose summary.total and
// placement_summary the deploy step wrote: counts the given current works per placement
// summary and sets ManifestworkApplied.
void CountManifestWorkReplicaSetStatus(const std::string& template_hash,
                                       const std::vector<ReplicaWork>& works, int64_t now_s,
                                       MwrsStatus* status);

}  // namespace berth::dispatch
