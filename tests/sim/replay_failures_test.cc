// sim/replay RunQueueReplay with scenario actions: node failures (jobs fail and are requeued
// after Kueue's backoff, 60 s doubling per requeue, until backoffLimitCount; the node's
// capacity leaves until it recovers), GPU failures, drains (cordon, evictions in waves of
// maxUnavailable, the pool's capacity leaves once empty and returns at the uncordon) and
// scale-up of standby nodes after a cold start. Every figure is hand-computed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/replay/queue_replay.h"
#include "sim/replay_test_util.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

using replay_test::FleetBuilder;
using replay_test::JctOf;
using replay_test::kGpuHour;
using replay_test::MustRun;
using replay_test::NodeFailureOf;
using replay_test::OneClassPerJob;
using replay_test::Trace;
using replay_test::WaitOf;

TEST(ReplayFailuresTest, NodeFailureRequeuesAfterKueueBackoff) {
  // One 8-GPU node, one 8-GPU job of 1000 s. The node fails at 100 s and at 300 s, back 10 s
  // later each time. The job is requeued after 60 s (at 160 s), then after 120 s (at 420 s):
  // the node is back long before, so the backoff alone sets the restart times.
  const model::Snapshot fleet = FleetBuilder(8).Node("n0").Build();
  QueueReplayOptions o = OneClassPerJob(1);
  o.actions = {NodeFailureOf({"n0"}, 100, 10, "events[0]"),
               NodeFailureOf({"n0"}, 300, 10, "events[1]")};
  const QueueReplayResult r = MustRun(fleet, Trace({{0, 1000, 8}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_EQ(r.stats.failures, 2);
  EXPECT_EQ(m.failures, 2);
  EXPECT_EQ(m.jobs_finished, 1);
  EXPECT_EQ(m.jobs_failed, 0);
  EXPECT_EQ(m.jobs_not_recovered, 0);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j0"), 0);
  EXPECT_DOUBLE_EQ(JctOf(m, "j0"), 1420);
  // Work lost: 8 GPUs x 100 s, then 8 GPUs x (300 - 160) s.
  EXPECT_NEAR(m.failure_gpu_hours_lost, 8.0 * (100 + 140) / kGpuHour, 1e-9);
  EXPECT_EQ(m.recovery_s.count, 2);
  EXPECT_DOUBLE_EQ(m.recovery_s.mean, 90);
  EXPECT_DOUBLE_EQ(m.recovery_s.max, 120);
  ASSERT_EQ(m.failure_events.size(), 2u);
  EXPECT_EQ(m.failure_events[0].t_ms, 100'000);
  EXPECT_EQ(m.failure_events[0].what, "NodeFailure events[0]");
  EXPECT_EQ(m.failure_events[0].jobs_hit, 1);
  EXPECT_NEAR(m.failure_events[0].gpu_hours_lost, 800 / kGpuHour, 1e-9);
  EXPECT_EQ(m.failure_events[0].recovered_after_s, 60.0);
  EXPECT_EQ(m.failure_events[1].t_ms, 300'000);
  EXPECT_EQ(m.failure_events[1].recovered_after_s, 120.0);
  EXPECT_EQ(m.failure_recovery_s.count, 2);
  EXPECT_EQ(m.failure_events_not_recovered, 0);
}

// Regression (found by this test, fixed): queue_replay.cc's Arrive requeues a failed job with the time
// its backoff ends as its queue-order timestamp (it was), although its comment (and Kueue's
// requeuingStrategy timestamp Eviction, QueueOrderTimestamp in queueing/workload_info.h) say
// the eviction time. Here x fails at 100 s and returns at 160 s; y was created at 130 s.
// When z frees the quota at 300 s, Kueue admits x first (100 < 130); the replay admits y.
TEST(ReplayFailuresTest, RequeuedJobKeepsItsEvictionTimeInTheQueue) {
  // n1 is standby until 50 s, so x lands on n0.
  const model::Snapshot fleet = FleetBuilder(8).Node("n0").Node("n1", /*standby=*/true).Build();
  QueueReplayOptions o = OneClassPerJob(3);
  ScenarioAction up;
  up.kind = ActionKind::kScaleUp;
  up.at_ms = 50'000;
  up.node_names = {"n1"};
  up.line = "events[1]";
  o.actions = {NodeFailureOf({"n0"}, 100, 10, "events[0]"), up};
  // j0 = x (on n0), j1 = z (waits for quota, runs 100-300 s on n1),
  // j2 = y (created at 130 s, waits for quota).
  const QueueReplayResult r =
      MustRun(fleet, Trace({{0, 1000, 8}, {50, 200, 8}, {130, 1000, 8}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_DOUBLE_EQ(WaitOf(m, "j1"), 50);
  EXPECT_DOUBLE_EQ(JctOf(m, "j0"), 1300);   // restarts at 300 s
  EXPECT_DOUBLE_EQ(WaitOf(m, "j2"), 1170);  // runs after x, at 1300 s
}

TEST(ReplayFailuresTest, FailedNodeTakesItsCapacityUntilItRecovers) {
  // Failure at 100 s, back at 600 s: the job is requeued at 160 s, admitted by quota, and
  // binds when the node returns. No capacity while the node is down.
  const model::Snapshot fleet = FleetBuilder(8).Node("n0").Build();
  QueueReplayOptions o = OneClassPerJob(1);
  o.actions = {NodeFailureOf({"n0"}, 100, 500, "events[0]")};
  const QueueReplayResult r = MustRun(fleet, Trace({{0, 1000, 8}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_DOUBLE_EQ(JctOf(m, "j0"), 1600);
  ASSERT_EQ(m.failure_events.size(), 1u);
  EXPECT_EQ(m.failure_events[0].recovered_after_s, 500.0);
  EXPECT_DOUBLE_EQ(m.recovery_s.max, 500);
  EXPECT_NEAR(m.gpu_hours_available, 8.0 * (100 + 1000) / kGpuHour, 1e-9);
  EXPECT_NEAR(m.gpu_hours_allocated, 8.0 * (100 + 1000) / kGpuHour, 1e-9);
  EXPECT_NEAR(m.gpu_allocation_pct, 100, 1e-9);
}

TEST(ReplayFailuresTest, NodeFailureHitsOnlyTheJobsOnTheNode) {
  // j0 fills n0 (8 GPUs); n1 has only 4 GPUs and runs j1. n1 fails: j1 fails, j0 does not.
  const model::Snapshot fleet = FleetBuilder(16).Node("n0").Node("n1", false, 4).Build();
  QueueReplayOptions o = OneClassPerJob(2);
  o.actions = {NodeFailureOf({"n1"}, 100, 0, "events[0]")};  // never recovers
  const QueueReplayResult r = MustRun(fleet, Trace({{0, 1000, 8}, {0, 1000, 4}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_DOUBLE_EQ(JctOf(m, "j0"), 1000);
  // j1 comes back at 160 s but only n0 is left: it runs once j0 ends.
  EXPECT_DOUBLE_EQ(JctOf(m, "j1"), 2000);
  ASSERT_EQ(m.failure_events.size(), 1u);
  EXPECT_EQ(m.failure_events[0].jobs_hit, 1);
  EXPECT_EQ(m.failure_events[0].recovered_after_s, 900.0);
}

TEST(ReplayFailuresTest, BackoffLimitCountEndsTheJob) {
  // waitForPodsReady: base 30 s, at most one requeue. The second failure ends the job.
  FleetBuilder b(8);
  b.Node("n0");
  model::KueueConfig config;
  model::WaitForPodsReadyConfig wait;
  wait.backoff_base_s = 30;
  wait.backoff_limit_count = 1;
  config.wait_for_pods_ready = wait;
  b.snapshot().kueue_config = config;
  QueueReplayOptions o = OneClassPerJob(1);
  o.actions = {NodeFailureOf({"n0"}, 100, 10, "events[0]"),
               NodeFailureOf({"n0"}, 300, 10, "events[1]")};
  const QueueReplayResult r = MustRun(b.Build(), Trace({{0, 1000, 8}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_EQ(m.failures, 2);
  EXPECT_EQ(m.jobs_failed, 1);
  EXPECT_EQ(m.jobs_finished, 0);
  EXPECT_EQ(m.jobs_not_recovered, 1);
  ASSERT_EQ(m.failure_events.size(), 2u);
  EXPECT_EQ(m.failure_events[0].recovered_after_s, 30.0);
  EXPECT_FALSE(m.failure_events[1].recovered_after_s.has_value());
  EXPECT_EQ(m.failure_events_not_recovered, 1);
  // Lost: 8 GPUs x 100 s and 8 GPUs x (300 - 130) s.
  EXPECT_NEAR(m.failure_gpu_hours_lost, 8.0 * (100 + 170) / kGpuHour, 1e-9);
}

TEST(ReplayFailuresTest, GpuFailureFailsTheNodesGpuJobsAndHoldsTheLostGpus) {
  // n0 has 8 GPUs; j0 (4 GPUs) and j1 (CPU only) run there. 6 GPUs fail at 100 s for 400 s:
  // j0 fails and is back at 160 s, but 2 GPUs are left: it runs at 500 s. j1 runs on.
  const model::Snapshot fleet = FleetBuilder(8).Node("n0").Build();
  QueueReplayOptions o = OneClassPerJob(2);
  ScenarioAction gpu;
  gpu.kind = ActionKind::kGpuFailure;
  gpu.at_ms = 100'000;
  gpu.node_names = {"n0"};
  gpu.gpus = 6;
  gpu.recover_after_ms = 400'000;
  gpu.line = "events[0]";
  o.actions = {gpu};
  const QueueReplayResult r = MustRun(fleet, Trace({{0, 1000, 4}, {0, 1000, 0}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_DOUBLE_EQ(JctOf(m, "j0"), 1500);
  EXPECT_DOUBLE_EQ(JctOf(m, "j1"), 1000);
  ASSERT_EQ(m.failure_events.size(), 1u);
  EXPECT_EQ(m.failure_events[0].what, "GPU failure events[0]");
  EXPECT_EQ(m.failure_events[0].jobs_hit, 1);
  EXPECT_EQ(m.failure_events[0].recovered_after_s, 400.0);
  // Capacity: 8 GPUs, 2 while the 6 are lost.
  EXPECT_NEAR(m.gpu_hours_available, (8.0 * 100 + 2.0 * 400 + 8.0 * 1000) / kGpuHour, 1e-9);
}

ScenarioAction DrainOf(std::vector<std::string> nodes, int64_t at_s, int64_t duration_s,
                       int32_t max_unavailable, int64_t wave_s) {
  ScenarioAction a;
  a.kind = ActionKind::kDrain;
  a.node_names = std::move(nodes);
  a.at_ms = at_s * 1000;
  a.duration_ms = duration_s * 1000;
  a.max_unavailable = max_unavailable;
  a.wave_interval_ms = wave_s * 1000;
  a.line = "events[0]";
  return a;
}

TEST(ReplayFailuresTest, DrainEvictsInWavesAndTheEmptyPoolLeavesUntilUncordon) {
  // Three 2-GPU jobs on the only node. Drain at 100 s, one eviction per 300 s wave (100, 400,
  // 700 s); at 1000 s the node is empty and leaves service; the uncordon at 2100 s brings it
  // back and the three evicted jobs restart there.
  const model::Snapshot fleet = FleetBuilder(8).Node("n0").Build();
  QueueReplayOptions o = OneClassPerJob(3);
  o.actions = {DrainOf({"n0"}, 100, 2000, 1, 300)};
  const QueueReplayResult r =
      MustRun(fleet, Trace({{0, 10000, 2}, {0, 10000, 2}, {0, 10000, 2}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_EQ(m.failures, 3);
  ASSERT_EQ(m.failure_events.size(), 3u);
  const int64_t waves[] = {100'000, 400'000, 700'000};
  const double recovered[] = {2000, 1700, 1400};
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE("wave " + std::to_string(i));
    EXPECT_EQ(m.failure_events[i].t_ms, waves[i]);
    EXPECT_EQ(m.failure_events[i].what, "drain events[0] (evictions)");
    EXPECT_EQ(m.failure_events[i].jobs_hit, 1);
    EXPECT_EQ(m.failure_events[i].recovered_after_s, recovered[i]);
  }
  EXPECT_NEAR(m.failure_gpu_hours_lost, 2.0 * (100 + 400 + 700) / kGpuHour, 1e-9);
  for (const char* j : {"j0", "j1", "j2"}) EXPECT_DOUBLE_EQ(JctOf(m, j), 12100) << j;
  // Capacity: 8 GPUs until the pool empties at 1000 s, none until 2100 s, 8 again after.
  EXPECT_NEAR(m.gpu_hours_available, 8.0 * (1000 + 10000) / kGpuHour, 1e-9);
  EXPECT_EQ(m.jobs_not_recovered, 0);
}

TEST(ReplayFailuresTest, DrainMovesEvictedJobsToOtherNodes) {
  // j0 fills n0 before n1 exists (a standby node joins at 50 s); draining n0 at 100 s evicts
  // j0, which restarts on n1 at once (an eviction is requeued without backoff).
  const model::Snapshot fleet = FleetBuilder(16).Node("n0").Node("n1", /*standby=*/true).Build();
  QueueReplayOptions o = OneClassPerJob(1);
  ScenarioAction up;
  up.kind = ActionKind::kScaleUp;
  up.at_ms = 50'000;
  up.node_names = {"n1"};
  up.line = "events[1]";
  o.actions = {DrainOf({"n0"}, 100, 0, 1, 300), up};
  const QueueReplayResult r = MustRun(fleet, Trace({{0, 1000, 8}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_DOUBLE_EQ(JctOf(m, "j0"), 1100);
  ASSERT_EQ(m.failure_events.size(), 1u);
  EXPECT_EQ(m.failure_events[0].recovered_after_s, 0.0);
  EXPECT_EQ(m.recovery_s.count, 1);
  EXPECT_DOUBLE_EQ(m.recovery_s.max, 0);
}

TEST(ReplayFailuresTest, DrainWithoutEvictionsWaitsForJobsToEnd) {
  // maxUnavailable 0: cordon only. j0 and j1 end at 500 s and 800 s; j2, arriving at 200 s,
  // cannot land on the cordoned node and runs from the uncordon at 2100 s.
  const model::Snapshot fleet = FleetBuilder(8).Node("n0").Build();
  QueueReplayOptions o = OneClassPerJob(3);
  o.actions = {DrainOf({"n0"}, 100, 2000, 0, 300)};
  const QueueReplayResult r = MustRun(fleet, Trace({{0, 500, 2}, {0, 800, 2}, {200, 100, 2}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_EQ(m.failures, 0);
  EXPECT_DOUBLE_EQ(JctOf(m, "j0"), 500);
  EXPECT_DOUBLE_EQ(JctOf(m, "j1"), 800);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j2"), 1900);
  // Cordoned, the node is still capacity until the wave at 1000 s finds it empty.
  EXPECT_NEAR(m.gpu_hours_available, 8.0 * (1000 + 100) / kGpuHour, 1e-9);
}

TEST(ReplayFailuresTest, ScaleUpAddsStandbyNodesAfterTheColdStart) {
  // n0 in service, n1 and n2 standby. ScaleUp of one node at 100 s with a 300 s cold start:
  // j1 runs on the new node from 400 s; j2 waits for j0 to end at 1000 s.
  const model::Snapshot fleet =
      FleetBuilder(24).Node("n0").Node("n1", /*standby=*/true).Node("n2", /*standby=*/true).Build();
  QueueReplayOptions o = OneClassPerJob(3);
  ScenarioAction up;
  up.kind = ActionKind::kScaleUp;
  up.at_ms = 100'000;
  up.selector = testing::MatchLabels({{"sim.berth.dev/standby", "true"}});
  up.count = 1;
  up.cold_start_ms = 300'000;
  up.line = "events[0]";
  o.actions = {up};
  const QueueReplayResult r = MustRun(fleet, Trace({{0, 1000, 8}, {0, 1000, 8}, {0, 1000, 8}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_DOUBLE_EQ(WaitOf(m, "j0"), 0);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j1"), 400);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j2"), 1000);
  EXPECT_EQ(m.makespan_ms, 2'000'000);
  // 8 GPUs until 400 s, 16 after.
  EXPECT_NEAR(m.gpu_hours_available, (8.0 * 400 + 16.0 * 1600) / kGpuHour, 1e-9);
}

TEST(ReplayFailuresTest, ScaleUpOfAllMatchedNodes) {
  const model::Snapshot fleet =
      FleetBuilder(24).Node("n0").Node("n1", /*standby=*/true).Node("n2", /*standby=*/true).Build();
  QueueReplayOptions o = OneClassPerJob(3);
  ScenarioAction up;
  up.kind = ActionKind::kScaleUp;
  up.at_ms = 100'000;
  up.node_names = {"n1", "n2"};
  up.cold_start_ms = 300'000;  // count 0: every matched node
  up.line = "events[0]";
  o.actions = {up};
  const QueueReplayResult r = MustRun(fleet, Trace({{0, 1000, 8}, {0, 1000, 8}, {0, 1000, 8}}), o);
  const RunMetrics& m = r.report.metrics;
  EXPECT_DOUBLE_EQ(WaitOf(m, "j1"), 400);
  EXPECT_DOUBLE_EQ(WaitOf(m, "j2"), 400);
  EXPECT_EQ(m.makespan_ms, 1'400'000);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
