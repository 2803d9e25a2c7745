// OCM's ManifestWorkReplicaSet (work.open-cluster-management.io/v1alpha1, MWRS): a
// ManifestWork template rolled out to the clusters its Placements choose, following each
// placementRef's rolloutStrategy (cluster.open-cluster-management.io/v1alpha1
// RolloutStrategy), and the status its controller keeps; plus berth's rollout annotations
// (pause, health rules, the controlled rollback it recorded). Plain data owned by Snapshot:
// io reads and prints it, the engine's replica-set stage (engine/replica_sets.h) steps it.
// Semantics: docs/fleet.md "Rollout across clusters" and "Controlled rollback".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/time.h"
#include "model/object_meta.h"
#include "model/ocm.h"
#include "model/work.h"

namespace berth::model {

// ---- berth's rollout annotations (on the ManifestWorkReplicaSet) ----

// Set by people (and `berth rollout pause|resume`): "true" stops the rollout from applying
// the template to any cluster that does not hold it yet.
inline constexpr const char* kRolloutPausedAnnotation = "rollout.berth.dev/paused";
// Set by people: health rules over the works' status feedback, e.g.
// "AvailableReplicas >= 2 for 60s; ReadyReplicas > 0" (dispatch/rollout_annotations.h).
inline constexpr const char* kRolloutHealthAnnotation = "rollout.berth.dev/health";
// Set by people: "false" turns the automatic rollback off (a bad revision pauses instead).
inline constexpr const char* kRolloutAutoRollbackAnnotation = "rollout.berth.dev/auto-rollback";
// Written by berth when it rolled the template back (MwrsRollback as JSON); removed once
// the template changes. `berth rollout undo` and a retry remove it too.
inline constexpr const char* kRolloutRolledBackAnnotation = "rollout.berth.dev/rolled-back";
// kubectl's change cause, copied from the MWRS to the revision it records (as Deployment's
// controller copies it to its ReplicaSets).
inline constexpr const char* kChangeCauseAnnotation = "kubernetes.io/change-cause";

// Labels on the works an MWRS owns (as dispatch/replica_set_step.h names them): the MWRS
// ("<namespace>.<name>") and the placementRef that chose the work's cluster.
inline constexpr const char* kMwrsOwnerLabel =
    "work.open-cluster-management.io/manifestworkreplicaset";
inline constexpr const char* kMwrsPlacementLabel = "work.open-cluster-management.io/placementname";

// Conditions berth adds to the MWRS status beside OCM's three.
inline constexpr const char* kMwrsConditionRolledBack = "RolledBack";
inline constexpr const char* kMwrsConditionRolloutPaused = "RolloutPaused";

// ---- spec ----

enum class MwrsRolloutType { kAll, kProgressive, kProgressivePerGroup };

struct MwrsMandatoryGroup {
  std::string group_name;
  int32_t group_index = 0;
};

// RolloutStrategy with the sub-object its type names (all / progressive /
// progressivePerGroup) flattened in; the other sub-objects are ignored, as upstream ignores
// them. Durations are kept as written: the engine parses them (a bad minSuccessTime passes
// the CRD, which types it as a plain string, and fails in the controller).
struct MwrsRolloutStrategy {
  MwrsRolloutType type = MwrsRolloutType::kAll;
  std::string min_success_time;   // "" reads as "0"
  std::string progress_deadline;  // "" and "None": no deadline
  IntOrPercent max_failures;      // CRD default 0
  std::vector<MwrsMandatoryGroup> mandatory_decision_groups;
  IntOrPercent max_concurrency;  // Progressive only; 0 (unset) means all clusters
};

struct MwrsPlacementRef {
  std::string name;
  MwrsRolloutStrategy rollout_strategy;
};

// ---- status ----

struct MwrsSummary {
  int32_t total = 0;
  int32_t progressing = 0;
  int32_t available = 0;
  int32_t degraded = 0;
  int32_t applied = 0;
  int32_t desired_total = 0;
  int32_t updated = 0;
};

struct MwrsPlacementSummary {
  std::string name;
  std::string available_decision_groups;  // "2 (3 / 5 clusters applied)"
  MwrsSummary summary;
};

struct ManifestWorkReplicaSetStatus {
  std::vector<Condition> conditions;
  MwrsSummary summary;
  std::vector<MwrsPlacementSummary> placement_summary;
};

// The rollback berth recorded in kRolloutRolledBackAnnotation. While the template still
// hashes to `template_hash`, the works keep the revision it rolled back to.
struct MwrsRollback {
  int64_t revision = 0;       // the revision judged bad
  std::string template_hash;  // the MWRS template's hash when it happened
  int64_t to_revision = 0;    // the revision restored, as numbered once restored
  std::string to_template_hash;
  std::string reason;
  core::Timestamp at;
};

// What the plan decided about the rollout, for printers (`-o table`, the hub's logs).
struct MwrsRolloutSummary {
  std::string state;     // "Progressing", "Complete", "Paused", "RolledBack"
  int64_t revision = 0;  // the revision being rolled out (0: none recorded)
  int32_t applied = 0;   // clusters holding it, this plan's works included
  int32_t selected = 0;  // numberOfSelectedClusters over the placementRefs
  std::string message;   // why it paused or rolled back; what is wrong otherwise
};

struct ManifestWorkReplicaSet {
  ObjectMeta meta;
  int64_t generation = 0;
  std::optional<core::Timestamp> deletion_timestamp;
  // spec.manifestWorkTemplate: its canonical hash (as ManifestWork::spec_hash hashes a
  // work's spec) and the identity of its manifests.
  std::string template_hash;
  std::vector<ManifestMeta> template_manifests;
  std::vector<MwrsPlacementRef> placement_refs;
  std::string cascade_deletion_policy = "Background";  // or "Foreground"
  ManifestWorkReplicaSetStatus status;                 // as read; as planned once stepped
  // berth's annotations as read: kRolloutPausedAnnotation == "true", the health rules'
  // text, kRolloutAutoRollbackAnnotation != "false", the recorded rollback.
  bool paused = false;
  std::string health;
  bool auto_rollback = true;
  std::optional<MwrsRollback> rolled_back;
  // Set by the plan: status (and rolled_back) are as planned, and the writer prints it.
  bool stepped = false;
  MwrsRolloutSummary rollout;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
