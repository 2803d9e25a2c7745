#include "queueing/quota_probe.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/check.h"
#include "core/diagnostics.h"
#include "queueing/admission_state.h"
#include "queueing/flavor_assigner.h"
#include "queueing/queue_setup.h"
#include "queueing/workload_info.h"

namespace berth::queueing {

// The admission state lives on the heap: its admitted sets and the assigner point back at it,
// so it must not move when the probe does.
struct QuotaProbe::State {
  State(const model::Snapshot& snapshot, QueueSetup setup, core::Timestamp now)
      : admission(snapshot, std::move(setup), WorkloadStorage::kSparse),
        assigner(admission, /*preemptor=*/nullptr),
        now(now) {}

  AdmissionState admission;
  // No preemptor: the probe answers whether the workload fits without evicting anything.
  FlavorAssigner assigner;
  core::Timestamp now;
};

namespace {

// Outcomes after which a workload holds quota at the end of the run (RunAdmission's status
// counts read the same: preempted and evicted ones were released).
bool HoldsQuota(WorkloadOutcome outcome) {
  return outcome == WorkloadOutcome::kAdmitted || outcome == WorkloadOutcome::kQuotaReserved ||
         outcome == WorkloadOutcome::kAlreadyAdmitted;
}

void Hold(AdmissionState& state, int32_t wl, int32_t q, const model::Admission& admission,
          core::Timestamp now) {
  // The info first: the holders' candidate order and their TAS usage read it.
  WorkloadInfo& info = state.info(wl);
  info = BuildWorkloadInfo(state.workload(wl), wl);
  info.cq = q;
  HeldQuota held;
  held.cq = q;
  held.usage = AdmissionUsage(state.setup(), state.snapshot().resources, admission);
  held.admission = admission;
  // The probe never preempts, so the candidate order these stamps feed only has to be total.
  held.reserved_at = now;
  held.sequence = state.NextSequence();
  state.Hold(wl, std::move(held));
}

}  // namespace

QuotaProbe::QuotaProbe(const model::Snapshot& snapshot, std::string cluster,
                       std::unique_ptr<State> state)
    : snapshot_(&snapshot), cluster_(std::move(cluster)), state_(std::move(state)) {}

QuotaProbe::QuotaProbe(QuotaProbe&&) noexcept = default;
QuotaProbe& QuotaProbe::operator=(QuotaProbe&&) noexcept = default;
QuotaProbe::~QuotaProbe() = default;

QuotaProbe QuotaProbe::Build(const model::Snapshot& snapshot, const std::string& cluster,
                             const AdmissionResult& result, core::Timestamp now) {
  // Without a LocalQueue nothing can be queued here, whatever else the cluster has: skip the
  // setup, which is most of the cost for the many workers of a fleet that run no Kueue.
  const bool any_local_queue =
      std::any_of(snapshot.local_queues.begin(), snapshot.local_queues.end(),
                  [&](const model::LocalQueue& lq) { return lq.cluster == cluster; });
  if (!any_local_queue) return {snapshot, cluster, nullptr};

  // RunAdmission reported the same diagnostics for this setup already.
  core::Diagnostics repeated;
  auto state = std::make_unique<State>(snapshot, BuildQueueSetup(snapshot, cluster, repeated), now);
  AdmissionState& admission = state->admission;
  for (const WorkloadDecision& d : result.decisions) {
    if (!HoldsQuota(d.outcome) || !d.admission) continue;
    // A result of another cluster would charge this cluster's queues with foreign usage.
    BERTH_CHECK(snapshot.kueue_workloads[static_cast<size_t>(d.workload)].cluster == cluster,
                "QuotaProbe::Build: the AdmissionResult is not this cluster's");
    auto cq = admission.setup().cq_by_name.find(d.admission->cluster_queue);
    if (cq == admission.setup().cq_by_name.end()) continue;  // its ClusterQueue is gone
    Hold(admission, d.workload, cq->second, *d.admission, now);
  }
  return {snapshot, cluster, std::move(state)};
}

bool QuotaProbe::HasLocalQueue(const std::string& namespace_name, const std::string& name) const {
  if (state_ == nullptr) return false;
  return state_->admission.setup().local_queue_by_key.count(namespace_name + "/" + name) > 0;
}

ProbeResult QuotaProbe::Try(int32_t workload) const {
  ProbeResult out;
  const model::Workload& wl = snapshot_->kueue_workloads[static_cast<size_t>(workload)];
  // Without a state, an empty setup gives the missing-LocalQueue answer in RunAdmission's
  // words.
  QueueResolution queue = state_ != nullptr
                              ? ResolveQueue(state_->admission.setup(), *snapshot_, wl)
                              : ResolveQueue(QueueSetup{}, *snapshot_, wl);
  if (!queue.ok()) {
    out.reason = std::move(queue.reason);
    out.message = std::move(queue.message);
    return out;
  }
  State& s = *state_;
  WorkloadInfo info = BuildWorkloadInfo(wl, workload);
  info.cq = queue.cq;
  std::vector<int32_t> counts;
  for (const PodSetRequest& ps : info.pod_sets) counts.push_back(ps.count);
  // The assigner undoes its own tree edits, so the probe reads the same afterwards.
  Assignment a = s.assigner.Assign(info, counts, /*explain=*/true);
  if (a.mode != Assignment::Mode::kFit) {
    std::optional<Assignment> partial = SearchPartialAdmission<Assignment>(
        info, [&](std::vector<int32_t> reduced) -> std::optional<Assignment> {
          Assignment trial = s.assigner.Assign(info, reduced, /*explain=*/true);
          if (trial.mode != Assignment::Mode::kFit) return std::nullopt;
          return trial;
        });
    // Without a reduction that fits, the full counts tell why (as RunAdmission reports).
    if (partial) a = std::move(*partial);
  }
  out.attempts = std::move(a.attempts);
  if (a.mode != Assignment::Mode::kFit) {
    out.reason = std::move(a.reason);
    out.message = std::move(a.message);
    return out;
  }
  out.fits = true;
  out.admission = ToAdmission(s.admission.cq(queue.cq).name, a);
  return out;
}

void QuotaProbe::Commit(int32_t workload, const ProbeResult& result) {
  // Only a fitting result of this probe names one of its ClusterQueues: anything else is a
  // caller bug that would charge quota nowhere or twice.
  BERTH_CHECK(result.fits && state_ != nullptr, "QuotaProbe::Commit: not a fitting result");
  AdmissionState& admission = state_->admission;
  auto cq = admission.setup().cq_by_name.find(result.admission.cluster_queue);
  BERTH_CHECK(cq != admission.setup().cq_by_name.end(),
              "QuotaProbe::Commit: the result names no ClusterQueue of this cluster");
  Hold(admission, workload, cq->second, result.admission, state_->now);
}

void QuotaProbe::Release(int32_t workload) {
  if (state_ == nullptr || !state_->admission.held(workload).has_value()) return;
  state_->admission.Release(workload);
}

}  // namespace berth::queueing
