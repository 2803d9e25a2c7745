// Fleet delivery objects: OCM's ManifestWork (work.open-cluster-management.io/v1) and
// Kueue's MultiKueueConfig / MultiKueueCluster (kueue.x-k8s.io/v1beta1|v1beta2), as plain
// data owned by Snapshot. io reads given ones and prints the ManifestWorks the engine plans;
// the dispatch module builds them. Semantics: ../shared/reference/ocm.md §3, docs/fleet.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/taint.h"
#include "model/data_objects.h"
#include "model/generated_job.h"
#include "model/object_meta.h"
#include "model/ocm.h"

namespace berth::model {

// ---- ManifestWork ----

// spec.manifestConfigs[].resourceIdentifier: which manifest a config applies to.
struct ResourceIdentifier {
  std::string group;     // "" for the core group, "batch", "jobset.x-k8s.io", ...
  std::string resource;  // lower-case plural: "jobs", "deployments", "jobsets"
  std::string name;
  std::string namespace_;
};

enum class FeedbackRuleType { kWellKnownStatus, kJsonPaths };

struct JsonPathRule {
  std::string name;
  std::string path;  // under .status
};

struct FeedbackRule {
  FeedbackRuleType type = FeedbackRuleType::kWellKnownStatus;
  std::vector<JsonPathRule> json_paths;  // type kJsonPaths
};

struct ManifestConfig {
  ResourceIdentifier resource;
  std::vector<FeedbackRule> feedback_rules;
  std::string update_strategy;  // "" (upstream default Update), "ServerSideApply", ...
};

// One manifest of a ManifestWork the engine plans: an object of the input (its document)
// with the changes it needs to run on the chosen cluster. io renders it from the document,
// so every field berth does not touch comes back as read.
struct ManifestPatch {
  SourceRef source;  // the object's document (a Job, JobSet, Deployment, ... as read)
  std::string api_version, kind, name, namespace_;
  // metadata.labels[kueue.x-k8s.io/queue-name]: nullopt leaves it as read, "" removes it,
  // else sets it (the worker's LocalQueue).
  std::optional<std::string> queue_name;
  // spec.suspend: nullopt leaves it as read.
  std::optional<bool> suspend;
  // Pod-set templates by pod set name ("main", a JobSet's replicatedJob, a PyTorchJob's
  // replica type, ...): node selector entries and tolerations added to the template's pod
  // spec (Kueue's flavor injection), and pod-template annotations added (topology).
  struct TemplatePatch {
    std::string pod_set;
    std::map<std::string, std::string> node_selector;
    std::vector<core::Toleration> tolerations;
    std::map<std::string, std::string> annotations;
  };
  std::vector<TemplatePatch> templates;
  // metadata.annotations / labels added to the object itself.
  std::map<std::string, std::string> annotations;
  std::map<std::string, std::string> labels;
  // A manifest berth writes rather than patches (no source document): a Fluid DataLoad that
  // prefetches a workload's dataset ahead of it (dispatch/prefetch.h); io renders it.
  std::optional<DataLoad> data_load;
};

// One value of OCM's WellKnownStatus feedback rule (the work agent's rules/rule.go
// DefaultWellKnownStatusRule): its name and JSON path from the object's root.
struct WellKnownStatusPath {
  std::string_view name;
  std::string_view path;
};

// The WellKnownStatus values of (group, version, kind), in upstream's order: Deployment and
// DaemonSet (apps/v1), Job (batch/v1), Pod (v1); empty for every other kind (the rule is an
// error there). Constant data; the spans stay valid for the program's life.
std::span<const WellKnownStatusPath> WellKnownStatusPaths(std::string_view group,
                                                          std::string_view version,
                                                          std::string_view kind);

// The identity of a manifest of a ManifestWork read from the input.
struct ManifestMeta {
  std::string api_version, kind, name, namespace_;
};

// status.resourceStatus.manifests[]: what the work agent reports about one manifest it
// applied (its identity, conditions Applied/Available/StatusFeedbackSynced, and the values
// of the feedback rules as text: Integer and Boolean printed, String as is, JsonRaw raw).
struct ManifestStatus {
  std::string group, version, kind, resource, name, namespace_;
  std::vector<Condition> conditions;
  std::vector<std::pair<std::string, std::string>> feedback;

  const std::string* Feedback(std::string_view value_name) const {
    for (const auto& [n, v] : feedback) {
      if (n == value_name) return &v;
    }
    return nullptr;
  }
  const Condition* FindCondition(std::string_view type) const {
    for (const Condition& c : conditions) {
      if (c.type == type) return &c;
    }
    return nullptr;
  }
};

// A work spec that is a template held by another object's document: a
// ManifestWorkReplicaSet's spec.manifestWorkTemplate, or the template a ControllerRevision
// of its history keeps in data.spec.manifestWorkTemplate. io prints that JSON as the spec.
struct WorkSpecSource {
  SourceRef document;
  std::vector<std::string> path;  // object keys from the document's root
};

struct ManifestWork {
  ObjectMeta meta;  // namespace_: the managed cluster's name
  int64_t generation = 0;                             // metadata.generation
  std::optional<core::Timestamp> deletion_timestamp;  // metadata.deletionTimestamp
  // A canonical hash of spec (io/internal/canonical_hash.h): equal specs hash the same,
  // whatever their key order, so a work is compared with a template by it.
  std::string spec_hash;
  // Set for works a ManifestWorkReplicaSet plans: the spec is that template, printed as
  // written (manifests and manifest_configs stay empty).
  std::optional<WorkSpecSource> spec_from;
  // What the engine planned (created works): rendered by io from the source documents.
  std::vector<ManifestPatch> manifests;
  // Objects the engine made rather than read (a FederatedLearning's Jobs), printed after
  // `manifests`.
  std::vector<GeneratedJob> generated_jobs;
  // What a given ManifestWork holds (spec.workload.manifests[], identity only).
  std::vector<ManifestMeta> read_manifests;
  std::vector<ManifestConfig> manifest_configs;
  std::string delete_propagation;  // spec.deleteOption.propagationPolicy; "" = Foreground
  bool created = false;            // planned by the engine: printed whole
  // What the work agent reported (status.conditions and status.resourceStatus.manifests).
  std::vector<Condition> conditions;
  std::vector<ManifestStatus> manifest_statuses;
  std::string cluster = "default";
  SourceRef source;
};

// Labels berth puts on the ManifestWorks it plans, so a later plan finds them.
inline constexpr const char* kWorkloadLabel = kBerthWorkloadKey;            // "<ns>.<name>"
inline constexpr const char* kWorkloadClusterLabel = kBerthPlacedByKey;     // the check

// ---- MultiKueue ----

struct MultiKueueConfig {
  ObjectMeta meta;                    // cluster-scoped
  std::vector<std::string> clusters;  // spec.clusters: MultiKueueCluster names
  std::string cluster = "default";
  SourceRef source;
};

struct MultiKueueCluster {
  ObjectMeta meta;  // cluster-scoped; berth's member cluster of the same name
  std::string kubeconfig_location_type;  // spec.kubeConfig.locationType: Secret | Path
  std::string kubeconfig_location;       // spec.kubeConfig.location
  std::string cluster_profile;           // spec.clusterProfileRef.name
  // status.conditions[type=Active]: nullopt when not reported (treated as active).
  std::optional<Condition> active;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
