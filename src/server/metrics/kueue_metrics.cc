// Gauges are recomputed from the whole planned snapshot after each cycle (linear in its
// Kueue objects), so a deleted queue's series disappear; counters only ever grow and live
// for the process, as a Prometheus counter does.
#include "server/metrics/kueue_metrics.h"

#include <map>
#include <tuple>
#include <utility>

#include "core/time.h"

namespace berth::server {

namespace {

using Json = nlohmann::ordered_json;

double KueueAmount(const std::string& resource, int64_t v) {
  return resource == "cpu" ? static_cast<double>(v) / 1000.0 : static_cast<double>(v);
}

// The condition `type` of a Workload's JSON when its status is "True"; null otherwise.
const Json* TrueCondition(const Json& wl, std::string_view type) {
  auto st = wl.find("status");
  if (st == wl.end() || !st->is_object()) return nullptr;
  auto cs = st->find("conditions");
  if (cs == st->end() || !cs->is_array()) return nullptr;
  for (const Json& c : *cs) {
    if (c.is_object() && c.value("type", "") == type && c.value("status", "") == "True") return &c;
  }
  return nullptr;
}

std::string ClusterQueueOf(const Json& wl) {
  auto st = wl.find("status");
  if (st == wl.end() || !st->is_object()) return "";
  auto ad = st->find("admission");
  if (ad == st->end() || !ad->is_object()) return "";
  return ad->value("clusterQueue", "");
}

int64_t CreationOf(const Json& wl) {
  auto m = wl.find("metadata");
  if (m == wl.end() || !m->is_object()) return 0;
  auto ts = core::Timestamp::Parse(m->value("creationTimestamp", ""));
  return ts ? ts->unix_s : 0;
}

std::string PriorityClassOf(const Json& wl) {
  auto spec = wl.find("spec");
  if (spec == wl.end() || !spec->is_object()) return "";
  if (auto ref = spec->find("priorityClassRef"); ref != spec->end() && ref->is_object()) {
    return ref->value("name", "");
  }
  return spec->value("priorityClassName", "");
}

}  // namespace

void DescribeKueueMetrics(MetricsRegistry& r) {
  using T = MetricType;
  r.Describe("kueue_pending_workloads", T::kGauge,
             "The number of pending workloads, per 'cluster_queue' and 'status' (active or inadmissible)");
  r.Describe("kueue_local_queue_pending_workloads", T::kGauge,
             "The number of pending workloads, per local queue and 'status'");
  r.Describe("kueue_reserving_active_workloads", T::kGauge,
             "The number of workloads that are reserving quota, per 'cluster_queue'");
  r.Describe("kueue_admitted_active_workloads", T::kGauge,
             "The number of admitted workloads that are active (unsuspended and not finished), per 'cluster_queue'");
  r.Describe("kueue_cluster_queue_resource_reservation", T::kGauge,
             "Reports the cluster_queue's total resource reservation within all the flavors");
  r.Describe("kueue_cluster_queue_resource_usage", T::kGauge,
             "Reports the cluster_queue's total resource usage within all the flavors");
  r.Describe("kueue_cluster_queue_nominal_quota", T::kGauge,
             "Reports the cluster_queue's resource nominal quota within all the flavors");
  r.Describe("kueue_cluster_queue_borrowing_limit", T::kGauge,
             "Reports the cluster_queue's resource borrowing limit within all the flavors");
  r.Describe("kueue_cluster_queue_lending_limit", T::kGauge,
             "Reports the cluster_queue's resource lending limit within all the flavors");
  r.Describe("kueue_cluster_queue_status", T::kGauge,
             "Reports 'cluster_queue' with its 'status' (pending, active or terminated)");
  r.Describe("kueue_quota_reserved_workloads_total", T::kCounter,
             "The total number of quota reserved workloads per 'cluster_queue'");
  r.Describe("kueue_admitted_workloads_total", T::kCounter,
             "The total number of admitted workloads per 'cluster_queue'");
  r.Describe("kueue_evicted_workloads_total", T::kCounter,
             "The number of evicted workloads per 'cluster_queue' and 'reason'");
  r.Describe("kueue_quota_reserved_wait_time_seconds", T::kHistogram,
             "The time between a workload was created or requeued until it got quota reservation, per 'cluster_queue'",
             KueueBuckets());
  r.Describe("kueue_admission_wait_time_seconds", T::kHistogram,
             "The time between a workload was created or requeued until admission, per 'cluster_queue'",
             KueueBuckets());
}

void UpdateKueueGauges(const model::Snapshot& planned, const FleetQueueCounts& counts,
                       const std::string& role, MetricsRegistry& registry) {
  const FleetQueueCounts& cq_counts = counts;
  std::map<std::string, std::string> cohort_of;  // cluster queue -> cohort
  for (const model::ClusterQueue& cq : planned.cluster_queues) cohort_of[cq.meta.name] = cq.cohort;
  std::map<std::pair<std::string, std::string>, double> pending;  // (cq, status)
  std::map<std::tuple<std::string, std::string, std::string>, double> lq_pending;  // ns, lq, status
  std::map<std::string, double> reserving, admitted;
  using ResKey = std::tuple<std::string, std::string, std::string>;  // cq, flavor, resource
  std::map<ResKey, double> reservation, usage;
  for (const auto& [cq, q] : counts.cluster_queues) {
    pending[{cq, "active"}] = static_cast<double>(q.pending_active);
    pending[{cq, "inadmissible"}] = static_cast<double>(q.pending_inadmissible);
    if (q.reserving > 0) reserving[cq] = static_cast<double>(q.reserving);
    if (q.admitted > 0) admitted[cq] = static_cast<double>(q.admitted);
    for (const auto& [key, amount] : q.reservation) {
      reservation[{cq, key.first, key.second}] = KueueAmount(key.second, amount);
    }
    for (const auto& [key, amount] : q.usage) usage[{cq, key.first, key.second}] = KueueAmount(key.second, amount);
  }
  for (const auto& [lq, q] : counts.local_queues) {
    if (q.pending_active > 0) lq_pending[{lq.first, lq.second, "active"}] = static_cast<double>(q.pending_active);
    if (q.pending_inadmissible > 0) {
      lq_pending[{lq.first, lq.second, "inadmissible"}] = static_cast<double>(q.pending_inadmissible);
    }
  }

  auto cq_labels = [&](const std::string& cq) { return MetricLabels{{"cluster_queue", cq}, {"replica_role", role}}; };
  std::vector<std::pair<MetricLabels, double>> out;
  // Only the queues counted (a member cluster's own queues are its Kueue's to report).
  for (const model::ClusterQueue& cq : planned.cluster_queues) {
    if (!counts.cluster_queues.contains(cq.meta.name)) continue;
    for (const char* status : {"active", "inadmissible"}) {
      auto it = pending.find({cq.meta.name, status});
      out.push_back({{{"cluster_queue", cq.meta.name}, {"status", status}, {"replica_role", role}},
                     it == pending.end() ? 0 : it->second});
    }
  }
  registry.ReplaceGauge("kueue_pending_workloads", std::move(out));
  out.clear();
  for (const auto& [key, n] : lq_pending) {
    out.push_back({{{"name", std::get<1>(key)}, {"namespace", std::get<0>(key)}, {"status", std::get<2>(key)},
                    {"replica_role", role}},
                   n});
  }
  registry.ReplaceGauge("kueue_local_queue_pending_workloads", std::move(out));
  for (auto [family, counts] : {std::pair{"kueue_reserving_active_workloads", &reserving},
                                std::pair{"kueue_admitted_active_workloads", &admitted}}) {
    out.clear();
    for (const model::ClusterQueue& cq : planned.cluster_queues) {
      if (!cq_counts.cluster_queues.contains(cq.meta.name)) continue;
      auto it = counts->find(cq.meta.name);
      out.push_back({cq_labels(cq.meta.name), it == counts->end() ? 0 : it->second});
    }
    registry.ReplaceGauge(family, std::move(out));
  }
  auto res_labels = [&](const std::string& cq, const std::string& flavor, const std::string& resource) {
    return MetricLabels{{"cohort", cohort_of[cq]}, {"cluster_queue", cq}, {"flavor", flavor},
                        {"resource", resource}, {"replica_role", role}};
  };
  for (auto [family, sums] : {std::pair{"kueue_cluster_queue_resource_reservation", &reservation},
                              std::pair{"kueue_cluster_queue_resource_usage", &usage}}) {
    out.clear();
    for (const auto& [key, v] : *sums) {
      out.push_back({res_labels(std::get<0>(key), std::get<1>(key), std::get<2>(key)), v});
    }
    registry.ReplaceGauge(family, std::move(out));
  }
  std::vector<std::pair<MetricLabels, double>> nominal, borrowing, lending, status;
  for (const model::ClusterQueue& cq : planned.cluster_queues) {
    if (!counts.cluster_queues.contains(cq.meta.name)) continue;
    status.push_back({{{"cluster_queue", cq.meta.name}, {"status", "active"}, {"replica_role", role}}, 1});
    for (const model::ResourceGroup& rg : cq.resource_groups) {
      for (const model::FlavorQuotas& fq : rg.flavors) {
        for (const model::ResourceQuota& q : fq.resources) {
          const std::string& resource = planned.resources.Name(q.resource);
          MetricLabels labels = res_labels(cq.meta.name, fq.flavor, resource);
          nominal.push_back({labels, KueueAmount(resource, q.nominal)});
          if (q.borrowing_limit) {
            borrowing.push_back({labels, KueueAmount(resource, *q.borrowing_limit)});
          }
          if (q.lending_limit) {
            lending.push_back({labels, KueueAmount(resource, *q.lending_limit)});
          }
        }
      }
    }
  }
  registry.ReplaceGauge("kueue_cluster_queue_nominal_quota", std::move(nominal));
  registry.ReplaceGauge("kueue_cluster_queue_borrowing_limit", std::move(borrowing));
  registry.ReplaceGauge("kueue_cluster_queue_lending_limit", std::move(lending));
  registry.ReplaceGauge("kueue_cluster_queue_status", std::move(status));
}

void RecordWorkloadTransition(const Json* before, const Json& after, int64_t now_s,
                              const std::string& role, MetricsRegistry& registry) {
  const std::string cq = ClusterQueueOf(after);
  const std::string priority_class = PriorityClassOf(after);
  const double waited = static_cast<double>(std::max<int64_t>(0, now_s - CreationOf(after)));
  auto newly = [&](std::string_view type) {
    return TrueCondition(after, type) != nullptr &&
           (before == nullptr || TrueCondition(*before, type) == nullptr);
  };
  if (!cq.empty()) {
    const MetricLabels labels{{"cluster_queue", cq}, {"priority_class", priority_class}, {"replica_role", role}};
    if (newly("QuotaReserved")) {
      registry.Add("kueue_quota_reserved_workloads_total", labels);
      registry.Observe("kueue_quota_reserved_wait_time_seconds", labels, waited);
    }
    if (newly("Admitted")) {
      registry.Add("kueue_admitted_workloads_total", labels);
      registry.Observe("kueue_admission_wait_time_seconds", labels, waited);
    }
  }
  if (newly("Evicted")) {
    const Json* c = TrueCondition(after, "Evicted");
    const std::string evicted_from = before != nullptr ? ClusterQueueOf(*before) : cq;
    registry.Add("kueue_evicted_workloads_total",
                 {{"cluster_queue", evicted_from}, {"reason", c->value("reason", "")}, {"replica_role", role}});
  }
}

}  // namespace berth::server
