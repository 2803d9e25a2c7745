// The status writers of the table of kinds: for each kind berth writes decisions into, how
// many objects of it a plan prints (io/writer.h PlanItems) and how one of them prints, as an
// nlohmann tree or, where a faster printer exists, straight as JSON text. A row of
// kind_table.h points at its kind's writer; writer.cc prints a plan by walking the rows in
// table order, so the List holds pods, claims, Kueue Workloads, Placements,
// PlacementDecisions, ManifestWorks, then FederatedLearnings. Internal to io. The writers
// are constant; a PlanWriteContext serves one WritePlan call on one thread.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "io/document_store.h"
#include "io/internal/claim_json.h"
#include "io/writer.h"
#include "model/snapshot.h"

namespace berth::io::internal {

// What the writers of one plan read: the planned snapshot, what the plan prints and the
// documents, plus lookups a few kinds need, each built on first use and kept for the call.
class PlanWriteContext {
 public:
  PlanWriteContext(const model::Snapshot& planned, const PlanItems& items,
                   const DocumentStore& documents)
      : planned_(planned), items_(items), documents_(documents) {}

  const model::Snapshot& planned() const { return planned_; }
  const PlanItems& items() const { return items_; }
  const DocumentStore& documents() const { return documents_; }

  // The planned pods by ObjectKey (claims' reservedFor uids). Built on the first call: O(pods).
  const PodsByKey& Pods();
  // The uid of Placement `name` in `cluster` and `ns`; "" when none or unknown. The index is
  // built on the first call: O(placements).
  const std::string& PlacementUid(const std::string& cluster, const std::string& ns,
                                  const std::string& name);

 private:
  const model::Snapshot& planned_;
  const PlanItems& items_;
  const DocumentStore& documents_;
  std::optional<PodsByKey> pods_;
  std::optional<std::unordered_map<std::string, std::string>> placement_uids_;
};

// One kind's writer. `count` and `tree` are always set; `text` may be null.
struct StatusWriter {
  // How many objects of the kind the plan prints.
  size_t (*count)(const PlanItems& items) = nullptr;
  // The i-th of them (i < count) with berth's decisions patched in, as a tree.
  nlohmann::ordered_json (*tree)(PlanWriteContext& ctx, size_t i) = nullptr;
  // Appends the i-th to *out as tree(ctx, i).dump(2) printed at indentation `indent` would
  // print it, and returns true; or returns false, *out unchanged, and the caller prints the
  // tree. For kinds with many objects (pods), where the tree costs most of `-o json`.
  bool (*text)(PlanWriteContext& ctx, size_t i, int indent, std::string* out) = nullptr;
};

// Pods: spec.nodeName, PodScheduled, Kueue's injections (pod_json.h); text when
// json_pretty.h can print the document.
extern const StatusWriter kPodStatus;
// ResourceClaims: status.allocation, status.reservedFor (claim_json.h).
extern const StatusWriter kClaimStatus;
// PersistentVolumeClaims and PersistentVolumes the plan's binds bound: spec.volumeName or
// the selected-node annotation, the volume's claimRef (storage_json.h); PlanItems'
// volume_claims and volumes, which WritePlan resolves when the caller left them unset.
extern const StatusWriter kVolumeClaimStatus;
extern const StatusWriter kVolumeStatus;
// Kueue Workloads: admission, conditions, checks, MultiKueue names (workload_json.h).
extern const StatusWriter kKueueWorkloadStatus;
// OCM Placements: status (placement_json.h).
extern const StatusWriter kPlacementStatus;
// OCM PlacementDecisions: status.decisions, created ones whole (placement_json.h).
extern const StatusWriter kPlacementDecisionStatus;
// OCM ManifestWorks: given ones as read, planned ones whole (manifest_work_json.h).
extern const StatusWriter kManifestWorkStatus;
// ManifestWorkReplicaSets: status and berth's rollback annotation (replica_set_json.h);
// PlanItems' replica_sets, which WritePlan resolves when the caller left it unset.
extern const StatusWriter kManifestWorkReplicaSetStatus;
// ControllerRevisions of an MWRS's history: created ones whole, changed ones patched
// (replica_set_json.h); PlanItems' controller_revisions, resolved likewise.
extern const StatusWriter kControllerRevisionStatus;
// FederatedLearnings: status as decided (federated_learning_json.h); PlanItems'
// federated_learnings, which WritePlan resolves when the caller left it unset.
extern const StatusWriter kFederatedLearningStatus;

}  // namespace berth::io::internal
