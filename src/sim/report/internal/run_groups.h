// How the report writers see a list of runs: grouped by (trace, policy) in first-appearance
// order (the seeds of one configuration form a group), each run's scalar end-of-run figures in
// a fixed order, and each group's mean and sample sd of those figures (the comparison table).
// Internal to sim/report. Pure functions; O(runs x figures).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sim/core/stats.h"
#include "sim/report/run_report.h"

namespace berth::sim::report::internal {

struct Scalar {
  std::string name;
  double value = 0;
};

// The run's figures that it measured: capacity figures when it sampled capacity, the
// unallocated GPU % at 100 % arrived when its curve has that point, job figures when it had
// jobs (with the time to recover when it had failure events), the allocation % per flavor and
// GPU model ("flavor_allocation_pct:<name>", "gpu_model_allocation_pct:<name>") when known,
// then its extra_metrics. Names are stable snake_case with units.
std::vector<Scalar> ScalarMetrics(const RunReport& run);

struct RunGroup {
  std::string trace;
  std::string policy;
  std::vector<size_t> runs;  // indices into the run list, in input order
};
std::vector<RunGroup> GroupRuns(const std::vector<RunReport>& runs);

// Display name of a group: the policy, prefixed by the trace when runs cover several traces.
std::string GroupLabel(const RunGroup& group, bool several_traces);
bool SeveralTraces(const std::vector<RunReport>& runs);
size_t DistinctPolicies(const std::vector<RunReport>& runs);

struct ComparedMetric {
  std::string name;
  MeanSd stats;
};
// Mean and sample sd over the group's runs of every figure, in the order of first appearance;
// a figure missing from some runs is summarized over the runs that have it (n says how many).
std::vector<ComparedMetric> CompareGroup(const std::vector<RunReport>& runs, const RunGroup& group);

}  // namespace berth::sim::report::internal
