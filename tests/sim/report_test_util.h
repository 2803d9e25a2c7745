// Runs for the sim/report tests: a small seeded job replay with every kind of figure the report
// draws (labels, a preemption, a failure event, tenants with entitlements) and an arrival-only
// replay with its curve, plus the chart keys such a report has. Used by report_writer_test.cc
// and report_browser_test.cc. Deterministic; not thread-safe only in that each call builds anew.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/report/run_report.h"

namespace berth::sim::report::testing {

// 40 jobs of two tenants (entitled to half each) in queues q-a and queue_b on 8 GPUs in two
// pools (flavor spot with A100s, flavor on-demand with H100s), 60 s intervals; job 5 is
// preempted and job 7 is hit by the failure event "node n<1>" and runs again 4 s later.
RunReport MakeRun(const std::string& policy, uint64_t seed, const std::string& queue_b = "q-b");

// An arrival-only replay (the OpenB protocol): a curve from 0 to 130 % arrived and no jobs.
RunReport MakeCurveRun(const std::string& policy, uint64_t seed, double at_100);

// Report options with berth_version "0.1.0-test".
ReportOptions Options();

// The data-chart keys of every chart a report of MakeRun runs has.
std::vector<std::string> ChartKeys();

}  // namespace berth::sim::report::testing
