#include "binding/scheduler.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "binding/framework/claim_tracker.h"
#include "binding/framework/cluster_state.h"
#include "binding/framework/cycle_context.h"
#include "binding/framework/indexed_path.h"
#include "binding/framework/label_sig_table.h"
#include "binding/framework/namespace_table.h"
#include "binding/framework/plugin_names.h"
#include "binding/framework/pod_info_store.h"
#include "binding/framework/preemption.h"
#include "binding/framework/queue_order.h"
#include "binding/framework/reason_table.h"
#include "binding/framework/plugin_registry.h"
#include "binding/framework/reference_evaluator.h"
#include "binding/framework/resolved_profile.h"
#include "binding/framework/resource_table.h"
#include "binding/framework/volume_tracker.h"
#include "binding/plugins/dynamic_resources.h"
#include "binding/plugins/gpu_share_cycle.h"
#include "binding/plugins/gpu_share_score.h"
#include "binding/plugins/gpu_sharing.h"
#include "binding/plugins/node_ports.h"
#include "binding/plugins/node_resources_fit.h"
#include "binding/plugins/node_volume_limits.h"
#include "binding/plugins/volume_binding.h"
#include "binding/plugins/volume_restrictions.h"
#include "binding/plugins/volume_zone.h"
#include "core/check.h"
#include "gpu/fraction_request.h"

namespace berth::binding {
namespace {

// Whether the cluster needs a ClaimTracker: any DRA object, or a pod that references a
// claim (which then fits nowhere, with upstream's message, when the claim is missing).
bool HasDraObjects(const model::Snapshot& snapshot) {
  if (!snapshot.resource_claims.empty() || !snapshot.resource_slices.empty() ||
      !snapshot.device_classes.empty()) {
    return true;
  }
  for (const model::Pod& pod : snapshot.pods) {
    if (!pod.resource_claims.empty()) return true;
  }
  return false;
}

// Whether the cluster needs a VolumeTracker: a pod with a persistentVolumeClaim volume.
bool HasClaimVolumePods(const model::Snapshot& snapshot) {
  return std::any_of(snapshot.pods.begin(), snapshot.pods.end(), VolumeTracker::HasClaimVolumes);
}

}  // namespace

class Scheduler::Impl {
 public:
  Impl(const model::Snapshot& snapshot, model::SchedulerConfig config,
       const SchedulerOptions& options)
      : snapshot_(snapshot),
        config_(std::move(config)),
        options_(options),
        resources_(snapshot.resources),
        namespaces_(snapshot),
        pod_infos_(snapshot, resources_, &label_sigs_),
        state_(snapshot, resources_, NodesOf(snapshot, options)),
        placed_(snapshot.pods.size(), -1),
        bound_here_(snapshot.pods.size(), 0),
        nominated_(snapshot.pods.size(), -1),
        node_pods_(static_cast<size_t>(state_.num_nodes())) {
    if (options_.use_index) index_ = std::make_unique<IndexedPath>(state_, resources_);
    if (HasDraObjects(snapshot)) {
      core::Diagnostics& sink =
          options_.diagnostics != nullptr ? *options_.diagnostics : dropped_diagnostics_;
      claims_ = std::make_unique<ClaimTracker>(snapshot, ClusterName(snapshot, options_), sink);
    }
    if (HasClaimVolumePods(snapshot)) {
      volumes_ = std::make_unique<VolumeTracker>(snapshot, ClusterName(snapshot, options_), state_);
    }
    for (size_t i = 0; i < config_.profiles.size(); ++i) {
      profiles_.emplace_back(config_.profiles[i], static_cast<int32_t>(i), resources_);
    }
    // Bound, non-terminal pods hold their node's resources from the start; pods bound to a
    // node the snapshot lacks are not in any node's view, as in kube-scheduler's cache.
    for (size_t i = 0; i < snapshot.pods.size(); ++i) {
      const model::Pod& pod = snapshot.pods[i];
      if (!pod.IsBound() || pod.IsTerminal()) continue;
      auto node = state_.FindNode(pod.node_name);
      if (!node.has_value()) continue;
      model::PodIndex p{static_cast<int32_t>(i)};
      state_.AddPod(p, *node, pod_infos_.Get(p));
      placed_[i] = node->v;
      if (volumes_ != nullptr && VolumeTracker::HasClaimVolumes(pod)) {
        volumes_->Bind(p, volumes_->Resolve(pod), *node, /*planned=*/false);
      }
      node_pods_[static_cast<size_t>(node->v)].push_back(p);
      bound_priorities_.insert(pod.priority);
    }
    // Once per Scheduler, after the input's bound pods are on their nodes: the typical pods
    // come from the whole snapshot, and the per-node caches follow the node versions.
    for (const ResolvedProfile& profile : profiles_) {
      if (!profile.gpu_share_scoring()) continue;
      gpu_share_ = std::make_unique<GpuShareCycle>(snapshot, resources_, state_, pod_infos_);
      break;
    }
    // A policy that picks a fractional pod's GPU itself (berth's) has the bind take it.
    for (const ResolvedProfile& profile : profiles_) {
      if (gpu_share_ == nullptr || !WeighsGpuShareNodeModel(profile)) continue;
      state_.set_fraction_placer(&gpu_share_->node_model());
      break;
    }
  }

  std::vector<model::PodIndex> QueueOrder() const {
    std::vector<model::PodIndex> queue = PendingPodsInQueueOrder(snapshot_, config_);
    // Pods this scheduler already bound are no longer pending.
    std::erase_if(queue, [&](model::PodIndex p) { return bound_here_[idx(p)] != 0; });
    return queue;
  }

  model::PodDecision ScheduleOne(model::PodIndex pod) {
    // Upstream filters a pod without its own nomination (RunFilterPluginsWithNominatedPods
    // skips the pod itself): its reservation gives way to the decision.
    ReleaseNomination(pod);
    model::PodDecision decision;
    decision.pod = pod;
    const model::Pod& p = pod_infos_.pod(pod);
    if (bound_here_[idx(pod)] != 0) {
      decision.node = model::NodeIndex{placed_[idx(pod)]};
      return decision;
    }
    const ResolvedProfile* profile = FindProfile(p);
    if (profile == nullptr || p.IsTerminal() || p.IsBound()) {
      decision.skipped = true;
      if (p.IsBound()) decision.node = state_.FindNode(p.node_name);
      return decision;
    }
    const PodInfo& info = pod_infos_.Get(pod);
    CycleContext ctx = Context(p, info, *profile);
    std::optional<model::PodDecision> indexed;
    const bool uses_claims =
        !p.resource_claims.empty() && profile->FilterEnabled(kDynamicResources);
    const bool uses_volumes = volumes_ != nullptr && volumes_->UsesClaims(p);
    const bool uses_ports = !info.host_ports.empty() && profile->FilterEnabled(kNodePorts);
    bool node_by_node = false;
    if (index_ != nullptr) {
      // Each index route proves exactness for one kind of per-node state; a pod that needs
      // two of them (host ports with claims or volumes) takes the reference path.
      if (uses_ports) {
        indexed = (uses_claims || uses_volumes) ? std::nullopt : TryDecideWithHostPorts(ctx);
      } else if (uses_volumes) {
        indexed = uses_claims ? std::nullopt : TryDecideWithVolumes(ctx, &node_by_node);
      } else {
        indexed = uses_claims ? TryDecideWithClaims(ctx, &node_by_node) : index_->TryDecide(ctx);
      }
    }
    if (indexed.has_value()) {
      ++(node_by_node ? stats_.reference : stats_.indexed);
      decision = std::move(*indexed);
    } else {
      ++stats_.reference;
      decision = ReferenceEvaluator(ctx).Decide();
    }
    decision.pod = pod;
    if (decision.node.has_value()) Bind(pod, *decision.node, uses_claims);
    return decision;
  }

  model::PodDecision ScheduleOnNominated(model::PodIndex pod, model::NodeIndex node) {
    ReleaseNomination(pod);
    const model::Pod& p = pod_infos_.pod(pod);
    const ResolvedProfile* profile = FindProfile(p);
    if (bound_here_[idx(pod)] != 0 || profile == nullptr || p.IsTerminal() || p.IsBound()) {
      return ScheduleOne(pod);
    }
    CycleContext ctx = Context(p, pod_infos_.Get(pod), *profile);
    ReferenceEvaluator evaluator(ctx);
    if (evaluator.FirstFailure(node).has_value()) return ScheduleOne(pod);
    ++stats_.reference;
    model::PodDecision decision;
    decision.pod = pod;
    decision.node = node;
    Bind(pod, node, !p.resource_claims.empty() && profile->FilterEnabled(kDynamicResources));
    return decision;
  }

  PreemptionOutcome Preempt(model::PodIndex pod);

  void Nominate(model::PodIndex pod, model::NodeIndex node) {
    BERTH_CHECK(!IsBound(pod) && nominated_[idx(pod)] < 0,
                "Nominate of a bound or already nominated pod");
    state_.AddPod(pod, node, pod_infos_.Get(pod));
    nominated_[idx(pod)] = node.v;
  }

  void ReleaseNomination(model::PodIndex pod) {
    const int32_t node = nominated_[idx(pod)];
    if (node < 0) return;
    state_.RemovePod(pod, model::NodeIndex{node}, pod_infos_.Get(pod));
    nominated_[idx(pod)] = -1;
  }

  PodExplanation Explain(model::PodIndex pod) const {
    const model::Pod& p = pod_infos_.pod(pod);
    const ResolvedProfile* profile = FindProfile(p);
    // A pod no profile serves is explained with the first profile, so the user still sees
    // what the default scheduler would say.
    if (profile == nullptr) profile = profiles_.empty() ? nullptr : &profiles_.front();
    PodExplanation out;
    out.pod = pod;
    out.decision.pod = pod;
    if (profile == nullptr) {
      out.decision.skipped = true;
      return out;
    }
    CycleContext ctx = Context(p, pod_infos_.Get(pod), *profile);
    out = ReferenceEvaluator(ctx).Explain();
    out.pod = pod;
    out.decision.pod = pod;
    return out;
  }

  void OverridePod(model::PodIndex pod, const model::Pod& replacement) {
    const model::Pod& current = pod_infos_.pod(pod);
    // The caller overrides pods it is about to schedule; a bound pod's PodInfo is in the
    // node state, and a different name would break claim reservations and the queue.
    BERTH_CHECK(bound_here_[idx(pod)] == 0 && !current.IsBound(), "OverridePod of a bound pod");
    // A guest slot (AddPod) may take another guest: it is in no queue and reserves no claim.
    const bool guest = idx(pod) >= snapshot_.pods.size();
    BERTH_CHECK(replacement.node_name.empty() &&
                    (guest || (replacement.meta.name == current.meta.name &&
                               replacement.meta.namespace_ == current.meta.namespace_)),
                "OverridePod with a different pod");
    BERTH_CHECK(!guest || replacement.resource_claims.empty(), "a guest pod with ResourceClaims");
    pod_infos_.Override(pod, replacement);
  }

  model::PodIndex AddPod(const model::Pod& pod) {
    BERTH_CHECK(pod.node_name.empty() && pod.resource_claims.empty(),
                "AddPod of a bound pod or of a pod with ResourceClaims");
    const model::PodIndex added = pod_infos_.Add(pod);
    placed_.push_back(-1);
    bound_here_.push_back(0);
    nominated_.push_back(-1);
    return added;
  }

  void Unbind(model::PodIndex pod) {
    const model::Pod& p = pod_infos_.pod(pod);
    const bool here = bound_here_[idx(pod)] != 0;
    BERTH_CHECK(here || p.IsBound(), "Unbind of a pod that is not bound");
    if (placed_[idx(pod)] >= 0) {
      state_.RemovePod(pod, model::NodeIndex{placed_[idx(pod)]}, pod_infos_.Get(pod));
      if (volumes_ != nullptr && VolumeTracker::HasClaimVolumes(p)) {
        volumes_->Unbind(pod, volumes_->Resolve(p), model::NodeIndex{placed_[idx(pod)]});
        volume_bindings_stale_ = true;
      }
      std::vector<model::PodIndex>& on_node = node_pods_[static_cast<size_t>(placed_[idx(pod)])];
      auto it = std::find(on_node.begin(), on_node.end(), pod);
      if (it != on_node.end()) on_node.erase(it);
      auto priority = bound_priorities_.find(p.priority);
      if (priority != bound_priorities_.end()) bound_priorities_.erase(priority);
    }
    if (claims_ != nullptr && !p.resource_claims.empty()) {
      claims_->Unbind(pod, claims_->ClaimsOf(p));
    }
    placed_[idx(pod)] = -1;
    bound_here_[idx(pod)] = 0;
    if (!here) {
      // Bound in the input: from now on the pod is the same pod without spec.nodeName, so
      // ScheduleOne sees it as pending (and NodeName no longer pins it).
      model::Pod unbound = p;
      unbound.node_name.clear();
      pod_infos_.Override(pod, unbound);
    }
  }

  GangOutcome ScheduleGang(const std::vector<model::PodIndex>& pods, int32_t min_bound) {
    const auto size = static_cast<int32_t>(pods.size());
    const int32_t need = min_bound < 0 ? size : min_bound;
    GangOutcome out;
    out.decisions.reserve(pods.size());
    std::vector<size_t> bound_now;          // positions in `pods` this call bound, in bind order
    std::optional<model::PodIndex> failed;  // the pod whose failure put `need` out of reach
    for (int32_t i = 0; i < size; ++i) {
      // Even if every pod left binds, the gang cannot reach `need`: stop here, as upstream's
      // coscheduling rejects the rest of a group once one member cannot be placed.
      if (out.bound + (size - i) < need) break;
      const model::PodIndex pod = pods[static_cast<size_t>(i)];
      const bool before = IsBound(pod);
      model::PodDecision decision = ScheduleOne(pod);
      if (decision.node.has_value()) {
        ++out.bound;
        if (!before) bound_now.push_back(static_cast<size_t>(i));
      } else if (out.bound + (size - i - 1) < need) {
        failed = pod;
      }
      out.decisions.push_back(std::move(decision));
    }
    if (out.bound >= need) {
      out.placed = true;
      return out;
    }
    // Newest first: each Unbind then finds the state its pod's bind left, so the rollback
    // restores every value (ClusterState::RemovePod, ClaimTracker::Unbind).
    for (auto it = bound_now.rbegin(); it != bound_now.rend(); ++it) Unbind(pods[*it]);
    out.bound -= static_cast<int32_t>(bound_now.size());
    const model::Rejection rejection = GangRejection(need, size, failed);
    for (size_t at : bound_now) out.decisions[at] = Rejected(pods[at], rejection);
    for (size_t at = out.decisions.size(); at < pods.size(); ++at) {
      out.decisions.push_back(Rejected(pods[at], rejection));
    }
    return out;
  }

  model::ResourceClaim ClaimStatus(devices::ClaimIndex claim) const {
    BERTH_CHECK(claim.v >= 0 && static_cast<size_t>(claim.v) < snapshot_.resource_claims.size(),
                "ClaimStatus of a claim index outside the snapshot");
    model::ResourceClaim out = snapshot_.resource_claims[static_cast<size_t>(claim.v)];
    // Without a tracker there are no claims, so the index above was out of range.
    if (claims_ != nullptr) {
      const model::AllocationResult* allocation = claims_->Allocation(claim);
      out.allocation.reset();
      if (allocation != nullptr) out.allocation = *allocation;
      out.reserved_for = claims_->ReservedFor(claim);
    }
    return out;
  }

  const std::vector<ClaimBinding>& ClaimBindings() const {
    return claims_ != nullptr ? claims_->bindings() : no_bindings_;
  }

  // Translated on demand: the engine asks once per cycle, binds change them per pod.
  const std::vector<PlannedVolumeBinding>& VolumeBindings() const {
    if (volume_bindings_stale_) {
      volume_bindings_stale_ = false;
      volume_bindings_ = volumes_->bindings();
      for (PlannedVolumeBinding& b : volume_bindings_) {
        b.claim = volumes_->claim_index(b.claim);
        if (b.volume >= 0) b.volume = volumes_->volume_index(b.volume);
      }
    }
    return volume_bindings_;
  }

  // Read straight from ClusterState's rows, which every bind and unbind keeps current.
  model::ResourceVector NodeFree(model::NodeIndex node) const {
    model::ResourceVector out;
    for (size_t r = 0; r < resources_.size(); ++r) {
      const model::ResourceId id{static_cast<uint16_t>(r)};
      out.Set(id, state_.free(node, id));
    }
    return out;
  }

  model::ResourceVector ClusterFree() const {
    model::ResourceVector out;
    for (int32_t n = 0; n < state_.num_nodes(); ++n) out.Add(NodeFree(model::NodeIndex{n}));
    return out;
  }

  SchedulerStats stats() const {
    SchedulerStats out = stats_;
    out.node_classes = index_ != nullptr ? index_->classes().num_classes() : 0;
    return out;
  }

 private:
  // Places a pending pod on `node`: the state, the bookkeeping and, with DynamicResources,
  // the claims the filter found room for (its Reserve).
  void Bind(model::PodIndex pod, model::NodeIndex node, bool uses_claims) {
    state_.AddPod(pod, node, pod_infos_.Get(pod));
    placed_[idx(pod)] = node.v;
    bound_here_[idx(pod)] = 1;
    node_pods_[static_cast<size_t>(node.v)].push_back(pod);
    bound_priorities_.insert(pod_infos_.pod(pod).priority);
    if (claims_ != nullptr && uses_claims) {
      claims_->Bind(pod, claims_->Resolve(pod_infos_.pod(pod)).claims, node);
    }
    // VolumeBinding's Reserve: WaitForFirstConsumer claims take the volumes found there.
    const model::Pod& p = pod_infos_.pod(pod);
    if (volumes_ != nullptr && volumes_->UsesClaims(p)) {
      volumes_->Bind(pod, volumes_->Resolve(p), node, /*planned=*/true);
      volume_bindings_stale_ = true;
    }
  }

  // DefaultPreemption's pieces (defined after the class).
  struct VictimSearch;
  bool NodeResolvable(const ReferenceEvaluator::NodeFailure& failure) const;
  std::optional<NodeVictims> SelectVictimsOnNode(VictimSearch& search, model::NodeIndex node,
                                                 std::vector<const model::Pod*>* potential,
                                                 std::vector<model::PodIndex>* potential_ids,
                                                 std::vector<ReasonId>* status);
  bool TerminatingVictimOnNominatedNode(const model::Pod& pod) const;

  const ResolvedProfile* FindProfile(const model::Pod& pod) const {
    for (const ResolvedProfile& profile : profiles_) {
      if (profile.source().scheduler_name == pod.scheduler_name) return &profile;
    }
    return nullptr;
  }

  static size_t idx(model::PodIndex pod) { return static_cast<size_t>(pod.v); }


  // Bound by this Scheduler, or in the input and not unbound since.
  bool IsBound(model::PodIndex pod) const {
    return bound_here_[idx(pod)] != 0 || pod_infos_.pod(pod).IsBound();
  }

  // The decision of a gang member undone or left untried: Coscheduling's rejection, naming
  // the member whose failure sank the gang.
  model::Rejection GangRejection(int32_t need, int32_t size,
                                 std::optional<model::PodIndex> failed) const {
    std::string message(kReasonGangRejected);
    message += ": pod group needs ";
    message += std::to_string(need);
    message += " bound pods; ";
    if (failed.has_value()) {
      const model::Pod& p = pod_infos_.pod(*failed);
      message += "pod \"";
      message += p.meta.namespace_.empty() ? "default" : p.meta.namespace_;
      message += '/';
      message += p.meta.name;
      message += "\" is unschedulable";
    } else {
      message += "it has ";
      message += std::to_string(size);
    }
    // No node gave this reason: the group as a whole did not fit.
    return model::Rejection{"binding", std::string(kCoscheduling), std::string(kReasonGangRejected),
                            std::move(message), 0};
  }

  static model::PodDecision Rejected(model::PodIndex pod, const model::Rejection& rejection) {
    model::PodDecision d;
    d.pod = pod;
    d.message = rejection.message;
    d.rejections.push_back(rejection);
    return d;
  }

  CycleContext Context(const model::Pod& pod, const PodInfo& info,
                       const ResolvedProfile& profile) const {
    return CycleContext{snapshot_,   resources_, state_,        namespaces_,
                        label_sigs_, pod_infos_, profile,       pod,
                        info,        reasons_,   claims_.get(), gpu_share_.get(),
                        volumes_.get()};
  }

  // The decision for a pod with PersistentVolumeClaim volumes through the index, when it
  // provably equals the reference path's; nullopt sends the pod there. The volume filters
  // only remove nodes and, for a pod the index takes, run after every filter that can
  // reject a node (PodTopologySpread and InterPodAffinity skip for such pods), so the
  // argument of TryDecideWithClaims holds with V, the nodes the volume filters pass, in
  // place of D: when totals do not depend on the feasible set, the best node of F that is
  // in V is the best of F ∩ V, and FirstAccepting finds it asking nodes best first. When
  // TaintToleration's or NodeAffinity's normalization can vary, BestAccepting finds each
  // class's best node of F ∩ V and normalizes over those classes, which is exact too.
  // Volume PreFilter rejections and narrowings are left to the reference path, as are pods
  // that also have ResourceClaims.
  std::optional<model::PodDecision> TryDecideWithVolumes(const CycleContext& ctx,
                                                         bool* node_by_node) {
    const bool taint_norm = has_prefer_no_schedule_ && ctx.profile.Weight(kTaintToleration) > 0;
    const bool affinity_norm =
        !ctx.pod.node_affinity.preferred.empty() && ctx.profile.Weight(kNodeAffinity) > 0;
    // Nothing the volume filters hold can reject the pod or a node: they change no
    // verdict, so the pod is decided as if it had no volumes.
    const PodVolumeClaims& claims = volumes_->Resolve(ctx.pod);
    if (claims.missing.empty() && claims.lost.empty() && claims.immediate.empty() &&
        volumes_->ZoneRejection(claims).empty() && volumes_->AcceptsEveryNode(claims)) {
      return index_->TryDecide(ctx);
    }
    std::vector<std::unique_ptr<FilterPlugin>> filters;
    std::vector<std::unique_ptr<FilterPlugin>> all;
    all.push_back(std::make_unique<VolumeRestrictionsFilter>());
    all.push_back(std::make_unique<NodeVolumeLimitsFilter>());
    all.push_back(std::make_unique<VolumeBindingFilter>());
    all.push_back(std::make_unique<VolumeZoneFilter>());
    for (auto& f : all) {
      if (!ctx.profile.FilterEnabled(f->Name())) continue;
      const PreFilterResult r = f->PreFilter(ctx);
      if (r.kind == PreFilterResult::Kind::kReject || r.kind == PreFilterResult::Kind::kNodeSet) {
        return std::nullopt;
      }
      if (r.kind != PreFilterResult::Kind::kSkip) filters.push_back(std::move(f));
    }
    std::vector<ReasonId> reasons;
    const auto accepts = [&](model::NodeIndex n) {
      for (const auto& f : filters) {
        reasons.clear();
        f->Filter(ctx, n, &reasons);
        if (!reasons.empty()) return false;
      }
      return true;
    };
    // When TaintToleration's or NodeAffinity's normalization can depend on the feasible
    // set, every class's best accepting node is needed for the maxima (BestAccepting).
    const IndexedPath::ProbeOutcome probe = taint_norm || affinity_norm
                                                ? index_->BestAccepting(ctx, accepts)
                                                : index_->FirstAccepting(ctx, 0, accepts);
    if (!probe.covered) return std::nullopt;
    if (probe.node.has_value()) {
      model::PodDecision decision;
      decision.node = probe.node;
      return decision;
    }
    // No node passes every filter: if none passes the others, the volume filters never run
    // and the index's message is the reference path's; otherwise visit every node.
    std::optional<model::PodDecision> decision = index_->TryDecide(ctx);
    if (!decision.has_value() || !decision->node.has_value()) return decision;
    *node_by_node = true;
    return ReferenceEvaluator(ctx).Decide();
  }

  // The decision for a pod with ResourceClaims through the index, when it provably equals
  // the reference path's; nullopt sends the pod there. DynamicResources runs last and only
  // removes nodes, so with F the nodes passing the other filters and D those where the
  // claims can be allocated, the reference path picks the best node of F ∩ D. For a pod the
  // index takes, a node's total depends on F only through TaintToleration's and
  // NodeAffinity's normalization (docs/binding.md); when neither can vary (no node has a
  // PreferNoSchedule taint, or the profile does not weigh it; no preferred node affinity,
  // or no weight) totals do not depend on F at all, so if the best node of F is in D it is
  // the best of F ∩ D. If F is empty DynamicResources never runs and the index's message is
  // the reference path's. PreFilter rejections are left to the reference path.
  // The index asks the allocator node by node in total order, skipping nodes whose free
  // devices cannot hold the claims (ClusterState::free_devices), so a fleet whose
  // best-scored nodes are full (MostAllocated) is not scanned per pod.
  // `*node_by_node` is set when the decision came from visiting every node.
  std::optional<model::PodDecision> TryDecideWithClaims(const CycleContext& ctx,
                                                        bool* node_by_node) {
    if (claims_ == nullptr) return std::nullopt;
    const bool taint_norm = has_prefer_no_schedule_ && ctx.profile.Weight(kTaintToleration) > 0;
    const bool affinity_norm =
        !ctx.pod.node_affinity.preferred.empty() && ctx.profile.Weight(kNodeAffinity) > 0;
    if (taint_norm || affinity_norm) return std::nullopt;
    PodClaims resolved = claims_->Resolve(ctx.pod);
    if (!resolved.rejection.empty()) return std::nullopt;
    // Nodes best first, skipping those with too few free devices for the claims (the
    // allocator would reject them), until one takes the claims: the best node of F ∩ D.
    SyncFreeDevices();
    const devices::Allocator& allocator = claims_->allocator();
    const IndexedPath::ProbeOutcome probe = index_->FirstAccepting(
        ctx, allocator.MinDevices(resolved.claims),
        [&](model::NodeIndex n) { return allocator.Allocate(resolved.claims, n).ok(); });
    if (!probe.covered) return std::nullopt;
    if (probe.node.has_value()) {
      model::PodDecision decision;
      decision.node = probe.node;
      return decision;
    }
    // No node takes the claims. If no node passes the other filters, DynamicResources
    // never runs and the index's message is the reference path's; otherwise every passing
    // node must say why, in the reference path's words.
    std::optional<model::PodDecision> decision = index_->TryDecide(ctx);
    if (!decision.has_value() || !decision->node.has_value()) return decision;
    *node_by_node = true;
    return ReferenceEvaluator(ctx).DecideLastFilterLazily();
  }

  // The decision for a pod with host ports through the index, when it provably equals the
  // reference path's; nullopt sends the pod there. NodePorts removes the nodes whose pods
  // hold one of the pod's ports (P) and touches no score, so with F the nodes passing the
  // other filters the reference path picks the best node of F ∩ P; as for claims
  // (TryDecideWithClaims), when no score's normalization can vary with the feasible set the
  // index asks F's nodes best first and the first free one is that node. The order of the
  // filters (NodePorts runs before NodeResourcesFit) only changes which reason a rejected
  // node reports, so a pod no node takes goes to the reference path for its message.
  std::optional<model::PodDecision> TryDecideWithHostPorts(const CycleContext& ctx) {
    const bool taint_norm = has_prefer_no_schedule_ && ctx.profile.Weight(kTaintToleration) > 0;
    const bool affinity_norm =
        !ctx.pod.node_affinity.preferred.empty() && ctx.profile.Weight(kNodeAffinity) > 0;
    if (taint_norm || affinity_norm) return std::nullopt;
    const IndexedPath::ProbeOutcome probe =
        index_->FirstAccepting(ctx, /*min_devices=*/0, [&](model::NodeIndex n) {
          return FitsPorts(ctx.info, state_.host_ports(n));
        });
    if (!probe.covered || !probe.node.has_value()) return std::nullopt;
    model::PodDecision decision;
    decision.node = probe.node;
    return decision;
  }

  // Copies the device allocator's free-device bounds into ClusterState, where the index
  // reads them: every node the first time a pod with claims is decided, afterwards the
  // nodes whose devices a bind or unbind took or freed.
  void SyncFreeDevices() {
    if (claims_ == nullptr) return;
    std::vector<model::NodeIndex>& changed = changed_nodes_;
    claims_->TakeChangedNodes(&changed);
    if (!free_devices_synced_) {
      free_devices_synced_ = true;
      for (int32_t n = 0; n < state_.num_nodes(); ++n) {
        state_.SetFreeDevices(model::NodeIndex{n},
                              claims_->allocator().FreeDeviceBound(model::NodeIndex{n}));
      }
      return;
    }
    for (model::NodeIndex n : changed) {
      state_.SetFreeDevices(n, claims_->allocator().FreeDeviceBound(n));
    }
  }

  // The nodes the state works on: the snapshot's own, or those options borrow.
  static std::vector<const model::Node*> NodesOf(const model::Snapshot& snapshot,
                                                 const SchedulerOptions& options) {
    std::vector<const model::Node*> out;
    if (options.node_source == nullptr) {
      out.reserve(snapshot.nodes.size());
      for (const model::Node& node : snapshot.nodes) out.push_back(&node);
      return out;
    }
    BERTH_CHECK(CanBorrowNodes(snapshot),
                "borrowed nodes for a snapshot whose device allocator or fraction ledgers "
                "index its own nodes");
    out.reserve(options.node_indices.size());
    for (model::NodeIndex n : options.node_indices) {
      out.push_back(&(*options.node_source)[static_cast<size_t>(n.v)]);
    }
    return out;
  }

  bool AnyPreferNoScheduleTaint() const {
    for (int32_t n = 0; n < state_.num_nodes(); ++n) {
      for (const core::Taint& t : state_.node(model::NodeIndex{n}).taints) {
        if (t.effect == core::TaintEffect::kPreferNoSchedule) return true;
      }
    }
    return false;
  }

  static std::string ClusterName(const model::Snapshot& snapshot, const SchedulerOptions& options) {
    if (!options.cluster.empty()) return options.cluster;
    if (options.node_source == nullptr && !snapshot.nodes.empty()) {
      return snapshot.nodes.front().cluster;
    }
    if (!snapshot.pods.empty()) return snapshot.pods.front().cluster;
    return "default";
  }

  const model::Snapshot& snapshot_;
  const model::SchedulerConfig config_;
  const SchedulerOptions options_;
  const ResourceTable resources_;
  const NamespaceTable namespaces_;
  // Explain is const but interns label signatures, pod infos and reason texts it meets.
  mutable LabelSigTable label_sigs_;
  // The pods as scheduled (OverridePod, Unbind of input pods replace them) and their infos.
  PodInfoStore pod_infos_;
  mutable ReasonTable reasons_;
  ClusterState state_;
  std::vector<ResolvedProfile> profiles_;
  std::vector<int32_t> placed_;      // node whose state holds the pod (input or bound here), or -1
  std::vector<uint8_t> bound_here_;  // 1: bound by this scheduler
  // Node whose state holds the pod as nominated (Nominate), or -1: not bound, not in
  // node_pods_ (so never a victim), no claim or volume reserved.
  std::vector<int32_t> nominated_;
  // The pods each node's state holds (input-bound and bound here): preemption's victims are
  // looked up per node, never by scanning the cluster's pods.
  std::vector<std::vector<model::PodIndex>> node_pods_;
  // The priorities of those pods: when none is below a preemptor's, no node has a victim
  // and Preempt answers without visiting one.
  std::multiset<int32_t> bound_priorities_;
  // The cluster's PodDisruptionBudgets as read (status.disruptionsAllowed, or computed from
  // the input's pods: the status the scheduler's informer holds), resolved at the first
  // Preempt, and per pod the budgets matching it, matched the first time it is a potential
  // victim.
  std::optional<std::vector<PdbBudget>> budgets_;
  std::vector<std::vector<int32_t>> pod_budgets_;
  std::vector<uint8_t> pod_budgets_known_;
  // Per node, the last SelectVictimsOnNode answer of the arithmetic path, valid while the
  // node's version (ClusterState::version) and the preemptor's priority and requests are
  // the same: a wave of alike preemptors changes one node per decision, so the others'
  // answers are reused, not recomputed.
  struct VictimMemo {
    uint32_t version = 0;
    bool valid = false;
    bool found = false;
    std::string key;
    std::vector<model::PodIndex> victims;  // most important first
    int32_t pdb_violations = 0;
    std::vector<ReasonId> status;
  };
  std::vector<VictimMemo> victim_memo_;
  std::unique_ptr<IndexedPath> index_;        // null when options_.use_index is false
  core::Diagnostics dropped_diagnostics_;     // the allocator's sink when none was given
  std::unique_ptr<ClaimTracker> claims_;      // null without DRA objects
  std::unique_ptr<GpuShareCycle> gpu_share_;  // null unless a profile weighs a GPU-share plugin
  std::unique_ptr<VolumeTracker> volumes_;    // null unless a pod has a claim volume
  // volumes_'s bindings in snapshot indices, rebuilt by VolumeBindings() when stale.
  mutable std::vector<PlannedVolumeBinding> volume_bindings_;
  mutable bool volume_bindings_stale_ = false;
  const bool has_prefer_no_schedule_ = AnyPreferNoScheduleTaint();
  bool free_devices_synced_ = false;             // SyncFreeDevices has set every node once
  std::vector<model::NodeIndex> changed_nodes_;  // SyncFreeDevices' scratch
  const std::vector<ClaimBinding> no_bindings_;
  SchedulerStats stats_;
};

// What one Preempt call shares across the nodes it tries.
struct Scheduler::Impl::VictimSearch {
  const CycleContext* ctx = nullptr;
  model::PodIndex preemptor;
  int32_t priority = 0;
  const std::vector<PdbBudget>* budgets = nullptr;
  std::vector<const std::vector<int32_t>*> matches;  // per potential victim
  // Resource arithmetic (the pod's only pod-dependent filter is NodeResourcesFit), else
  // each fit check takes the pods off the state and runs the filters on the node.
  bool arithmetic = false;
  FitRequest request;
  std::vector<ReasonId> item_reasons;
  ReasonId too_many_pods;
  std::string memo_key;      // the preemptor's priority and fit request, for VictimMemo
  std::vector<int64_t> row;  // scratch: the node's requested amounts without the removed pods
};

// Whether removing pods could fix the node's failure: upstream's Unschedulable status, as
// opposed to UnschedulableAndUnresolvable (NodeUnschedulable, NodeName, TaintToleration,
// NodeAffinity, a PreFilter's rejection or node set, a missing topology label, required
// pod affinity, DynamicResources).
bool Scheduler::Impl::NodeResolvable(const ReferenceEvaluator::NodeFailure& failure) const {
  // Upstream's Unschedulable (not ...AndUnresolvable) statuses: removing pods can help.
  if (failure.plugin == kNodeResourcesFit || failure.plugin == kGpuSharing ||
      failure.plugin == kNodePorts || failure.plugin == kNodeVolumeLimits) {
    return true;
  }
  if (failure.plugin == kVolumeRestrictions) {
    // A missing claim (PreFilter) is unresolvable; a ReadWriteOncePod user is a pod to evict.
    for (ReasonId r : failure.reasons) {
      if (reasons_.Text(r) != kReasonReadWriteOncePodConflict) return false;
    }
    return true;
  }
  for (ReasonId r : failure.reasons) {
    const std::string& text = reasons_.Text(r);
    if (failure.plugin == kPodTopologySpread && text == kReasonSpreadMissingLabel) return false;
    if (failure.plugin == kInterPodAffinity &&
        (text == kReasonPodAffinity || text == kReasonAffinityConflict)) {
      return false;
    }
  }
  return failure.plugin == kPodTopologySpread || failure.plugin == kInterPodAffinity;
}

// PodEligibleToPreemptOthers' second rule: a pod nominated to a node where a lower-priority
// pod is still terminating because the scheduler preempted it waits for it.
bool Scheduler::Impl::TerminatingVictimOnNominatedNode(const model::Pod& pod) const {
  if (pod.nominated_node_name.empty()) return false;
  auto node = state_.FindNode(pod.nominated_node_name);
  if (!node.has_value()) return false;
  for (model::PodIndex v : node_pods_[static_cast<size_t>(node->v)]) {
    const model::Pod& victim = pod_infos_.pod(v);
    if (victim.priority >= pod.priority || !victim.deletion_timestamp.has_value()) continue;
    for (const model::PodCondition& c : victim.conditions) {
      if (c.type == "DisruptionTarget" && c.status == "True" &&
          c.reason == kReasonPreemptionByScheduler) {
        return true;
      }
    }
  }
  return false;
}

std::optional<NodeVictims> Scheduler::Impl::SelectVictimsOnNode(
    VictimSearch& search, model::NodeIndex node, std::vector<const model::Pod*>* potential,
    std::vector<model::PodIndex>* potential_ids, std::vector<ReasonId>* status) {
  potential->clear();
  potential_ids->clear();
  VictimMemo* memo = nullptr;
  if (search.arithmetic) {
    if (victim_memo_.size() != static_cast<size_t>(state_.num_nodes())) {
      victim_memo_.assign(static_cast<size_t>(state_.num_nodes()), VictimMemo{});
    }
    memo = &victim_memo_[static_cast<size_t>(node.v)];
    if (memo->valid && memo->version == state_.version(node) && memo->key == search.memo_key) {
      if (!memo->found) {
        status->insert(status->end(), memo->status.begin(), memo->status.end());
        return std::nullopt;
      }
      NodeVictims cached;
      cached.pdb_violations = memo->pdb_violations;
      for (model::PodIndex v : memo->victims) {
        cached.victims.push_back(potential_ids->size());
        potential_ids->push_back(v);
        potential->push_back(&pod_infos_.pod(v));
      }
      return cached;
    }
  }
  auto remember = [&](const std::optional<NodeVictims>& answer) {
    if (memo == nullptr) return;
    memo->valid = true;
    memo->version = state_.version(node);
    memo->key = search.memo_key;
    memo->found = answer.has_value();
    memo->victims.clear();
    memo->pdb_violations = 0;
    memo->status.clear();
    if (answer.has_value()) {
      for (size_t at : answer->victims) memo->victims.push_back((*potential_ids)[at]);
      memo->pdb_violations = answer->pdb_violations;
    } else {
      memo->status = *status;
    }
  };
  for (model::PodIndex v : node_pods_[static_cast<size_t>(node.v)]) {
    if (pod_infos_.pod(v).priority < search.priority) potential_ids->push_back(v);
  }
  if (potential_ids->empty()) {
    status->push_back(reasons_.Intern(kDefaultPreemption, kReasonNoVictims));
    remember(std::nullopt);
    return std::nullopt;
  }
  // Most important first; equal ones by pod index, so the order never depends on binds.
  std::sort(potential_ids->begin(), potential_ids->end(),
            [&](model::PodIndex a, model::PodIndex b) {
              const model::Pod& pa = pod_infos_.pod(a);
              const model::Pod& pb = pod_infos_.pod(b);
              if (MoreImportantPod(pa, pb)) return true;
              if (MoreImportantPod(pb, pa)) return false;
              return a.v < b.v;
            });
  for (model::PodIndex v : *potential_ids) potential->push_back(&pod_infos_.pod(v));
  const std::vector<model::PodIndex>& ids = *potential_ids;
  search.matches.clear();
  // Grow the per-pod memo once, before taking pointers into it: a resize inside the loop
  // would move the vectors the earlier pointers name.
  size_t needed = 0;
  for (model::PodIndex v : ids) needed = std::max(needed, idx(v) + 1);
  if (pod_budgets_known_.size() < needed) {
    pod_budgets_known_.resize(needed, 0);
    pod_budgets_.resize(needed);
  }
  for (model::PodIndex v : ids) {
    if (pod_budgets_known_[idx(v)] == 0) {
      pod_budgets_[idx(v)] = MatchingBudgets(pod_infos_.pod(v), *search.budgets);
      pod_budgets_known_[idx(v)] = 1;
    }
    search.matches.push_back(&pod_budgets_[idx(v)]);
  }
  if (search.arithmetic) {
    const NodeLoad load = state_.load(node);
    const size_t width = resources_.size();
    uint64_t last_failures = 0;
    // The node's row with the pods not kept taken out, updated by the difference from the
    // previous call (the reprieve changes one pod at a time).
    search.row.assign(load.requested, load.requested + width);
    int32_t count = load.pod_count;
    std::vector<bool> in_row(ids.size(), true);
    auto fits = [&](const std::vector<bool>& kept) {
      for (size_t i = 0; i < ids.size(); ++i) {
        if (kept[i] == in_row[i]) continue;
        const std::vector<int64_t>& req = pod_infos_.Get(ids[i]).resources.requests;
        const int64_t sign = kept[i] ? 1 : -1;
        for (size_t r = 0; r < width && r < req.size(); ++r) search.row[r] += sign * req[r];
        count += kept[i] ? 1 : -1;
        in_row[i] = kept[i];
      }
      const NodeLoad without{load.allocatable, search.row.data(), 0, 0, count};
      last_failures = FitFailures(without, search.request);
      return last_failures == 0;
    };
    std::optional<NodeVictims> out =
        SelectVictims(*potential, *search.budgets, fits, &search.matches);
    if (!out.has_value()) {
      if (last_failures & 1) status->push_back(search.too_many_pods);
      for (size_t i = 0; i < search.item_reasons.size(); ++i) {
        if (last_failures & (uint64_t{1} << (i + 1))) status->push_back(search.item_reasons[i]);
      }
    }
    remember(out);
    return out;
  }
  // Filters node by node: the pods really leave the node's state (and come back), so every
  // filter, PreFilter included, sees the node as it would be (upstream's RemovePod
  // extensions).
  std::vector<bool> removed(ids.size(), false);
  std::vector<ReasonId> last_reasons;
  auto sync = [&](const std::vector<bool>& kept) {
    for (size_t i = 0; i < ids.size(); ++i) {
      const bool want_removed = !kept[i];
      if (want_removed == removed[i]) continue;
      if (want_removed) {
        state_.RemovePod(ids[i], node, pod_infos_.Get(ids[i]));
      } else {
        state_.AddPod(ids[i], node, pod_infos_.Get(ids[i]));
      }
      removed[i] = want_removed;
    }
  };
  auto fits = [&](const std::vector<bool>& kept) {
    sync(kept);
    ReferenceEvaluator evaluator(*search.ctx);
    std::optional<ReferenceEvaluator::NodeFailure> failure = evaluator.FirstFailure(node);
    if (failure.has_value()) last_reasons = failure->reasons;
    return !failure.has_value();
  };
  std::optional<NodeVictims> out =
      SelectVictims(*potential, *search.budgets, fits, &search.matches);
  sync(std::vector<bool>(ids.size(), true));
  if (!out.has_value()) status->insert(status->end(), last_reasons.begin(), last_reasons.end());
  return out;
}

PreemptionOutcome Scheduler::Impl::Preempt(model::PodIndex pod) {
  PreemptionOutcome out;
  const model::Pod& p = pod_infos_.pod(pod);
  const ResolvedProfile* profile = FindProfile(p);
  if (profile == nullptr || p.IsTerminal() || IsBound(pod)) return out;
  if (p.NeverPreempts()) {
    out.message = "preemption: ";
    out.message += kPreemptionNever;
    return out;
  }
  if (TerminatingVictimOnNominatedNode(p)) {
    out.message = "preemption: not eligible due to a terminating pod on the nominated node.";
    return out;
  }
  const int32_t num_nodes = state_.num_nodes();
  if (num_nodes == 0) return out;
  CycleContext ctx = Context(p, pod_infos_.Get(pod), *profile);
  VictimSearch search;
  search.ctx = &ctx;
  search.preemptor = pod;
  search.priority = p.priority;
  if (!budgets_.has_value()) {
    budgets_ = ResolvePdbBudgets(snapshot_, ClusterName(snapshot_, options_));
  }
  search.budgets = &*budgets_;

  // Which nodes removing pods could help: for a pod the index covers, those of the node
  // classes its static filters pass (its only other filter is NodeResourcesFit); otherwise
  // each node's first failing filter decides.
  std::vector<uint8_t> potential(static_cast<size_t>(num_nodes), 0);
  int32_t num_potential = 0;
  const std::vector<std::optional<ReasonId>>* statics =
      index_ != nullptr && p.resource_claims.empty() && ctx.info.host_ports.empty() &&
              (volumes_ == nullptr || !VolumeTracker::HasClaimVolumes(p))
          ? index_->StaticRejections(ctx)
          : nullptr;
  if (statics != nullptr) {
    const NodeClasses& classes = index_->classes();
    for (int32_t c = 0; c < classes.num_classes(); ++c) {
      if ((*statics)[static_cast<size_t>(c)].has_value()) continue;
      for (model::NodeIndex n : classes.members(c)) potential[static_cast<size_t>(n.v)] = 1;
      num_potential += classes.size(c);
    }
    search.arithmetic = true;
    search.request = MakeFitRequest(ctx.info.resources, resources_);
    for (const auto& [id, amount] : search.request.items) {
      search.item_reasons.push_back(InsufficientReason(reasons_, resources_.name(id)));
    }
    search.too_many_pods = reasons_.Intern(kNodeResourcesFit, kReasonTooManyPods);
    search.memo_key = std::to_string(p.priority);
    for (const auto& [id, amount] : search.request.items) {
      search.memo_key += ',';
      search.memo_key += std::to_string(id.v);
      search.memo_key += ':';
      search.memo_key += std::to_string(amount);
    }
  } else {
    ReferenceEvaluator evaluator(ctx);
    for (model::NodeIndex n : state_.by_name()) {
      std::optional<ReferenceEvaluator::NodeFailure> failure = evaluator.FirstFailure(n);
      if (!failure.has_value() || NodeResolvable(*failure)) {
        potential[static_cast<size_t>(n.v)] = 1;
        ++num_potential;
      }
    }
  }

  // DryRunPreemption, in node name order from the first node (upstream starts at a random
  // offset; berth is deterministic): stop once the candidates reach upstream's count and
  // one of them violates no budget.
  // No bound pod of lower priority anywhere: every candidate node says so.
  if (bound_priorities_.empty() || *bound_priorities_.begin() >= p.priority) {
    ReasonHistogram none;
    none.Add(reasons_.Intern(kDefaultPreemption, kReasonNoVictims), num_potential);
    none.Add(reasons_.Intern(kDefaultPreemption, kReasonPreemptionNotHelpful),
             num_nodes - num_potential);
    model::PodDecision rendered;
    none.Render(reasons_, num_nodes, &rendered);
    out.message = "preemption: " + rendered.message;
    return out;
  }
  const int32_t wanted = NumPreemptionCandidates(num_potential);
  std::vector<PreemptionCandidate> non_violating;
  std::vector<PreemptionCandidate> violating;
  std::vector<std::pair<model::NodeIndex, std::vector<model::PodIndex>>> victims_of;
  std::vector<const model::Pod*> potential_pods;
  std::vector<model::PodIndex> potential_ids;
  ReasonHistogram histogram;
  int64_t tried = 0;
  std::vector<ReasonId> status;
  for (model::NodeIndex n : state_.by_name()) {
    if (num_potential == 0) break;
    if (potential[static_cast<size_t>(n.v)] == 0) continue;
    ++tried;
    status.clear();
    std::optional<NodeVictims> found =
        SelectVictimsOnNode(search, n, &potential_pods, &potential_ids, &status);
    if (!found.has_value()) {
      for (ReasonId r : status) histogram.Add(r);
      continue;
    }
    PreemptionCandidate candidate;
    candidate.node_name = state_.node(n).meta.name;
    candidate.pdb_violations = found->pdb_violations;
    std::vector<model::PodIndex> ids;
    for (size_t at : found->victims) {
      candidate.victims.push_back(potential_pods[at]);
      ids.push_back(potential_ids[at]);
    }
    victims_of.emplace_back(n, std::move(ids));
    (candidate.pdb_violations == 0 ? non_violating : violating).push_back(std::move(candidate));
    const auto total = static_cast<int32_t>(non_violating.size() + violating.size());
    if (!non_violating.empty() && total >= wanted) break;
  }
  if (non_violating.empty() && violating.empty()) {
    // upstream: a FitError over the nodes tried, every other node "not helpful".
    histogram.Add(reasons_.Intern(kDefaultPreemption, kReasonPreemptionNotHelpful),
                  num_nodes - tried);
    model::PodDecision rendered;
    histogram.Render(reasons_, num_nodes, &rendered);
    out.message = "preemption: " + rendered.message;
    return out;
  }
  std::vector<PreemptionCandidate> candidates = std::move(non_violating);
  for (PreemptionCandidate& c : violating) candidates.push_back(std::move(c));
  const size_t best = PickOneNodeForPreemption(candidates, &out.criterion);
  out.candidates = static_cast<int32_t>(candidates.size());
  out.pdb_violations = candidates[best].pdb_violations;
  for (auto& [n, ids] : victims_of) {
    if (state_.node(n).meta.name != candidates[best].node_name) continue;
    out.node = n;
    out.victims = std::move(ids);
    break;
  }
  return out;
}

bool CanBorrowNodes(const model::Snapshot& snapshot) {
  if (HasDraObjects(snapshot)) return false;
  return std::none_of(snapshot.pods.begin(), snapshot.pods.end(), [](const model::Pod& pod) {
    return gpu::HasFractionAnnotations(pod.meta.annotations);
  });
}

Scheduler::Scheduler(const model::Snapshot& snapshot, const model::SchedulerConfig& config)
    : Scheduler(snapshot, config, SchedulerOptions{}) {}

Scheduler::Scheduler(const model::Snapshot& snapshot, const model::SchedulerConfig& config,
                     const SchedulerOptions& options)
    : impl_(std::make_unique<Impl>(snapshot, config, options)) {}  // Impl copies the config

Scheduler::~Scheduler() = default;

std::vector<model::PodIndex> Scheduler::QueueOrder() const { return impl_->QueueOrder(); }

model::PodDecision Scheduler::ScheduleOne(model::PodIndex pod) { return impl_->ScheduleOne(pod); }

std::vector<model::PodDecision> Scheduler::ScheduleAll() {
  std::vector<model::PodDecision> out;
  for (model::PodIndex pod : QueueOrder()) out.push_back(ScheduleOne(pod));
  return out;
}

PodExplanation Scheduler::Explain(model::PodIndex pod) const { return impl_->Explain(pod); }

model::ResourceVector Scheduler::NodeFree(model::NodeIndex node) const {
  return impl_->NodeFree(node);
}

model::ResourceVector Scheduler::ClusterFree() const { return impl_->ClusterFree(); }

SchedulerStats Scheduler::stats() const { return impl_->stats(); }

const std::vector<ClaimBinding>& Scheduler::ClaimBindings() const { return impl_->ClaimBindings(); }

const std::vector<PlannedVolumeBinding>& Scheduler::VolumeBindings() const {
  return impl_->VolumeBindings();
}

model::PodIndex Scheduler::AddPod(const model::Pod& pod) { return impl_->AddPod(pod); }

void Scheduler::OverridePod(model::PodIndex pod, const model::Pod& replacement) {
  impl_->OverridePod(pod, replacement);
}

GangOutcome Scheduler::ScheduleGang(const std::vector<model::PodIndex>& pods, int32_t min_bound) {
  return impl_->ScheduleGang(pods, min_bound);
}

void Scheduler::Unbind(model::PodIndex pod) { impl_->Unbind(pod); }

PreemptionOutcome Scheduler::Preempt(model::PodIndex pod) { return impl_->Preempt(pod); }

void Scheduler::Nominate(model::PodIndex pod, model::NodeIndex node) { impl_->Nominate(pod, node); }

void Scheduler::ReleaseNomination(model::PodIndex pod) { impl_->ReleaseNomination(pod); }

model::PodDecision Scheduler::ScheduleOnNominated(model::PodIndex pod, model::NodeIndex node) {
  return impl_->ScheduleOnNominated(pod, node);
}

model::ResourceClaim Scheduler::ClaimStatus(devices::ClaimIndex claim) const {
  return impl_->ClaimStatus(claim);
}

}  // namespace berth::binding
