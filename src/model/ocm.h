// Open Cluster Management's hub objects (cluster.open-cluster-management.io): ManagedCluster,
// ClusterClaim, ManagedClusterSet, ManagedClusterSetBinding, Placement, PlacementDecision and
// AddOnPlacementScore, as plain data owned by Snapshot. io fills them; placement reads them
// and computes PlacementDecisions. Semantics: ../shared/reference/ocm.md and docs/placement.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/quantity.h"
#include "core/selector.h"
#include "core/time.h"
#include "model/object_meta.h"

namespace berth::model {

// ---- ManagedCluster (v1, cluster-scoped) and ClusterClaim (v1alpha1) ----

enum class ClusterTaintEffect { kNoSelect, kPreferNoSelect, kNoSelectIfNew };

// The taints the hub taint controller keeps from ManagedClusterConditionAvailable.
inline constexpr const char* kTaintClusterUnreachable =
    "cluster.open-cluster-management.io/unreachable";
inline constexpr const char* kTaintClusterUnavailable =
    "cluster.open-cluster-management.io/unavailable";
inline constexpr const char* kConditionClusterAvailable = "ManagedClusterConditionAvailable";

// The API's spelling of a taint effect ("NoSelect", ...).
inline const char* ClusterTaintEffectName(ClusterTaintEffect effect) {
  switch (effect) {
    case ClusterTaintEffect::kNoSelect:
      return "NoSelect";
    case ClusterTaintEffect::kPreferNoSelect:
      return "PreferNoSelect";
    case ClusterTaintEffect::kNoSelectIfNew:
      return "NoSelectIfNew";
  }
  return "NoSelect";
}

struct ClusterTaint {
  std::string key;
  std::string value;
  ClusterTaintEffect effect = ClusterTaintEffect::kNoSelect;
  std::optional<core::Timestamp> time_added;  // set by the hub's webhook
};

struct NamedValue {
  std::string name;
  std::string value;
};

enum class ConditionStatus { kTrue, kFalse, kUnknown };

// The API's spelling of a condition status ("True", "False", "Unknown").
inline const char* ConditionStatusName(ConditionStatus status) {
  switch (status) {
    case ConditionStatus::kTrue:
      return "True";
    case ConditionStatus::kFalse:
      return "False";
    case ConditionStatus::kUnknown:
      return "Unknown";
  }
  return "Unknown";
}

struct Condition {
  std::string type;
  ConditionStatus status = ConditionStatus::kUnknown;
  std::string reason;
  std::string message;
  std::optional<core::Timestamp> last_transition_time;
  // metadata.generation the writer had observed (0: not set). The work agent sets it on a
  // ManifestWork's conditions; the ManifestWorkReplicaSet rollout reads it.
  int64_t observed_generation = 0;
};

struct ManagedCluster {
  ObjectMeta meta;
  std::optional<core::Timestamp> deletion_timestamp;
  bool hub_accepts_client = false;
  std::vector<ClusterTaint> taints;
  std::vector<NamedValue> cluster_claims;  // status.clusterClaims
  // status.capacity / status.allocatable by resource name ("cpu", "memory", "nvidia.com/gpu").
  std::map<std::string, core::Quantity> capacity;
  std::map<std::string, core::Quantity> allocatable;
  std::vector<Condition> conditions;
  std::string kubernetes_version;  // status.version.kubernetes
  std::string cluster = "default";
  SourceRef source;

  const Condition* FindCondition(const std::string& type) const {
    for (const Condition& c : conditions) {
      if (c.type == type) return &c;
    }
    return nullptr;
  }
  // The value of claim `name` as OCM's claim map holds it (the last one listed wins).
  const std::string* FindClaim(std::string_view name) const {
    const std::string* found = nullptr;
    for (const NamedValue& nv : cluster_claims) {
      if (nv.name == name) found = &nv.value;
    }
    return found;
  }
};

struct ClusterClaim {
  ObjectMeta meta;
  std::string value;  // spec.value
  std::string cluster = "default";
  SourceRef source;
};

// ---- ManagedClusterSet and ManagedClusterSetBinding (v1beta2) ----

inline constexpr const char* kClusterSetLabel = "cluster.open-cluster-management.io/clusterset";

enum class ClusterSetSelectorType { kExclusiveClusterSetLabel, kLabelSelector };

struct ManagedClusterSet {
  ObjectMeta meta;
  ClusterSetSelectorType selector_type = ClusterSetSelectorType::kExclusiveClusterSetLabel;
  core::LabelSelector label_selector;  // used when selector_type is kLabelSelector
  std::string cluster = "default";
  SourceRef source;
};

struct ManagedClusterSetBinding {
  ObjectMeta meta;          // namespaced; its name must equal cluster_set
  std::string cluster_set;  // spec.clusterSet
  std::string cluster = "default";
  SourceRef source;
};

// ---- Placement (v1beta1, namespaced) ----

struct ClaimSelector {
  std::vector<core::SelectorRequirement> match_expressions;
};

struct ClusterSelector {
  std::optional<core::LabelSelector> label_selector;
  std::optional<ClaimSelector> claim_selector;
  std::vector<std::string> cel_expressions;  // celSelector.celExpressions, ANDed
};

enum class ScoreCoordinateType { kBuiltIn, kAddOn };

struct ScoreCoordinate {
  ScoreCoordinateType type = ScoreCoordinateType::kBuiltIn;
  std::string built_in;             // type kBuiltIn: "Balance", "Steady", ...
  std::string addon_resource_name;  // type kAddOn
  std::string addon_score_name;
};

struct PrioritizerConfig {
  std::optional<ScoreCoordinate> score_coordinate;  // nullopt: Misconfigured when scheduling
  int32_t weight = 1;
};

enum class PrioritizerMode { kAdditive, kExact, kOther };

struct PrioritizerPolicy {
  PrioritizerMode mode = PrioritizerMode::kAdditive;
  std::string mode_text;  // as written, for the Misconfigured message of kOther
  std::vector<PrioritizerConfig> configurations;
};

enum class TopologyKeyType { kLabel, kClaim };
enum class WhenUnsatisfiable { kDoNotSchedule, kScheduleAnyway };

struct SpreadConstraint {
  std::string topology_key;
  TopologyKeyType topology_key_type = TopologyKeyType::kLabel;
  int32_t max_skew = 1;
  WhenUnsatisfiable when_unsatisfiable = WhenUnsatisfiable::kScheduleAnyway;
};

enum class PlacementTolerationOp { kEqual, kExists };

struct PlacementToleration {
  std::string key;
  PlacementTolerationOp op = PlacementTolerationOp::kEqual;
  std::string value;
  std::optional<ClusterTaintEffect> effect;   // nullopt: every effect
  std::optional<int64_t> toleration_seconds;  // nullopt: forever
};

// An IntOrString: a count, or a string that should be a percent ("25%", "12.5%"); the
// scheduler interprets the string (a bad one is Misconfigured there, as upstream).
struct IntOrPercent {
  bool is_string = false;
  int32_t int_value = 0;  // when !is_string
  std::string text;       // when is_string, as written
};

struct DecisionGroupSpec {
  std::string group_name;
  ClusterSelector group_cluster_selector;  // label and claim only (upstream ignores CEL here)
};

struct GroupStrategy {
  std::vector<DecisionGroupSpec> decision_groups;
  IntOrPercent clusters_per_decision_group{true, 0, "100%"};
};

inline constexpr const char* kSchedulingDisableAnnotation =
    "cluster.open-cluster-management.io/experimental-scheduling-disable";

// status as the placement controller writes it (set by the engine; io patches it in).
struct PlacementDecisionGroupStatus {
  int32_t index = 0;
  std::string name;
  std::vector<std::string> decisions;  // PlacementDecision names
  int32_t cluster_count = 0;
};

struct PlacementStatus {
  int32_t number_of_selected_clusters = 0;
  std::vector<PlacementDecisionGroupStatus> decision_groups;
  std::vector<Condition> conditions;  // PlacementSatisfied, PlacementMisconfigured
};

struct Placement {
  ObjectMeta meta;
  std::vector<std::string> cluster_sets;
  std::optional<int32_t> number_of_clusters;  // nullopt: every feasible cluster
  std::vector<ClusterSelector> predicates;    // ORed; empty passes every cluster
  PrioritizerPolicy prioritizer_policy;
  std::vector<SpreadConstraint> spread_constraints;
  std::vector<PlacementToleration> tolerations;
  GroupStrategy group_strategy;
  std::optional<PlacementStatus> status;  // nullopt: as read (not decided)
  std::string cluster = "default";
  SourceRef source;
};

// ---- PlacementDecision (v1beta1) ----

inline constexpr const char* kPlacementLabel = "cluster.open-cluster-management.io/placement";
inline constexpr const char* kDecisionGroupNameLabel =
    "cluster.open-cluster-management.io/decision-group-name";
inline constexpr const char* kDecisionGroupIndexLabel =
    "cluster.open-cluster-management.io/decision-group-index";

struct ClusterDecision {
  std::string cluster_name;
  std::string reason;
};

struct PlacementDecision {
  ObjectMeta meta;                         // labels carry placement and decision group
  std::vector<ClusterDecision> decisions;  // status.decisions
  std::string placement;  // owner Placement's name (label kPlacementLabel), same namespace
  bool created = false;   // made by the engine (not in the input): printed whole
  std::string cluster = "default";
  SourceRef source;
};

// ---- AddOnPlacementScore (v1alpha1, namespaced: ns = managed cluster name) ----

struct AddOnScore {
  std::string name;
  int32_t value = 0;
};

struct AddOnPlacementScore {
  ObjectMeta meta;
  std::vector<AddOnScore> scores;
  std::optional<core::Timestamp> valid_until;  // nullopt: never expires
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
