// The tables of report.html: every run's end-of-run figures, the comparison of (trace, policy)
// groups (mean ± sample sd over seeds) and the failures and their recovery per group. Each
// returns an HTML <table> (empty string when it has nothing to show), with every input text
// escaped. Called by html_report.cc only. Pure functions; O(runs x figures).
#pragma once

#include <string>
#include <vector>

#include "sim/report/internal/run_groups.h"
#include "sim/report/run_report.h"

namespace berth::sim::report::internal {

// Column title of a figure named by ScalarMetrics ("gpu_allocation_pct" -> "GPU alloc %").
std::string PrettyMetricName(const std::string& name);

std::string RunsTable(const std::vector<RunReport>& runs);
std::string ComparisonTable(const std::vector<RunReport>& runs,
                            const std::vector<RunGroup>& groups);
// One row per group whose runs recorded failures: failure events, jobs hit, GPU-hours rerun,
// events never recovered and jobs that never came back (each the mean per run), and the time
// to recover (mean and max over every recovered failure of the group's runs). "" when no run
// had a failure.
std::string FailureTable(const std::vector<RunReport>& runs, const std::vector<RunGroup>& groups,
                         bool several_traces);

}  // namespace berth::sim::report::internal
