// sim/replay RunQueueReplay without failures: a quota-only cluster (admitted is running), a
// cluster with nodes where a 2-node job waits for two whole free nodes while admitted by
// quota, priority preemption, the run's end at `until`, determinism, and the errors found
// before anything runs. Waits and JCTs are hand-computed from the tiny traces.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/replay/queue_replay.h"
#include "sim/replay_test_util.h"
#include "sim/report/run_report.h"
#include "sim/trace/values.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

using replay_test::FleetBuilder;
using replay_test::JctOf;
using replay_test::JobSpec;
using replay_test::kGpuHour;
using replay_test::MustRun;
using replay_test::OneClassPerJob;
using replay_test::Trace;
using replay_test::WaitOf;

TEST(ReplayQueueTest, QuotaOnlyClusterRunsWhatIsAdmitted) {
  // 8 GPUs of quota, no nodes. j0 (8 GPUs, 0-100 s) holds it all; j1 and j2 (4 GPUs each)
  // arrive at 10 s and 20 s and both start when j0 ends at 100 s.
  const model::Snapshot fleet = FleetBuilder(8).Build();
  const QueuedTrace trace = Trace({{0, 100, 8}, {10, 50, 4}, {20, 10, 4}});
  const QueueReplayResult r = MustRun(fleet, trace, OneClassPerJob(3));
  const RunMetrics& m = r.report.metrics;
  EXPECT_EQ(m.jobs_submitted, 3);
  EXPECT_EQ(m.jobs_finished, 3);
  EXPECT_EQ(m.jobs_pending_at_end, 0);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j0"), 0);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j1"), 90);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j2"), 80);
  EXPECT_DOUBLE_EQ(JctOf(m, "j0"), 100);
  EXPECT_DOUBLE_EQ(JctOf(m, "j1"), 140);
  EXPECT_DOUBLE_EQ(JctOf(m, "j2"), 90);
  EXPECT_EQ(m.wait_s.count, 3);
  EXPECT_NEAR(m.wait_s.mean, 170.0 / 3, 1e-9);
  EXPECT_EQ(m.makespan_ms, 150'000);
  // Capacity is the nominal quota: 8 GPUs x 150 s; allocated 8 x 110 + 4 x 40.
  EXPECT_NEAR(m.gpu_hours_available, 8 * 150 / kGpuHour, 1e-9);
  EXPECT_NEAR(m.gpu_hours_allocated, (8 * 110 + 4 * 40) / kGpuHour, 1e-9);
  EXPECT_NEAR(m.gpu_allocation_pct, 100.0 * 1040 / 1200, 1e-9);
  ASSERT_EQ(m.by_queue.size(), 1u);
  EXPECT_EQ(m.by_queue[0].name, "ml/lq");
  EXPECT_EQ(r.stats.admissions, 3);
  EXPECT_EQ(r.stats.preemptions, 0);
  EXPECT_EQ(r.stats.never_admitted, 0);
  EXPECT_EQ(r.report.policy, "kueue");
  EXPECT_EQ(r.report.trace, "test-trace");
}

TEST(ReplayQueueTest, DefaultClassesAreByGpus) {
  const model::Snapshot fleet = FleetBuilder(64).Build();
  const QueuedTrace trace = Trace({{0, 10, 1}, {0, 10, 8}, {0, 10, 16}, {0, 10, 0}});
  const QueueReplayResult r = MustRun(fleet, trace, QueueReplayOptions{});
  std::vector<std::string> names;
  for (const GroupStats& g : r.report.metrics.by_class) {
    names.push_back(g.name + ":" + std::to_string(g.jct_s.count));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"1-gpu:2", "2-8-gpu:1", "multi-node:1"}));
}

TEST(ReplayQueueTest, MultiNodeJobWaitsForWholeFreeNodes) {
  // Two 8-GPU nodes and quota for 64: every job is admitted at once. j2 (16 GPUs: two pods of
  // 8) holds its quota but binds only when both nodes are empty, at 110 s when j0 and j1
  // have ended; j3 (4 GPUs) arriving at 30 s fits beside them and runs at once.
  const model::Snapshot fleet = FleetBuilder(64).Node("n0").Node("n1").Build();
  const QueuedTrace trace = Trace({{0, 100, 4}, {10, 100, 4}, {20, 50, 16}, {30, 10, 4}});
  const QueueReplayResult r = MustRun(fleet, trace, OneClassPerJob(4));
  const RunMetrics& m = r.report.metrics;
  EXPECT_EQ(m.jobs_finished, 4);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j0"), 0);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j1"), 0);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j2"), 90);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j3"), 0);
  EXPECT_DOUBLE_EQ(JctOf(m, "j2"), 140);
  EXPECT_DOUBLE_EQ(JctOf(m, "j3"), 10);
  EXPECT_EQ(m.makespan_ms, 160'000);
  EXPECT_EQ(r.stats.admissions, 4);
  // Capacity is the nodes' 16 GPUs, labelled with their model.
  EXPECT_NEAR(m.gpu_hours_available, 16 * 160 / kGpuHour, 1e-9);
  EXPECT_NEAR(m.gpu_hours_allocated, (4 * 100 + 4 * 100 + 16 * 50 + 4 * 10) / kGpuHour, 1e-9);
  ASSERT_EQ(m.by_gpu_model.size(), 1u);
  EXPECT_EQ(m.by_gpu_model[0].name, "H100");
  ASSERT_EQ(m.by_flavor.size(), 1u);
  EXPECT_EQ(m.by_flavor[0].name, "default");
}

TEST(ReplayQueueTest, JobLargerThanTheNodesHoldsQuotaAndNeverRuns) {
  // 3 pods of 8 GPUs on two nodes: admitted by quota, never bound.
  const model::Snapshot fleet = FleetBuilder(64).Node("n0").Node("n1").Build();
  const QueuedTrace trace = Trace({{0, 100, 24}, {5, 10, 8}});
  const QueueReplayResult r = MustRun(fleet, trace, OneClassPerJob(2));
  const RunMetrics& m = r.report.metrics;
  EXPECT_EQ(m.jobs_finished, 1);
  EXPECT_DOUBLE_EQ(JctOf(m, "j1"), 10);
  EXPECT_EQ(m.jobs_never_started, 1);
  EXPECT_EQ(r.stats.never_admitted, 1);
}

TEST(ReplayQueueTest, HigherPriorityJobPreemptsAndTheVictimRestarts) {
  // Quota-only, LowerPriority within the ClusterQueue: j1 (priority 10) arrives at 100 s and
  // evicts j0 (priority 0), which restarts from scratch when j1 ends at 200 s.
  const model::Snapshot fleet = FleetBuilder(8, model::PreemptionPolicy::kLowerPriority).Build();
  const QueuedTrace trace = Trace({{0, 1000, 8, 0}, {100, 100, 8, 10}});
  const QueueReplayResult r = MustRun(fleet, trace, OneClassPerJob(2));
  const RunMetrics& m = r.report.metrics;
  EXPECT_EQ(r.stats.preemptions, 1);
  EXPECT_EQ(m.preemptions, 1);
  EXPECT_NEAR(m.preemption_gpu_hours_lost, 8 * 100 / kGpuHour, 1e-9);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j0"), 0);  // the first start counts
  EXPECT_DOUBLE_EQ(JctOf(m, "j0"), 1200);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j1"), 0);
  EXPECT_DOUBLE_EQ(JctOf(m, "j1"), 100);
  EXPECT_EQ(m.makespan_ms, 1'200'000);
}

TEST(ReplayQueueTest, StopsAtUntil) {
  const model::Snapshot fleet = FleetBuilder(8).Build();
  const QueuedTrace trace = Trace({{0, 100, 8}, {10, 50, 4}, {200, 10, 4}});
  QueueReplayOptions o = OneClassPerJob(3);
  o.until_ms = 50'000;
  const QueueReplayResult r = MustRun(fleet, trace, o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_EQ(m.end_ms, 50'000);
  EXPECT_EQ(m.jobs_submitted, 2);  // j2 arrives after the end
  EXPECT_EQ(m.jobs_running_at_end, 1);
  EXPECT_EQ(m.jobs_pending_at_end, 1);
  EXPECT_EQ(m.jobs_finished, 0);
}

TEST(ReplayQueueTest, MetricsIntervalsFollowTheOption) {
  const model::Snapshot fleet = FleetBuilder(8).Build();
  const QueuedTrace trace = Trace({{0, 100, 8}, {10, 50, 4}, {20, 10, 4}});
  QueueReplayOptions o;
  o.metrics_interval_ms = 50'000;
  const QueueReplayResult r = MustRun(fleet, trace, o);
  const std::vector<IntervalRow>& rows = r.report.metrics.rows;
  ASSERT_EQ(rows.size(), 3u);  // [0,50) [50,100) [100,150]
  EXPECT_EQ(rows[0].submitted, 3);
  EXPECT_EQ(rows[0].pending, 2);
  EXPECT_EQ(rows[2].started, 2);
  EXPECT_NEAR(rows[0].allocated_pct, 100, 1e-9);
  EXPECT_NEAR(rows[2].allocated_pct, 100.0 * (8 * 10 + 4 * 40) / (8 * 50), 1e-9);
}

// A trace with some of everything: priorities, multi-node jobs, a failure and a drain.
QueuedTrace Busy() {
  std::vector<JobSpec> jobs;
  uint64_t s = 42;
  auto next = [&s](uint64_t n) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((s >> 33) % n);
  };
  int64_t t = 0;
  for (int i = 0; i < 60; ++i) {
    t += next(120);
    const int32_t gpus = static_cast<int32_t>(std::vector<int64_t>{1, 2, 4, 8, 16}[next(5)]);
    jobs.push_back({t, 60 + next(3000), gpus, static_cast<int32_t>(next(3))});
  }
  return Trace(jobs);
}

TEST(ReplayQueueTest, SameInputsGiveTheSameRun) {
  const model::Snapshot fleet = FleetBuilder(40, model::PreemptionPolicy::kLowerPriority)
                                    .Node("n0")
                                    .Node("n1")
                                    .Node("n2")
                                    .Node("n3")
                                    .Build();
  const QueuedTrace trace = Busy();
  QueueReplayOptions o;
  o.actions.push_back(replay_test::NodeFailureOf({"n1"}, 900, 1200, "events[0]"));
  ScenarioAction drain;
  drain.kind = ActionKind::kDrain;
  drain.at_ms = 2'000'000;
  drain.node_names = {"n2"};
  drain.duration_ms = 1'800'000;
  drain.line = "events[1]";
  o.actions.push_back(drain);
  const QueueReplayResult a = MustRun(fleet, trace, o);
  const QueueReplayResult b = MustRun(fleet, trace, o);
  const report::ReportOptions ro;
  EXPECT_EQ(report::RenderSummaryJson({a.report}, ro), report::RenderSummaryJson({b.report}, ro));
  EXPECT_EQ(report::RenderMetricsCsv({a.report}), report::RenderMetricsCsv({b.report}));
  EXPECT_EQ(a.stats.events, b.stats.events);
  EXPECT_EQ(a.stats.cycles, b.stats.cycles);
  EXPECT_EQ(a.stats.admissions, b.stats.admissions);
  EXPECT_EQ(a.stats.preemptions, b.stats.preemptions);
  EXPECT_EQ(a.stats.failures, b.stats.failures);
  // The run did something worth comparing.
  EXPECT_EQ(a.report.metrics.jobs_submitted, 60);
  EXPECT_GT(a.report.metrics.jobs_finished, 30);
  EXPECT_GT(a.stats.failures, 0);
}

TEST(ReplayQueueTest, UnknownLocalQueueIsAnErrorNamingIt) {
  const model::Snapshot fleet = FleetBuilder(8).Build();
  core::Diagnostics diags;
  auto r = RunQueueReplay(fleet, Trace({{0, 10, 1}}, "lq-missing"), QueueReplayOptions{}, diags);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("ml/lq-missing"), std::string::npos) << r.error().message();
  // A LocalQueue of another cluster does not count.
  QueueReplayOptions other;
  other.shape.cluster = "east";
  auto r2 = RunQueueReplay(fleet, Trace({{0, 10, 1}}), other, diags);
  ASSERT_FALSE(r2.has_value());
  EXPECT_NE(r2.error().message().find("ml/lq"), std::string::npos) << r2.error().message();
  EXPECT_NE(r2.error().message().find("east"), std::string::npos) << r2.error().message();
}

TEST(ReplayQueueTest, BadActionsAndOptionsFailBeforeRunning) {
  const model::Snapshot fleet = FleetBuilder(8).Node("n0").Build();
  core::Diagnostics diags;
  QueueReplayOptions o;
  o.actions.push_back(replay_test::NodeFailureOf({"n9"}, 10, 0, "events[0]"));
  auto r = RunQueueReplay(fleet, Trace({{0, 10, 1}}), o, diags);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message(),
            "events[0]: node n9 not found in cluster \"default\" of the fleet");
  QueueReplayOptions interval;
  interval.metrics_interval_ms = 0;
  EXPECT_FALSE(RunQueueReplay(fleet, Trace({{0, 10, 1}}), interval, diags).has_value());
  QueueReplayOptions shape;
  shape.shape.max_gpus_per_pod = 0;
  EXPECT_FALSE(RunQueueReplay(fleet, Trace({{0, 10, 1}}), shape, diags).has_value());
}

// Issue 14: times reaching sim from flags and files are validated there too (the CLI's
// checks aside), and a run spanning more metrics intervals than kMaxMetricsIntervals is an
// error instead of gigabytes of rows.
TEST(ReplayQueueTest, OutOfRangeTimesAreErrors) {
  const model::Snapshot fleet = FleetBuilder(8).Node("n0").Build();
  core::Diagnostics diags;
  auto error_of = [&](const QueueReplayOptions& o, const QueuedTrace& t) {
    auto r = RunQueueReplay(fleet, t, o, diags);
    return r.has_value() ? std::string() : r.error().message();
  };
  const QueuedTrace one = Trace({{0, 10, 1}});
  QueueReplayOptions negative_cycle;
  negative_cycle.cycle_interval_ms = -1;
  EXPECT_EQ(error_of(negative_cycle, one),
            "the cycle interval must be between 0 and 1000000000000s, not -1ms");
  QueueReplayOptions negative_until;
  negative_until.until_ms = -5;
  EXPECT_EQ(error_of(negative_until, one), "the end time must not be negative, not -5ms");
  QueueReplayOptions far_until;
  far_until.metrics_interval_ms = 1000;
  far_until.until_ms = 1000 * kMaxMetricsIntervals + 1;
  EXPECT_EQ(error_of(far_until, one),
            "the end time 1000000s is more than 1000000 metrics intervals of 1s: give a longer "
            "metrics interval (--interval, spec.metricsInterval) or an earlier end (--until)");
  QueueReplayOptions seconds;
  seconds.metrics_interval_ms = 1000;
  EXPECT_EQ(error_of(seconds, Trace({{0, 10, 1}, {2'000'000, 10, 1}})),
            "virtual time would pass 2000000s, more than 1000000 metrics intervals of 1s: give "
            "a longer metrics interval (--interval, spec.metricsInterval) or an earlier end "
            "(--until)");
  // The longest job the readers accept runs to its end with a daily interval (36,525 rows).
  QueueReplayOptions daily;
  daily.metrics_interval_ms = 86'400'000;
  auto r = RunQueueReplay(fleet, Trace({{0, kMaxDurationSeconds, 1}}), daily, diags);
  ASSERT_TRUE(r.has_value()) << r.error().message();
  EXPECT_EQ(r->report.metrics.jobs_finished, 1);
  EXPECT_EQ(r->report.metrics.end_ms, kMaxDurationSeconds * 1000);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
