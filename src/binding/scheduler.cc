#include "binding/scheduler.h"

#include <utility>
#include <vector>

#include "binding/cluster_state.h"
#include "binding/cycle_context.h"
#include "binding/indexed_path.h"
#include "binding/label_sig_table.h"
#include "binding/namespace_table.h"
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
    if (index_ != nullptr) indexed = index_->TryDecide(ctx);
    if (indexed.has_value()) {
      ++stats_.indexed;
      decision = std::move(*indexed);
    } else {
      ++stats_.reference;
      decision = ReferenceEvaluator(ctx).Decide();
    }
    decision.pod = pod;
    if (decision.node.has_value()) {
      state_.AddPod(pod, *decision.node, info);
      assigned_[static_cast<size_t>(pod.v)] = decision.node->v;
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
    return CycleContext{snapshot_,  resources_, state_, namespaces_, label_sigs_,
                        pod_infos_, profile,    pod,    info,        reasons_};
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
  std::vector<int32_t> assigned_;       // node each pod was bound to by this scheduler, or -1
  std::unique_ptr<IndexedPath> index_;  // null when options_.use_index is false
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

}  // namespace berth::binding
