#include "queueing/admission_fair_sharing.h"

#include <cmath>
#include <limits>

#include "queueing/workload_info.h"

namespace berth::queueing {

double AfsAlpha(double elapsed_s, double half_life_s) {
  // Upstream returns 0 for a zero half-life; a negative elapsed time (lastUpdate after now)
  // would make α negative and grow the usage, so it counts as no time passed.
  if (half_life_s <= 0 || elapsed_s <= 0) return 0;
  return 1.0 - std::pow(0.5, elapsed_s / half_life_s);
}

double AfsDecayed(double old_value, double current, double elapsed_s, double half_life_s) {
  const double alpha = AfsAlpha(elapsed_s, half_life_s);
  return old_value * (1 - alpha) + current * alpha;
}

double AfsAmount(std::string_view resource, int64_t amount) {
  // The model keeps cpu in milli (io's ResourceUnits); Kueue sums AsApproximateFloat64, cores.
  const double v = static_cast<double>(amount);
  return resource == "cpu" ? v / 1000.0 : v;
}

AdmissionFairSharing::AdmissionFairSharing(const model::Snapshot& snapshot, const QueueSetup& setup,
                                           const model::AdmissionFairSharingConfig& config,
                                           const std::string& cluster, core::Timestamp now)
    : setup_(setup),
      snapshot_(snapshot),
      lqs_(snapshot.local_queues.size()),
      lq_of_wl_(snapshot.kueue_workloads.size(), -1) {
  for (const auto& [name, milli] : config.resource_weights_milli) {
    resource_weights_[name] = static_cast<double>(milli) / 1000.0;
  }
  const double half_life = static_cast<double>(config.usage_half_life_time_s);
  entry_alpha_ = AfsAlpha(static_cast<double>(config.usage_sampling_interval_s), half_life);

  // Current admitted usage per LocalQueue (the controller's GetAdmittedUsage).
  std::vector<std::map<std::string, double>> admitted(lqs_.size());
  for (size_t i = 0; i < snapshot.kueue_workloads.size(); ++i) {
    const model::Workload& wl = snapshot.kueue_workloads[i];
    if (wl.cluster != cluster) continue;
    auto it = setup.local_queue_by_key.find(wl.meta.namespace_ + "/" + wl.queue_name);
    if (it == setup.local_queue_by_key.end()) continue;
    lq_of_wl_[i] = it->second;
    if (!wl.admission || !ConditionTrue(wl, "Admitted") || ConditionTrue(wl, "Finished") ||
        ConditionTrue(wl, "Evicted")) {
      continue;
    }
    auto& into = admitted[static_cast<size_t>(it->second)];
    for (const auto& psa : wl.admission->pod_set_assignments) {
      for (const auto& [res, amount] : psa.resource_usage) into[res] += AfsAmount(res, amount);
    }
  }

  for (const auto& [key, index] : setup.local_queue_by_key) {
    const model::LocalQueue& lq = snapshot.local_queues[static_cast<size_t>(index)];
    LocalQueueUsage& u = lqs_[static_cast<size_t>(index)];
    u.weight = static_cast<double>(lq.fair_sharing_weight_milli) / 1000.0;
    for (const auto& [res, milli] : lq.consumed_resources_milli)
      u.consumed[res] = static_cast<double>(milli) / 1000.0;
    if (lq.consumed_last_update) {
      const double elapsed = static_cast<double>(now.unix_s - lq.consumed_last_update->unix_s);
      const auto& current = admitted[static_cast<size_t>(index)];
      for (const auto& [res, v] : current) u.consumed.emplace(res, 0.0);
      for (auto& [res, v] : u.consumed) {
        auto c = current.find(res);
        v = AfsDecayed(v, c == current.end() ? 0.0 : c->second, elapsed, half_life);
      }
    }
    Recompute(u);
  }
}

bool AdmissionFairSharing::Enabled(int32_t cq) const {
  return snapshot_.cluster_queues[static_cast<size_t>(setup_.cqs[static_cast<size_t>(cq)].index)]
      .usage_based_admission_fair_sharing;
}

double AdmissionFairSharing::WorkloadUsage(int32_t wl) const {
  const int32_t lq = LocalQueueOf(wl);
  return lq < 0 ? 0.0 : Usage(lq);
}

int32_t AdmissionFairSharing::AddEntryPenalty(int32_t wl, const model::Admission& admission) {
  const int32_t lq = LocalQueueOf(wl);
  if (lq < 0) return -1;
  LocalQueueUsage& u = lqs_[static_cast<size_t>(lq)];
  for (const auto& psa : admission.pod_set_assignments) {
    for (const auto& [res, amount] : psa.resource_usage) {
      u.penalty[res] += AfsAmount(res, amount) * entry_alpha_;
    }
  }
  Recompute(u);
  return lq;
}

void AdmissionFairSharing::Recompute(LocalQueueUsage& lq) const {
  // A weight of zero (or less, which the API rejects) makes the queue last whatever it used.
  if (lq.weight <= 0) {
    lq.usage = std::numeric_limits<double>::infinity();
    return;
  }
  // Consumed and penalty merged by resource, summed in name order so the float result does
  // not depend on insertion order.
  std::map<std::string, double> all = lq.consumed;
  for (const auto& [res, v] : lq.penalty) all[res] += v;
  double usage = 0;
  for (const auto& [res, v] : all) {
    auto w = resource_weights_.find(res);
    usage += (w == resource_weights_.end() ? 1.0 : w->second) * v;
  }
  lq.usage = usage / lq.weight;
}

double AdmissionFairSharing::ConsumedForTest(int32_t lq, const std::string& resource) const {
  const auto& m = lqs_[static_cast<size_t>(lq)].consumed;
  auto it = m.find(resource);
  return it == m.end() ? 0.0 : it->second;
}

double AdmissionFairSharing::PenaltyForTest(int32_t lq, const std::string& resource) const {
  const auto& m = lqs_[static_cast<size_t>(lq)].penalty;
  auto it = m.find(resource);
  return it == m.end() ? 0.0 : it->second;
}

}  // namespace berth::queueing
