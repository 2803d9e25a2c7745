#include "server/metrics/queue_counts.h"

namespace berth::server {

namespace {

bool ConditionTrue(const model::Workload& w, const char* type) {
  const model::WorkloadCondition* c = w.FindCondition(type);
  return c != nullptr && c->status == "True";
}

}  // namespace

FleetQueueCounts CountQueues(const model::Snapshot& planned) {
  FleetQueueCounts out;
  std::map<std::pair<std::string, std::string>, std::string> lq_cq;  // (ns, lq) -> cq
  for (const model::ClusterQueue& cq : planned.cluster_queues) out.cluster_queues[cq.meta.name];
  for (const model::LocalQueue& lq : planned.local_queues) {
    lq_cq[{lq.meta.namespace_, lq.meta.name}] = lq.cluster_queue;
    out.local_queues[{lq.meta.namespace_, lq.meta.name}];
  }
  for (const model::Workload& w : planned.kueue_workloads) {
    if (ConditionTrue(w, "Finished")) continue;
    QueueCounts* lq = nullptr;
    if (auto it = out.local_queues.find({w.meta.namespace_, w.queue_name}); it != out.local_queues.end()) {
      lq = &it->second;
    }
    if (!w.admission) {
      const model::WorkloadCondition* qr = w.FindCondition("QuotaReserved");
      const bool inadmissible = qr != nullptr && qr->status == "False" && qr->reason == "Inadmissible";
      auto count = [&](QueueCounts& q) { (inadmissible ? q.pending_inadmissible : q.pending_active) += 1; };
      if (lq != nullptr) count(*lq);
      if (auto it = lq_cq.find({w.meta.namespace_, w.queue_name}); it != lq_cq.end()) {
        if (auto cq = out.cluster_queues.find(it->second); cq != out.cluster_queues.end()) count(cq->second);
      }
      continue;
    }
    const bool admitted = ConditionTrue(w, "Admitted");
    auto hold = [&](QueueCounts& q) {
      q.reserving += 1;
      if (admitted) q.admitted += 1;
      for (const model::PodSetAssignment& ps : w.admission->pod_set_assignments) {
        for (const auto& [resource, amount] : ps.resource_usage) {
          auto f = ps.flavors.find(resource);
          const std::pair<std::string, std::string> key{f == ps.flavors.end() ? "" : f->second, resource};
          q.reservation[key] += amount;
          if (admitted) q.usage[key] += amount;
        }
      }
    };
    hold(out.cluster_queues[w.admission->cluster_queue]);
    if (lq != nullptr) hold(*lq);
  }
  return out;
}

}  // namespace berth::server
