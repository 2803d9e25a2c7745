#include "engine/cluster_sim.h"

#include <algorithm>

#include "binding/scheduler.h"
#include "engine/guest_binder.h"
#include "queueing/admission_scheduler.h"

namespace berth::engine {

ClusterSim::ClusterSim(const model::Snapshot& world, const std::string& cluster,
                       const std::optional<model::SchedulerConfig>& config,
                       core::Diagnostics& diags)
    : world_(world) {
  const bool has_nodes = std::any_of(world.nodes.begin(), world.nodes.end(),
                                     [&](const model::Node& n) { return n.cluster == cluster; });
  if (has_nodes) {
    scheduler_ = std::make_unique<binding::Scheduler>(
        world, config ? *config : world.scheduler_config.value_or(model::SchedulerConfig{}));
    binder_ = std::make_unique<GuestBinder>(world, *scheduler_, cluster);
  }
  queueing::AdmissionOptions options;
  options.cluster = cluster;
  options.explain = false;  // nothing reads the attempts; same decisions, less work
  // No placement oracle: Kueue without TAS admits by quota; Bind places the pods afterwards.
  kueue_ = std::make_unique<queueing::AdmissionScheduler>(world, options, nullptr, diags);
  kueue_->Start();
}

ClusterSim::~ClusterSim() = default;

void ClusterSim::Submit(int32_t wl, std::optional<core::Timestamp> queue_order_time) {
  kueue_->Submit(wl, queue_order_time);
}

void ClusterSim::Finish(int32_t wl) { kueue_->Finish(wl); }

std::vector<SimChange> ClusterSim::Schedule(core::Timestamp now, int32_t* cycles) {
  queueing::AdmissionScheduler::Changes changes = kueue_->Schedule(now);
  if (cycles != nullptr) *cycles = changes.cycles;
  std::vector<SimChange> out;
  out.reserve(changes.changes.size());
  for (const auto& c : changes.changes) out.push_back({c.workload, c.admitted});
  return out;
}

const std::optional<model::Admission>& ClusterSim::admission(int32_t wl) const {
  return kueue_->decision(wl).admission;
}

bool ClusterSim::Bind(int32_t wl) {
  if (!binder_) return true;
  const std::optional<model::Admission>& a = admission(wl);
  if (!a) return false;
  return binder_->TryPlace(wl, *a, nullptr);
}

void ClusterSim::Unbind(int32_t wl) {
  if (binder_) binder_->Release(wl);
}

const std::vector<int32_t>& ClusterSim::NodesOf(int32_t wl) const {
  static const std::vector<int32_t> kNone;
  return binder_ ? binder_->NodesOf(wl) : kNone;
}

std::vector<int32_t> ClusterSim::WorkloadsOn(int32_t node) const {
  return binder_ ? binder_->WorkloadsOn(node) : std::vector<int32_t>{};
}

ClusterSim::Free ClusterSim::FreeOf(model::ResourceId resource) const {
  if (!binder_) return {};
  const GuestBinder::FreeSummary f = binder_->Free(resource);
  return {f.max_node, f.total};
}

void ClusterSim::Fill(int32_t node) {
  if (binder_) binder_->Fill(node);
}

void ClusterSim::Unfill(int32_t node) {
  if (binder_) binder_->Unfill(node);
}

bool ClusterSim::FillGpus(int32_t node, int32_t gpus, model::ResourceId gpu) {
  return binder_ ? binder_->FillGpus(node, gpus, gpu) : true;
}

void ClusterSim::UnfillGpus(int32_t node, int32_t gpus) {
  if (binder_) binder_->UnfillGpus(node, gpus);
}

}  // namespace berth::engine
