#include "sim/report/internal/run_groups.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "sim/core/virtual_clock.h"

namespace berth::sim::report::internal {
namespace {

// Constructs in place: brace-initialized temporaries with long literal names trip GCC 12's
// -Warray-bounds at -O3 (a false positive) and the lead's build uses -Werror.
void Add(std::vector<Scalar>* out, std::string_view name, double value) {
  Scalar& s = out->emplace_back();
  s.name.assign(name.data(), name.size());
  s.value = value;
}

}  // namespace

std::vector<Scalar> ScalarMetrics(const RunReport& run) {
  const RunMetrics& m = run.metrics;
  std::vector<Scalar> out;
  out.reserve(24 + m.by_flavor.size() + m.by_gpu_model.size() + run.extra_metrics.size());
  if (m.gpu_hours_available > 0) {
    Add(&out, "gpu_allocation_pct", m.gpu_allocation_pct);
    if (m.frag_pct) {
      Add(&out, "frag_pct", *m.frag_pct);
    }
  }
  if (auto it = run.allocation_pct_by_arrived_pct.find(100);
      it != run.allocation_pct_by_arrived_pct.end()) {
    Add(&out, "unallocated_gpu_pct_at_arrived_100", 100.0 - it->second);
  }
  if (m.jobs_submitted > 0) {
    Add(&out, "wait_mean_s", m.wait_s.mean);
    Add(&out, "wait_p95_s", m.wait_s.p95);
    Add(&out, "jct_mean_s", m.jct_s.mean);
    Add(&out, "jct_p95_s", m.jct_s.p95);
    Add(&out, "jct_p99_s", m.jct_s.p99);
    Add(&out, "makespan_s", static_cast<double>(m.makespan_ms) / kMsPerSecond);
    Add(&out, "jobs_finished", static_cast<double>(m.jobs_finished));
    Add(&out, "preemptions", static_cast<double>(m.preemptions));
    Add(&out, "preemption_gpu_hours_lost", m.preemption_gpu_hours_lost);
    Add(&out, "failures", static_cast<double>(m.failures));
    Add(&out, "failure_gpu_hours_lost", m.failure_gpu_hours_lost);
    Add(&out, "jobs_not_recovered", static_cast<double>(m.jobs_not_recovered));
    if (!m.failure_events.empty()) {
      if (m.failure_recovery_s.count > 0) {
        Add(&out, "failure_recovery_mean_s", m.failure_recovery_s.mean);
        Add(&out, "failure_recovery_max_s", m.failure_recovery_s.max);
      }
      Add(&out, "failure_events_not_recovered",
          static_cast<double>(m.failure_events_not_recovered));
    }
    if (!m.tenants.empty()) {
      Add(&out, "jain_index", m.jain_index);
    }
  }
  for (const LabelUtilisation& u : m.by_flavor) {
    if (u.allocated_pct) Add(&out, "flavor_allocation_pct:" + u.name, *u.allocated_pct);
  }
  for (const LabelUtilisation& u : m.by_gpu_model) {
    if (u.allocated_pct) Add(&out, "gpu_model_allocation_pct:" + u.name, *u.allocated_pct);
  }
  for (const auto& [name, value] : run.extra_metrics) {
    Add(&out, name, value);
  }
  return out;
}

std::vector<RunGroup> GroupRuns(const std::vector<RunReport>& runs) {
  std::vector<RunGroup> groups;
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (size_t i = 0; i < runs.size(); ++i) {
    auto key = std::make_pair(runs[i].trace, runs[i].policy);
    auto [it, inserted] = index.emplace(key, groups.size());
    if (inserted) {
      groups.push_back({runs[i].trace, runs[i].policy, {}});
    }
    groups[it->second].runs.push_back(i);
  }
  return groups;
}

bool SeveralTraces(const std::vector<RunReport>& runs) {
  return std::any_of(runs.begin(), runs.end(),
                     [&](const RunReport& r) { return r.trace != runs.front().trace; });
}

size_t DistinctPolicies(const std::vector<RunReport>& runs) {
  std::set<std::string> policies;
  for (const RunReport& r : runs) {
    policies.insert(r.policy);
  }
  return policies.size();
}

std::string GroupLabel(const RunGroup& group, bool several_traces) {
  return several_traces ? group.trace + " / " + group.policy : group.policy;
}

std::vector<ComparedMetric> CompareGroup(const std::vector<RunReport>& runs,
                                         const RunGroup& group) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> values;
  for (size_t i : group.runs) {
    for (Scalar& s : ScalarMetrics(runs[i])) {
      auto [it, inserted] = values.try_emplace(s.name);
      if (inserted) {
        order.push_back(s.name);
      }
      it->second.push_back(s.value);
    }
  }
  std::vector<ComparedMetric> out;
  out.reserve(order.size());
  for (const std::string& name : order) {
    out.push_back({name, ComputeMeanSd(values[name])});
  }
  return out;
}

}  // namespace berth::sim::report::internal
