#include "engine/cluster_sim.h"

#include <algorithm>

#include "binding/scheduler.h"
#include "engine/guest_binder.h"
#include "queueing/admission_scheduler.h"

namespace berth::engine {

ClusterSim::ClusterSim(const model::Snapshot& world, const std::string& cluster,
                       const std::optional<model::SchedulerConfig>& config,
                       core::Diagnostics& diags)
    : world_(world), cluster_(cluster) {
  // Without nodes of the cluster the scheduler holds none and the binder places nothing.
  scheduler_ = std::make_unique<binding::Scheduler>(
      world, config ? *config : world.scheduler_config.value_or(model::SchedulerConfig{}));
  binder_ = std::make_unique<GuestBinder>(world, *scheduler_, cluster);
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

std::vector<int32_t> ClusterSim::QuotaHolders() const {
  std::vector<int32_t> out;
  const queueing::AdmissionState& state = kueue_->state();
  for (size_t q = 0; q < state.setup().cqs.size(); ++q) {
    const queueing::AdmittedSet& holders = state.admitted(static_cast<int32_t>(q));
    out.insert(out.end(), holders.begin(), holders.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool ClusterSim::Bind(int32_t wl) {
  if (!binder_->has_nodes()) return true;
  const std::optional<model::Admission>& a = admission(wl);
  if (!a) return false;
  return binder_->TryPlace(wl, *a, nullptr);
}

}  // namespace berth::engine
