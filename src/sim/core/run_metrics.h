// RunMetrics: what one simulated run measured, as plain data: per-interval rows for the time
// charts and metrics.csv, and end-of-run figures (allocation, waits, JCT, makespan,
// preemption and failure cost, tenant shares, fairness). Produced by MetricsRecorder::Finish
// (or filled by a replay that has no time axis), read by sim/report. Plain value types;
// thread-compatible. Times are in milliseconds of virtual time, durations reported in seconds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/stats.h"

namespace berth::sim {

// One interval [start_ms, end_ms) of a run. Percentages are time-weighted means over the
// interval; running and pending are the values at end_ms; the counts are events inside it. An
// event exactly on a boundary counts in the interval it opens, except at the end of the run,
// where it counts in the last interval.
struct IntervalRow {
  int64_t start_ms = 0;
  int64_t end_ms = 0;
  double allocated_pct = 0;        // allocated GPU / total GPU, in %
  std::optional<double> frag_pct;  // fragmented GPU / total GPU in %, when the run gives it
  int64_t running = 0;
  int64_t pending = 0;
  std::vector<int64_t> pending_by_queue;  // in RunMetrics::queue_names order
  int64_t submitted = 0;
  int64_t started = 0;
  int64_t finished = 0;
  int64_t preemptions = 0;
  int64_t failures = 0;
};

// Waiting time and JCT of the jobs of one queue or one workload class, in seconds.
struct GroupStats {
  std::string name;
  DistributionSummary wait_s;
  DistributionSummary jct_s;
};

// One tenant's time-averaged share of the cluster: for each resource, the tenant's
// resource-time used divided by the cluster's resource-time available over the run; the
// dominant share is the largest of those whose capacity was known (DRF's dominant share).
struct TenantShare {
  std::string tenant;
  double entitlement = 0;  // the share it is entitled to, in [0, 1]; 0 when none was given
  double gpu_share = 0;
  double cpu_share = 0;
  double memory_share = 0;
  double dominant_share = 0;
  double gpu_hours = 0;
  int64_t jobs = 0;
};

struct RunMetrics {
  int64_t start_ms = 0;  // first recorded event
  int64_t end_ms = 0;    // the end passed to Finish

  int64_t jobs_submitted = 0;
  int64_t jobs_started = 0;  // started at least once
  int64_t jobs_finished = 0;
  int64_t jobs_failed = 0;  // failed and not requeued: never came back
  int64_t jobs_cancelled = 0;
  int64_t jobs_running_at_end = 0;
  int64_t jobs_pending_at_end = 0;
  int64_t jobs_never_started = 0;  // not cancelled, never started

  // 100 * (integral of allocated GPU) / (integral of total GPU) from the first capacity
  // sample to the end: the time-weighted GPU allocation ratio, correct when capacity changes.
  double gpu_allocation_pct = 0;
  std::optional<double> frag_pct;  // same weighting, for the fragmentation amount
  double gpu_hours_available = 0;
  double gpu_hours_allocated = 0;

  // Queueing delay (first start - submission) of jobs that started, and JCT (finish -
  // submission) of jobs that finished, in seconds; nearest-rank percentiles.
  DistributionSummary wait_s;
  DistributionSummary jct_s;
  std::vector<GroupStats> by_queue;  // sorted by name
  std::vector<GroupStats> by_class;  // sorted by name
  // Last time a job left (finished, failed for good, cancelled) minus the first submission.
  int64_t makespan_ms = 0;

  int64_t preemptions = 0;
  double preemption_gpu_hours_lost = 0;  // GPU-hours since each preempted attempt's start
  int64_t failures = 0;
  double failure_gpu_hours_lost = 0;  // GPU-hours rerun: work since the failed attempt's start
  DistributionSummary recovery_s;     // failure -> next start of the same job, in seconds
  int64_t jobs_not_recovered = 0;     // jobs whose last failure was not followed by a start

  std::vector<TenantShare> tenants;  // sorted by name
  // Jain's index over the tenants' dominant shares, each divided by its entitlement when every
  // tenant has one (jain_by_entitlement), raw otherwise.
  double jain_index = 1;
  bool jain_by_entitlement = false;

  std::vector<std::string> queue_names;  // column order of IntervalRow::pending_by_queue
  std::vector<IntervalRow> rows;
  // Every started job's wait and every finished job's JCT, ascending (for CDF charts).
  std::vector<double> wait_samples_s;
  std::vector<double> jct_samples_s;
};

}  // namespace berth::sim
