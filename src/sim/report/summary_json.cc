// summary.json: one object per run plus, for several policies, the comparison. Keys keep the
// order they are written in (nlohmann::ordered_json), numbers print in their shortest
// round-trip form, and NaN prints as null, so the file is the same bytes for the same runs.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/core/virtual_clock.h"
#include "sim/report/internal/run_groups.h"
#include "sim/report/run_report.h"

namespace berth::sim::report {
namespace {

using Json = nlohmann::ordered_json;

Json Number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json Distribution(const DistributionSummary& d) {
  Json j = Json::object();
  j["count"] = d.count;
  j["mean"] = Number(d.mean);
  j["p50"] = Number(d.p50);
  j["p95"] = Number(d.p95);
  j["p99"] = Number(d.p99);
  j["max"] = Number(d.max);
  return j;
}

// {item.name: entry(item)} over `items`, in their order.
template <typename T, typename Entry>
Json ByName(const std::vector<T>& items, Entry entry) {
  Json j = Json::object();
  for (const T& item : items) j[item.name] = entry(item);
  return j;
}

Json Groups(const std::vector<GroupStats>& groups) {
  return ByName(groups, [](const GroupStats& g) {
    Json e = Json::object();
    e["wait_s"] = Distribution(g.wait_s);
    e["jct_s"] = Distribution(g.jct_s);
    return e;
  });
}

// {name: {allocated_pct, gpu_hours_allocated, gpu_hours_available}} in name order.
Json Utilisation(const std::vector<LabelUtilisation>& labels) {
  return ByName(labels, [](const LabelUtilisation& u) {
    Json e = Json::object();
    e["allocated_pct"] = u.allocated_pct ? Number(*u.allocated_pct) : Json(nullptr);
    e["gpu_hours_allocated"] = Number(u.gpu_hours_allocated);
    e["gpu_hours_available"] = Number(u.gpu_hours_available);
    return e;
  });
}

Json FailureEvents(const std::vector<FailureRecord>& events) {
  Json j = Json::array();
  for (const FailureRecord& f : events) {
    Json e = Json::object();
    e["t_s"] = Number(static_cast<double>(f.t_ms) / kMsPerSecond);
    e["what"] = f.what;
    e["jobs_hit"] = f.jobs_hit;
    e["gpu_hours_lost"] = Number(f.gpu_hours_lost);
    e["recovered_after_s"] = f.recovered_after_s ? Number(*f.recovered_after_s) : Json(nullptr);
    j.push_back(std::move(e));
  }
  return j;
}

Json Metrics(const RunReport& run) {
  const RunMetrics& m = run.metrics;
  Json j = Json::object();
  if (m.gpu_hours_available > 0) {
    j["gpu_allocation_pct"] = Number(m.gpu_allocation_pct);
    j["frag_pct"] = m.frag_pct ? Number(*m.frag_pct) : Json(nullptr);
    j["gpu_hours_available"] = Number(m.gpu_hours_available);
    j["gpu_hours_allocated"] = Number(m.gpu_hours_allocated);
  }
  if (auto it = run.allocation_pct_by_arrived_pct.find(100);
      it != run.allocation_pct_by_arrived_pct.end()) {
    j["unallocated_gpu_pct_at_arrived_100"] = Number(100.0 - it->second);
  }
  if (m.jobs_submitted > 0) {
    Json jobs = Json::object();
    jobs["submitted"] = m.jobs_submitted;
    jobs["started"] = m.jobs_started;
    jobs["finished"] = m.jobs_finished;
    jobs["failed"] = m.jobs_failed;
    jobs["cancelled"] = m.jobs_cancelled;
    jobs["running_at_end"] = m.jobs_running_at_end;
    jobs["pending_at_end"] = m.jobs_pending_at_end;
    jobs["never_started"] = m.jobs_never_started;
    j["jobs"] = std::move(jobs);
    j["wait_s"] = Distribution(m.wait_s);
    j["jct_s"] = Distribution(m.jct_s);
    j["by_queue"] = Groups(m.by_queue);
    j["by_class"] = Groups(m.by_class);
    j["makespan_s"] = Number(static_cast<double>(m.makespan_ms) / kMsPerSecond);
    j["preemptions"] = m.preemptions;
    j["preemption_gpu_hours_lost"] = Number(m.preemption_gpu_hours_lost);
    j["failures"] = m.failures;
    j["failure_gpu_hours_lost"] = Number(m.failure_gpu_hours_lost);
    j["recovery_s"] = Distribution(m.recovery_s);
    j["jobs_not_recovered"] = m.jobs_not_recovered;
    j["failure_recovery_s"] = Distribution(m.failure_recovery_s);
    j["failure_events_not_recovered"] = m.failure_events_not_recovered;
    j["failure_events"] = FailureEvents(m.failure_events);
    Json tenants = Json::array();
    for (const TenantShare& t : m.tenants) {
      Json e = Json::object();
      e["tenant"] = t.tenant;
      e["entitlement"] = Number(t.entitlement);
      e["dominant_share"] = Number(t.dominant_share);
      e["gpu_share"] = Number(t.gpu_share);
      e["cpu_share"] = Number(t.cpu_share);
      e["memory_share"] = Number(t.memory_share);
      e["gpu_hours"] = Number(t.gpu_hours);
      e["jobs"] = t.jobs;
      tenants.push_back(std::move(e));
    }
    j["tenants"] = std::move(tenants);
    j["jain_index"] = Number(m.jain_index);
    j["jain_by_entitlement"] = m.jain_by_entitlement;
  }
  if (!m.by_flavor.empty()) {
    j["utilisation_by_flavor"] = Utilisation(m.by_flavor);
  }
  if (!m.by_gpu_model.empty()) {
    j["utilisation_by_gpu_model"] = Utilisation(m.by_gpu_model);
  }
  j["interval_rows"] = m.rows.size();
  for (const auto& [name, value] : run.extra_metrics) {
    j[name] = Number(value);
  }
  return j;
}

}  // namespace

std::string RenderSummaryJson(const std::vector<RunReport>& runs, const ReportOptions& options) {
  Json root = Json::object();
  root["berth_version"] = options.berth_version;
  Json list = Json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunReport& run = runs[i];
    Json r = Json::object();
    r["run"] = i;
    r["policy"] = run.policy;
    r["seed"] = run.seed;
    r["trace"] = run.trace;
    r["metrics"] = Metrics(run);
    if (!run.allocation_pct_by_arrived_pct.empty()) {
      Json curve = Json::object();
      for (const auto& [pct, value] : run.allocation_pct_by_arrived_pct) {
        curve[std::to_string(pct)] = Number(value);
      }
      r["allocation_pct_by_arrived_pct"] = std::move(curve);
    }
    list.push_back(std::move(r));
  }
  root["runs"] = std::move(list);
  if (internal::DistinctPolicies(runs) >= 2) {
    Json groups = Json::array();
    for (const internal::RunGroup& g : internal::GroupRuns(runs)) {
      Json e = Json::object();
      e["trace"] = g.trace;
      e["policy"] = g.policy;
      e["runs"] = g.runs.size();
      Json seeds = Json::array();
      for (size_t i : g.runs) {
        seeds.push_back(runs[i].seed);
      }
      e["seeds"] = std::move(seeds);
      Json metrics = Json::object();
      for (const internal::ComparedMetric& c : internal::CompareGroup(runs, g)) {
        Json s = Json::object();
        s["mean"] = Number(c.stats.mean);
        s["sd"] = Number(c.stats.sd);
        s["n"] = c.stats.n;
        metrics[c.name] = std::move(s);
      }
      e["metrics"] = std::move(metrics);
      groups.push_back(std::move(e));
    }
    Json comparison = Json::object();
    comparison["sd"] = "sample standard deviation over the seeds of each (trace, policy)";
    comparison["groups"] = std::move(groups);
    root["comparison"] = std::move(comparison);
  }
  // Invalid UTF-8 in a trace's names is replaced rather than thrown on (berth throws nothing).
  return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace berth::sim::report
