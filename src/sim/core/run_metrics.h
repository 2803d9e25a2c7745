// RunMetrics: what one simulated run measured, as plain data: per-interval rows for the time
// charts and metrics.csv, and end-of-run figures (allocation, utilisation per flavor and GPU
// model, waits, JCT, makespan, preemption and failure cost, recovery from failures, tenant
// shares, fairness). Produced by MetricsRecorder::Finish
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
  // GPU-hours of work lost inside the interval: GPUs x (stop - attempt start) of the attempts
  // preempted or failed in it, booked when they stop.
  double preemption_gpu_hours_lost = 0;
  double failure_gpu_hours_lost = 0;
  // Time-weighted allocated / total GPU in % per flavor and per GPU model, in
  // RunMetrics::flavor_names and gpu_model_names order; NaN where that label had no capacity
  // in the interval.
  std::vector<double> allocated_pct_by_flavor;
  std::vector<double> allocated_pct_by_gpu_model;
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

// Time-weighted GPU allocation of one flavor or one GPU model: the GPUs of the jobs running
// there against the GPUs its pools had, integrated over the run.
struct LabelUtilisation {
  std::string name;
  double gpu_hours_available = 0;
  double gpu_hours_allocated = 0;
  // 100 * allocated / available; none when no capacity was recorded for the label.
  std::optional<double> allocated_pct;
};

// One failure in the fleet (a node, a GPU, a cluster lost) and what it cost.
struct FailureRecord {
  int64_t t_ms = 0;
  std::string what;  // as the simulator described it, e.g. "node gpu-a-7"
  int64_t jobs_hit = 0;
  double gpu_hours_lost = 0;  // work of the attempts it ended, to be rerun
  // From the failure until every job it hit was running again (or was cancelled); 0 when it
  // hit no job; none when some job never came back by the end of the run.
  std::optional<double> recovered_after_s;
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
  // Jobs that never came back: their last failure was not followed by a start (failed for
  // good, still pending at the end, or cancelled while waiting to rerun).
  int64_t jobs_not_recovered = 0;
  // Failures in the fleet, in time order (MetricsRecorder::RecordFailureEvent).
  std::vector<FailureRecord> failure_events;
  // Time to recover (FailureRecord::recovered_after_s) over the events that hit at least one
  // job and recovered; and the number of events that never recovered.
  DistributionSummary failure_recovery_s;
  int64_t failure_events_not_recovered = 0;

  // Utilisation per flavor and per GPU model (MetricsRecorder::RecordPoolCapacity and the
  // labels given to RecordStarted), sorted by name; empty when the run gave no labels.
  std::vector<LabelUtilisation> by_flavor;
  std::vector<LabelUtilisation> by_gpu_model;

  std::vector<TenantShare> tenants;  // sorted by name
  // Jain's index over the tenants' dominant shares, each divided by its entitlement when every
  // tenant has one (jain_by_entitlement), raw otherwise.
  double jain_index = 1;
  bool jain_by_entitlement = false;

  std::vector<std::string> queue_names;      // column order of IntervalRow::pending_by_queue
  std::vector<std::string> flavor_names;     // column order of IntervalRow::allocated_pct_by_flavor
  std::vector<std::string> gpu_model_names;  // ... of IntervalRow::allocated_pct_by_gpu_model
  std::vector<IntervalRow> rows;
  // Every started job's wait and every finished job's JCT, ascending (for CDF charts).
  std::vector<double> wait_samples_s;
  std::vector<double> jct_samples_s;
};

}  // namespace berth::sim
