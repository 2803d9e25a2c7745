#include "binding/scheduler.h"

#include <utility>
#include <vector>

#include "binding/claim_tracker.h"
#include "binding/cluster_state.h"
#include "binding/cycle_context.h"
#include "binding/dynamic_resources.h"
#include "binding/indexed_path.h"
#include "binding/label_sig_table.h"
#include "binding/namespace_table.h"
#include "binding/plugin_names.h"
#include "binding/pod_info_store.h"
#include "binding/queue_order.h"
#include "binding/reason_table.h"
#include "binding/reference_evaluator.h"
#include "binding/resolved_profile.h"
#include "binding/resource_table.h"

namespace berth::binding {

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
        state_(snapshot, resources_),
        assigned_(snapshot.pods.size(), -1) {
    if (options_.use_index) index_ = std::make_unique<IndexedPath>(state_, resources_);
    if (HasDraObjects(snapshot)) {
      core::Diagnostics& sink =
          options_.diagnostics != nullptr ? *options_.diagnostics : dropped_diagnostics_;
      claims_ = std::make_unique<ClaimTracker>(snapshot, ClusterName(snapshot, options_), sink);
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
    }
  }

  std::vector<model::PodIndex> QueueOrder() const {
    std::vector<model::PodIndex> queue = PendingPodsInQueueOrder(snapshot_, config_);
    // Pods this scheduler already bound are no longer pending.
    std::erase_if(queue,
                  [&](model::PodIndex p) { return assigned_[static_cast<size_t>(p.v)] >= 0; });
    return queue;
  }

  model::PodDecision ScheduleOne(model::PodIndex pod) {
    model::PodDecision decision;
    decision.pod = pod;
    const model::Pod& p = snapshot_.pod(pod);
    int32_t assigned = assigned_[static_cast<size_t>(pod.v)];
    if (assigned >= 0) {
      decision.node = model::NodeIndex{assigned};
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
    bool node_by_node = false;
    if (index_ != nullptr) {
      indexed = uses_claims ? TryDecideWithClaims(ctx, &node_by_node) : index_->TryDecide(ctx);
    }
    if (indexed.has_value()) {
      ++(node_by_node ? stats_.reference : stats_.indexed);
      decision = std::move(*indexed);
    } else {
      ++stats_.reference;
      decision = ReferenceEvaluator(ctx).Decide();
    }
    decision.pod = pod;
    if (decision.node.has_value()) {
      state_.AddPod(pod, *decision.node, info);
      assigned_[static_cast<size_t>(pod.v)] = decision.node->v;
      // DynamicResources' Reserve: the claims the filter found room for are allocated there.
      if (claims_ != nullptr && uses_claims) {
        claims_->Bind(pod, claims_->Resolve(p).claims, *decision.node);
      }
    }
    return decision;
  }

  PodExplanation Explain(model::PodIndex pod) const {
    const model::Pod& p = snapshot_.pod(pod);
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

  const std::vector<ClaimBinding>& ClaimBindings() const {
    return claims_ != nullptr ? claims_->bindings() : no_bindings_;
  }

  SchedulerStats stats() const {
    SchedulerStats out = stats_;
    out.node_classes = index_ != nullptr ? index_->classes().num_classes() : 0;
    return out;
  }

 private:
  const ResolvedProfile* FindProfile(const model::Pod& pod) const {
    for (const ResolvedProfile& profile : profiles_) {
      if (profile.source().scheduler_name == pod.scheduler_name) return &profile;
    }
    return nullptr;
  }

  CycleContext Context(const model::Pod& pod, const PodInfo& info,
                       const ResolvedProfile& profile) const {
    return CycleContext{snapshot_, resources_, state_, namespaces_, label_sigs_,  pod_infos_,
                        profile,   pod,        info,   reasons_,    claims_.get()};
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
    std::optional<model::PodDecision> decision = index_->TryDecide(ctx);
    if (!decision.has_value() || !decision->node.has_value()) return decision;
    if (claims_->allocator().Allocate(resolved.claims, *decision->node).ok()) return decision;
    // The best node's devices are taken. Totals still do not depend on the feasible set,
    // so the nodes can be probed in total order (the pod is one the index takes, so
    // PodTopologySpread and InterPodAffinity skip, and no other score normalizes).
    *node_by_node = true;
    return ReferenceEvaluator(ctx).DecideLastFilterLazily();
  }

  static bool AnyPreferNoScheduleTaint(const model::Snapshot& snapshot) {
    for (const model::Node& node : snapshot.nodes) {
      for (const core::Taint& t : node.taints) {
        if (t.effect == core::TaintEffect::kPreferNoSchedule) return true;
      }
    }
    return false;
  }

  // Whether the cluster needs a ClaimTracker: any DRA object, or a pod that references a
  // claim (which then fits nowhere, with upstream's message, when the claim is missing).
  static bool HasDraObjects(const model::Snapshot& snapshot) {
    if (!snapshot.resource_claims.empty() || !snapshot.resource_slices.empty() ||
        !snapshot.device_classes.empty()) {
      return true;
    }
    for (const model::Pod& pod : snapshot.pods) {
      if (!pod.resource_claims.empty()) return true;
    }
    return false;
  }

  static std::string ClusterName(const model::Snapshot& snapshot, const SchedulerOptions& options) {
    if (!options.cluster.empty()) return options.cluster;
    if (!snapshot.nodes.empty()) return snapshot.nodes.front().cluster;
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
  const PodInfoStore pod_infos_;
  mutable ReasonTable reasons_;
  ClusterState state_;
  std::vector<ResolvedProfile> profiles_;
  std::vector<int32_t> assigned_;          // node each pod was bound to by this scheduler, or -1
  std::unique_ptr<IndexedPath> index_;     // null when options_.use_index is false
  core::Diagnostics dropped_diagnostics_;  // the allocator's sink when none was given
  std::unique_ptr<ClaimTracker> claims_;   // null without DRA objects
  const bool has_prefer_no_schedule_ = AnyPreferNoScheduleTaint(snapshot_);
  const std::vector<ClaimBinding> no_bindings_;
  SchedulerStats stats_;
};

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

SchedulerStats Scheduler::stats() const { return impl_->stats(); }

const std::vector<ClaimBinding>& Scheduler::ClaimBindings() const { return impl_->ClaimBindings(); }

}  // namespace berth::binding
