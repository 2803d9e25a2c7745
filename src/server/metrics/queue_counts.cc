#include "server/metrics/queue_counts.h"

#include <unordered_map>

namespace berth::server {

namespace {

bool ConditionTrue(const model::Workload& w, const char* type) {
  const model::WorkloadCondition* c = w.FindCondition(type);
  return c != nullptr && c->status == "True";
}

}  // namespace

FleetQueueCounts CountQueues(const model::Snapshot& planned,
                             const std::unordered_set<std::string>* skip_clusters) {
  auto skipped = [skip_clusters](const std::string& cluster) {
    return skip_clusters != nullptr && skip_clusters->contains(cluster);
  };
  FleetQueueCounts out;
  for (const model::ClusterQueue& cq : planned.cluster_queues) {
    if (!skipped(cq.cluster)) out.cluster_queues[cq.meta.name];
  }
  // Each LocalQueue's counts and its ClusterQueue's (null when that does not exist), found by
  // one lookup per Workload: map nodes keep their addresses.
  struct Queues {
    QueueCounts* local = nullptr;
    QueueCounts* cluster = nullptr;
  };
  std::unordered_map<std::string, Queues> by_local_queue;  // "ns\x1fname"
  for (const model::LocalQueue& lq : planned.local_queues) {
    if (skipped(lq.cluster)) continue;
    Queues& q = by_local_queue[lq.meta.namespace_ + '\x1f' + lq.meta.name];
    q.local = &out.local_queues[{lq.meta.namespace_, lq.meta.name}];
    auto cq = out.cluster_queues.find(lq.cluster_queue);
    if (cq != out.cluster_queues.end()) q.cluster = &cq->second;
  }
  std::string key;
  for (const model::Workload& w : planned.kueue_workloads) {
    if (ConditionTrue(w, "Finished") || skipped(w.cluster)) continue;
    key.assign(w.meta.namespace_).append(1, '\x1f').append(w.queue_name);
    auto found = by_local_queue.find(key);
    const Queues queues = found == by_local_queue.end() ? Queues{} : found->second;
    QueueCounts* lq = queues.local;
    if (!w.admission) {
      const model::WorkloadCondition* qr = w.FindCondition("QuotaReserved");
      const bool inadmissible = qr != nullptr && qr->status == "False" && qr->reason == "Inadmissible";
      for (QueueCounts* q : {queues.local, queues.cluster}) {
        if (q != nullptr) (inadmissible ? q->pending_inadmissible : q->pending_active) += 1;
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
