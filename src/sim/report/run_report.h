// RunReport and WriteReport: the output of `berth simulate --report DIR`. One RunReport per
// (trace, policy, seed) run; WriteReport writes summary.json, metrics.csv and report.html (one
// self-contained page: inline CSS and SVG, no network) into the directory. Called by the CLI
// after the runs; the Render* functions return the same bytes for tests. The same runs always
// give the same bytes: nothing depends on the clock, the locale or hash order.
// Pure functions of their inputs; thread-safe. Cost is linear in rows and samples, plus one
// sort per CDF.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "sim/core/run_metrics.h"

namespace berth::sim::report {

struct RunReport {
  std::string policy;
  uint64_t seed = 0;
  std::string trace;
  // From MetricsRecorder::Finish. A replay without jobs (the OpenB protocol) leaves the job
  // figures at zero; the writers leave out what a run did not measure (no jobs: no waits).
  RunMetrics metrics;
  // Arrival-only replays: arrived workload in whole % of capacity (0..130) -> GPU allocation
  // ratio in %. Empty when the run has no such curve.
  std::map<int, double> allocation_pct_by_arrived_pct;
  // Further end-of-run figures of the run, by stable snake_case name (for example
  // "frag_rate_pct_at_arrived_100"); written into metrics and compared across policies.
  std::vector<std::pair<std::string, double>> extra_metrics;
  // The scenario's events (failures, drains, scale-ups) in time order, marked on the time
  // charts: when, and what in a few words ("drain gpu-h100-0, gpu-h100-1").
  struct Event {
    int64_t at_ms = 0;
    std::string label;
  };
  std::vector<Event> events;
};

struct ReportOptions {
  // Written as summary.json's "berth_version" and in the page footer; the CLI passes its own.
  std::string berth_version = "unknown";
  std::string title = "berth simulate";
  // Each line of a chart is reduced to at most this many points (bucket means), so a 100-day
  // run at 60 s intervals still gives a page a browser opens at once.
  int max_points_per_series = 400;
};

// Writes DIR/summary.json, DIR/metrics.csv and DIR/report.html, creating DIR (and parents)
// when missing. Errors: kUnavailable naming the path when a directory or file cannot be
// created or written; kInvalidArgument for an empty run list.
core::Status WriteReport(const std::string& dir, const std::vector<RunReport>& runs,
                         const ReportOptions& options);

// The file contents WriteReport writes.
std::string RenderSummaryJson(const std::vector<RunReport>& runs, const ReportOptions& options);
std::string RenderMetricsCsv(const std::vector<RunReport>& runs);
std::string RenderHtml(const std::vector<RunReport>& runs, const ReportOptions& options);

}  // namespace berth::sim::report
