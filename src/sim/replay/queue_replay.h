// QueueReplay: berth simulate's engine-driven replay of a queued trace (Philly, Pollux,
// berth's formats) over virtual time against one cluster of a fleet: the cluster's own Kueue
// configuration (queueing::AdmissionScheduler kept across time: quota tree, flavor assignment
// with fungibility, borrowing and lending, preemption, fair sharing) and, when the cluster
// has nodes, its binding::Scheduler (every admitted job's pods bound all or nothing through
// GuestOracle). Events: arrivals, completions, the scenario's failures, drains and scale-ups;
// after each batch of simultaneous events (or every cycle_interval_ms) one Schedule call runs
// the cycles that batch causes, never a rescan of the trace. Deterministic: the same inputs
// give the same RunReport. Cost per event O(log events) plus the cycles and bindings it causes.
// Not thread-safe; runs are independent (the CLI may run several policies at once).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "model/snapshot.h"
#include "sim/replay/job_workloads.h"
#include "sim/replay/scenario.h"
#include "sim/report/run_report.h"
#include "sim/trace/queued_trace.h"

namespace berth::sim {

// The most metrics intervals one run may span (metrics.csv rows): a million, 1.9 years of
// virtual time at the default 60s interval. Each row costs about a hundred bytes and a
// pass over the queues, so a far-off event (a 100-year cold start) would otherwise fill
// gigabytes; beyond it the run is an error asking for a longer interval.
inline constexpr int64_t kMaxMetricsIntervals = 1'000'000;

struct QueueReplayOptions {
  JobShape shape;             // shape.cluster: the fleet's cluster the trace runs on
  int64_t until_ms = 0;       // stop there; 0: when every job has ended (or can never run)
  int64_t metrics_interval_ms = 60'000;
  int64_t cycle_interval_ms = 0;  // 0: a cycle after every batch of simultaneous events
  std::vector<ScenarioAction> actions;
  // A job's class in the report (parallel to the trace's jobs); empty: by GPUs ("1-gpu",
  // "2-8-gpu", "multi-node").
  std::vector<std::string> job_classes;
  std::string policy = "kueue";  // the run's name in the report
  // The binding profile the cluster's pods are scored with; nullopt: the fleet's own
  // KubeSchedulerConfiguration or kube-scheduler's defaults.
  std::optional<model::SchedulerConfig> scheduler_config;
  // Adds one pending pod per job (its pod template, never scheduled) to the world, so that
  // score plugins reading the snapshot's pods (FGD's typical-pod distribution) see the
  // trace's workload. Costs a pod per job; the CLI sets it for the GPU-sharing policies.
  bool workload_pods_for_scoring = false;
  // Called with the fraction of the trace's time span replayed, at most ~200 times a run.
  std::function<void(double)> progress;
  // Check the engine's invariants after every step (engine/invariants.h SimStepChecker);
  // a violation stops the run with an Internal error naming it. The CLI sets it in debug
  // builds and with BERTH_CHECK_INVARIANTS=1.
  bool check_invariants = false;
};

struct QueueReplayStats {
  int64_t events = 0;
  int64_t cycles = 0;
  int64_t admissions = 0;
  int64_t preemptions = 0;
  int64_t failures = 0;
  int64_t never_admitted = 0;  // jobs still pending at the end
  double wall_s = 0;
};

struct QueueReplayResult {
  report::RunReport report;
  QueueReplayStats stats;
};

// Replays `trace` on `fleet`. Errors (before anything runs): a queue of the trace that is no
// LocalQueue of the cluster, a scenario action matching no node, a bad option; each names the
// queue or action. Warnings (the run goes on): jobs larger than any flavor's quota. Internal:
// with options.check_invariants, a step broke an invariant (berth's bug).
core::Result<QueueReplayResult> RunQueueReplay(const model::Snapshot& fleet,
                                               const QueuedTrace& trace,
                                               const QueueReplayOptions& options,
                                               core::Diagnostics& diags);

}  // namespace berth::sim
