// Adapters from each kind's patcher (the *_json.h files) to the one shape writer.cc walks:
// an item count and an item by position. The lookups some patchers need (pod uids, placement
// uids) are built lazily, so a plan without claims or PlacementDecisions never builds them.
#include "io/internal/status_writer.h"

#include "io/internal/federated_learning_json.h"
#include "io/internal/manifest_work_json.h"
#include "io/internal/placement_json.h"
#include "io/internal/pod_json.h"
#include "io/internal/replica_set_json.h"
#include "io/internal/storage_json.h"
#include "io/internal/workload_json.h"

namespace berth::io::internal {

const PodsByKey& PlanWriteContext::Pods() {
  if (!pods_.has_value()) pods_ = IndexPods(planned_);
  return *pods_;
}

const std::string& PlanWriteContext::PlacementUid(const std::string& cluster, const std::string& ns,
                                                  const std::string& name) {
  static const std::string kNone;
  if (!placement_uids_.has_value()) {
    placement_uids_.emplace();
    for (const model::Placement& p : planned_.placements) {
      placement_uids_->emplace(ObjectKey(p.cluster, p.meta.namespace_, p.meta.name), p.meta.uid);
    }
  }
  auto it = placement_uids_->find(ObjectKey(cluster, ns, name));
  return it == placement_uids_->end() ? kNone : it->second;
}

namespace {

using OrderedJson = nlohmann::ordered_json;

// The i-th index of `indices` into a snapshot vector, as a position in that vector.
size_t At(const std::vector<int32_t>& indices, size_t i) { return static_cast<size_t>(indices[i]); }

const model::PodDecision& PodAt(PlanWriteContext& ctx, size_t i) { return (*ctx.items().pods)[i]; }

}  // namespace

const StatusWriter kPodStatus{
    [](const PlanItems& items) { return items.pods == nullptr ? size_t{0} : items.pods->size(); },
    [](PlanWriteContext& ctx, size_t i) {
      return PatchedPod(ctx.planned(), PodAt(ctx, i), ctx.documents());
    },
    [](PlanWriteContext& ctx, size_t i, int indent, std::string* out) {
      return PrettyPatchedPod(ctx.planned(), PodAt(ctx, i), ctx.documents(), indent, out);
    }};

const StatusWriter kClaimStatus{[](const PlanItems& items) { return items.claims.size(); },
                                [](PlanWriteContext& ctx, size_t i) {
                                  return PatchedClaim(
                                      ctx.planned().resource_claims[At(ctx.items().claims, i)],
                                      ctx.Pods(), ctx.documents());
                                }};

const StatusWriter kVolumeClaimStatus{
    [](const PlanItems& items) {
      return items.volume_claims ? items.volume_claims->size() : size_t{0};
    },
    [](PlanWriteContext& ctx, size_t i) {
      return PatchedVolumeClaim(
          ctx.planned().persistent_volume_claims[At(*ctx.items().volume_claims, i)],
          ctx.documents());
    }};

const StatusWriter kVolumeStatus{
    [](const PlanItems& items) { return items.volumes ? items.volumes->size() : size_t{0}; },
    [](PlanWriteContext& ctx, size_t i) {
      return PatchedVolume(ctx.planned().persistent_volumes[At(*ctx.items().volumes, i)],
                           ctx.documents());
    }};

const StatusWriter kKueueWorkloadStatus{
    [](const PlanItems& items) { return items.workloads.size(); },
    [](PlanWriteContext& ctx, size_t i) {
      return PatchedWorkload(ctx.planned().kueue_workloads[At(ctx.items().workloads, i)],
                             ctx.documents());
    }};

const StatusWriter kPlacementStatus{[](const PlanItems& items) { return items.placements.size(); },
                                    [](PlanWriteContext& ctx, size_t i) {
                                      return PatchedPlacement(
                                          ctx.planned().placements[At(ctx.items().placements, i)],
                                          ctx.documents());
                                    }};

const StatusWriter kPlacementDecisionStatus{
    [](const PlanItems& items) { return items.placement_decisions.size(); },
    [](PlanWriteContext& ctx, size_t i) {
      const model::PlacementDecision& pd =
          ctx.planned().placement_decisions[At(ctx.items().placement_decisions, i)];
      return PatchedPlacementDecision(
          pd, ctx.PlacementUid(pd.cluster, pd.meta.namespace_, pd.placement), ctx.documents());
    }};

const StatusWriter kManifestWorkStatus{
    [](const PlanItems& items) { return items.manifest_works.size(); },
    [](PlanWriteContext& ctx, size_t i) {
      return ManifestWorkJson(ctx.planned().manifest_works[At(ctx.items().manifest_works, i)],
                              ctx.documents());
    }};

const StatusWriter kManifestWorkReplicaSetStatus{
    [](const PlanItems& items) {
      return items.replica_sets ? items.replica_sets->size() : size_t{0};
    },
    [](PlanWriteContext& ctx, size_t i) {
      return PatchedManifestWorkReplicaSet(
          ctx.planned().manifest_work_replica_sets[At(*ctx.items().replica_sets, i)],
          ctx.documents());
    }};

const StatusWriter kControllerRevisionStatus{
    [](const PlanItems& items) {
      return items.controller_revisions ? items.controller_revisions->size() : size_t{0};
    },
    [](PlanWriteContext& ctx, size_t i) {
      return ControllerRevisionJson(
          ctx.planned().controller_revisions[At(*ctx.items().controller_revisions, i)],
          ctx.documents());
    }};

const StatusWriter kFederatedLearningStatus{
    [](const PlanItems& items) {
      return items.federated_learnings ? items.federated_learnings->size() : size_t{0};
    },
    [](PlanWriteContext& ctx, size_t i) {
      return PatchedFederatedLearning(
          ctx.planned().federated_learnings[At(*ctx.items().federated_learnings, i)],
          ctx.documents());
    }};

}  // namespace berth::io::internal
