#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "sim/core/metrics_recorder.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

constexpr double kGpuSecond = 1.0 / 3600.0;  // in GPU-hours

CapacitySample Gpus(int64_t allocated_milli, int64_t total_milli) {
  CapacitySample s;
  s.allocated_gpu_milli = allocated_milli;
  s.total_gpu_milli = total_milli;
  return s;
}

// The hand-computed run used by several tests (times in seconds, 4 GPUs, 10 s intervals):
//   0  j0 (tenant a, queue q1, train, 2 GPUs) submitted and started
//   5  j1 (tenant b, queue q2, infer, 1 GPU) submitted
//   8  j1 started                 12  j0 finished
//  15  j1 preempted (7 GPU-s lost) 16  j1 started
//  20  j1 failed, requeued (4 GPU-s lost)
//  25  j1 started (recovered after 5 s)   30  j1 finished; end of run
RunMetrics HandRun() {
  MetricsOptions options;
  options.interval_ms = 10'000;
  options.entitlements = {{"a", 0.5}, {"b", 0.5}};
  MetricsRecorder r(options);
  const int64_t total = 4000;
  r.RecordCapacity(0, Gpus(0, total));
  JobIndex j0 = r.RecordSubmitted(0, {"a", "q1", "train", 2000, 0, 0});
  r.RecordStarted(0, j0);
  r.RecordCapacity(0, Gpus(2000, total));
  JobIndex j1 = r.RecordSubmitted(5'000, {"b", "q2", "infer", 1000, 0, 0});
  EXPECT_EQ(j1.v, 1);
  EXPECT_EQ(r.pending(), 1);
  r.RecordStarted(8'000, j1);
  r.RecordCapacity(8'000, Gpus(3000, total));
  r.RecordFinished(12'000, j0);
  r.RecordCapacity(12'000, Gpus(1000, total));
  r.RecordPreempted(15'000, j1);
  r.RecordCapacity(15'000, Gpus(0, total));
  r.RecordStarted(16'000, j1);
  r.RecordCapacity(16'000, Gpus(1000, total));
  r.RecordFailed(20'000, j1, /*requeued=*/true);
  r.RecordCapacity(20'000, Gpus(0, total));
  r.RecordStarted(25'000, j1);
  r.RecordCapacity(25'000, Gpus(1000, total));
  r.RecordFinished(30'000, j1);
  r.RecordCapacity(30'000, Gpus(0, total));
  return r.Finish(30'000);
}

TEST(MetricsRecorderTest, IntervalRowsAreTimeWeighted) {
  RunMetrics m = HandRun();
  ASSERT_EQ(m.rows.size(), 3u);
  ASSERT_EQ(m.queue_names, (std::vector<std::string>{"q1", "q2"}));
  // [0,10): 2 GPUs for 8 s + 3 GPUs for 2 s over 4 GPUs x 10 s = 22/40.
  EXPECT_EQ(m.rows[0].start_ms, 0);
  EXPECT_EQ(m.rows[0].end_ms, 10'000);
  EXPECT_DOUBLE_EQ(m.rows[0].allocated_pct, 55.0);
  EXPECT_EQ(m.rows[0].submitted, 2);
  EXPECT_EQ(m.rows[0].started, 2);
  EXPECT_EQ(m.rows[0].running, 2);
  EXPECT_EQ(m.rows[0].pending, 0);
  EXPECT_FALSE(m.rows[0].frag_pct.has_value());
  // [10,20): 3x2 + 1x3 + 0x1 + 1x4 = 13 GPU-s of 40.
  EXPECT_DOUBLE_EQ(m.rows[1].allocated_pct, 32.5);
  EXPECT_EQ(m.rows[1].finished, 1);
  EXPECT_EQ(m.rows[1].preemptions, 1);
  EXPECT_EQ(m.rows[1].started, 1);
  EXPECT_EQ(m.rows[1].failures, 0);  // the failure at 20 s opens the next interval
  EXPECT_EQ(m.rows[1].running, 1);
  // [20,30): 1 GPU for 5 s; the finish exactly at the end counts here.
  EXPECT_DOUBLE_EQ(m.rows[2].allocated_pct, 12.5);
  EXPECT_EQ(m.rows[2].failures, 1);
  EXPECT_EQ(m.rows[2].started, 1);
  EXPECT_EQ(m.rows[2].finished, 1);
  EXPECT_EQ(m.rows[2].running, 0);
  EXPECT_EQ(m.rows[2].pending_by_queue, (std::vector<int64_t>{0, 0}));
  // Work lost is booked in the interval of the stop: 7 GPU-s preempted at 15 s, 4 failed at 20.
  EXPECT_EQ(m.rows[0].preemption_gpu_hours_lost, 0);
  EXPECT_NEAR(m.rows[1].preemption_gpu_hours_lost, 7 * kGpuSecond, 1e-15);
  EXPECT_EQ(m.rows[1].failure_gpu_hours_lost, 0);
  EXPECT_NEAR(m.rows[2].failure_gpu_hours_lost, 4 * kGpuSecond, 1e-15);
  // No labels given: no per-flavor or per-model columns.
  EXPECT_TRUE(m.flavor_names.empty());
  EXPECT_TRUE(m.rows[0].allocated_pct_by_flavor.empty());
  EXPECT_TRUE(m.by_gpu_model.empty());
}

TEST(MetricsRecorderTest, EndOfRunFigures) {
  RunMetrics m = HandRun();
  EXPECT_EQ(m.jobs_submitted, 2);
  EXPECT_EQ(m.jobs_started, 2);
  EXPECT_EQ(m.jobs_finished, 2);
  EXPECT_EQ(m.jobs_failed, 0);
  EXPECT_NEAR(m.gpu_allocation_pct, 100.0 * 40 / 120, 1e-12);  // 40 of 120 GPU-seconds
  EXPECT_NEAR(m.gpu_hours_available, 120 * kGpuSecond, 1e-15);
  EXPECT_NEAR(m.gpu_hours_allocated, 40 * kGpuSecond, 1e-15);
  EXPECT_EQ(m.wait_s.count, 2);
  EXPECT_DOUBLE_EQ(m.wait_s.mean, 1.5);  // waits 0 and 3 s
  EXPECT_EQ(m.wait_s.p50, 0);
  EXPECT_EQ(m.wait_s.p99, 3);
  EXPECT_DOUBLE_EQ(m.jct_s.mean, 18.5);  // 12 and 25 s
  EXPECT_EQ(m.jct_samples_s, (std::vector<double>{12, 25}));
  EXPECT_EQ(m.makespan_ms, 30'000);
  EXPECT_EQ(m.preemptions, 1);
  EXPECT_NEAR(m.preemption_gpu_hours_lost, 7 * kGpuSecond, 1e-15);
  EXPECT_EQ(m.failures, 1);
  EXPECT_NEAR(m.failure_gpu_hours_lost, 4 * kGpuSecond, 1e-15);
  EXPECT_EQ(m.recovery_s.count, 1);
  EXPECT_DOUBLE_EQ(m.recovery_s.mean, 5);
  EXPECT_EQ(m.jobs_not_recovered, 0);
}

TEST(MetricsRecorderTest, PerQueueAndPerClassDistributions) {
  RunMetrics m = HandRun();
  ASSERT_EQ(m.by_queue.size(), 2u);
  EXPECT_EQ(m.by_queue[0].name, "q1");
  EXPECT_EQ(m.by_queue[0].wait_s.mean, 0);
  EXPECT_EQ(m.by_queue[0].jct_s.p50, 12);
  EXPECT_EQ(m.by_queue[1].name, "q2");
  EXPECT_EQ(m.by_queue[1].wait_s.mean, 3);
  EXPECT_EQ(m.by_queue[1].jct_s.p95, 25);
  ASSERT_EQ(m.by_class.size(), 2u);
  EXPECT_EQ(m.by_class[0].name, "infer");  // sorted by name
  EXPECT_EQ(m.by_class[0].jct_s.mean, 25);
  EXPECT_EQ(m.by_class[1].name, "train");
}

TEST(MetricsRecorderTest, TenantSharesAndJainByEntitlement) {
  RunMetrics m = HandRun();
  ASSERT_EQ(m.tenants.size(), 2u);
  // a: 2 GPUs x 12 s = 24 of 120 GPU-s; b: 1 GPU x (7 + 4 + 5) s = 16 of 120.
  EXPECT_EQ(m.tenants[0].tenant, "a");
  EXPECT_DOUBLE_EQ(m.tenants[0].gpu_share, 0.2);
  EXPECT_DOUBLE_EQ(m.tenants[0].dominant_share, 0.2);
  EXPECT_NEAR(m.tenants[0].gpu_hours, 24 * kGpuSecond, 1e-15);
  EXPECT_EQ(m.tenants[0].entitlement, 0.5);
  EXPECT_EQ(m.tenants[0].jobs, 1);
  EXPECT_NEAR(m.tenants[1].dominant_share, 16.0 / 120, 1e-15);
  // x = 0.4 and 4/15: (2/3)^2 / (2 * 52/225) = 900/936.
  EXPECT_TRUE(m.jain_by_entitlement);
  EXPECT_NEAR(m.jain_index, 900.0 / 936.0, 1e-12);
}

TEST(MetricsRecorderTest, DominantShareTakesTheLargestKnownResource) {
  MetricsRecorder r({.interval_ms = 1000, .entitlements = {}});
  CapacitySample cap = Gpus(0, 8000);
  cap.total_cpu_milli = 100'000;
  r.RecordCapacity(0, cap);
  JobIndex cpu_heavy = r.RecordSubmitted(0, {"x", "q", "batch", 1000, 50'000, 0});
  JobIndex gpu_heavy = r.RecordSubmitted(0, {"y", "q", "batch", 4000, 10'000, 0});
  r.RecordStarted(0, cpu_heavy);
  r.RecordStarted(0, gpu_heavy);
  RunMetrics m = r.Finish(10'000);
  ASSERT_EQ(m.tenants.size(), 2u);
  EXPECT_DOUBLE_EQ(m.tenants[0].gpu_share, 0.125);
  EXPECT_DOUBLE_EQ(m.tenants[0].cpu_share, 0.5);
  EXPECT_DOUBLE_EQ(m.tenants[0].dominant_share, 0.5);
  EXPECT_DOUBLE_EQ(m.tenants[1].dominant_share, 0.5);  // GPU 4/8 beats CPU 0.1
  EXPECT_EQ(m.tenants[1].memory_share, 0);             // memory capacity unknown: left out
  EXPECT_FALSE(m.jain_by_entitlement);                 // no entitlements: raw shares
  EXPECT_DOUBLE_EQ(m.jain_index, 1.0);
  EXPECT_EQ(m.jobs_running_at_end, 2);
  EXPECT_EQ(m.jct_s.count, 0);
  EXPECT_EQ(m.makespan_ms, 0);  // nobody left
}

TEST(MetricsRecorderTest, PendingPerQueueAndLateQueuesArePadded) {
  MetricsRecorder r({.interval_ms = 100, .entitlements = {}});
  r.RecordSubmitted(0, {"t", "a", "c", 1000, 0, 0});
  r.RecordSubmitted(10, {"t", "a", "c", 1000, 0, 0});
  JobIndex late = r.RecordSubmitted(150, {"t", "b", "c", 1000, 0, 0});
  r.RecordCancelled(260, late);
  RunMetrics m = r.Finish(300);
  ASSERT_EQ(m.queue_names, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(m.rows.size(), 3u);
  EXPECT_EQ(m.rows[0].pending_by_queue, (std::vector<int64_t>{2, 0}));  // padded
  EXPECT_EQ(m.rows[1].pending_by_queue, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(m.rows[2].pending_by_queue, (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(m.rows[2].pending, 2);
  EXPECT_EQ(m.jobs_cancelled, 1);
  EXPECT_EQ(m.jobs_pending_at_end, 2);
  EXPECT_EQ(m.jobs_never_started, 2);  // the cancelled one is not counted
  EXPECT_EQ(m.makespan_ms, 260);       // the cancellation is the last exit
}

TEST(MetricsRecorderTest, IdleGapsEmitConstantRows) {
  MetricsRecorder r({.interval_ms = 10, .entitlements = {}});
  r.RecordCapacity(5, Gpus(500, 1000));
  RunMetrics m = r.Finish(45);
  // Rows [0,10) [10,20) [20,30) [30,40) [40,45); the first only from 5 on.
  ASSERT_EQ(m.rows.size(), 5u);
  EXPECT_EQ(m.rows[0].start_ms, 0);
  EXPECT_DOUBLE_EQ(m.rows[0].allocated_pct, 50);
  EXPECT_DOUBLE_EQ(m.rows[3].allocated_pct, 50);
  EXPECT_EQ(m.rows[4].end_ms, 45);
  EXPECT_EQ(m.start_ms, 5);
  EXPECT_DOUBLE_EQ(m.gpu_allocation_pct, 50);
}

TEST(MetricsRecorderTest, AllocationRatioWeighsChangingCapacity) {
  // 1 of 2 GPUs for 10 s, then 3 of 6 for 10 s, then 6 of 6 for 10 s: 100 of 140 GPU-s.
  MetricsRecorder r({.interval_ms = 1000, .entitlements = {}});
  r.RecordCapacity(0, Gpus(1000, 2000));
  r.RecordCapacity(10'000, Gpus(3000, 6000));
  r.RecordCapacity(20'000, Gpus(6000, 6000));
  RunMetrics m = r.Finish(30'000);
  EXPECT_NEAR(m.gpu_allocation_pct, 100.0 * 100 / 140, 1e-12);
  EXPECT_EQ(m.rows.size(), 30u);
}

TEST(MetricsRecorderTest, FragmentationIsTimeWeightedWhenGiven) {
  MetricsRecorder r({.interval_ms = 10, .entitlements = {}});
  CapacitySample s = Gpus(0, 1000);
  s.frag_gpu_milli = 100;  // 10 % for 5 ms
  r.RecordCapacity(0, s);
  s.frag_gpu_milli = 300;  // 30 % for 15 ms
  r.RecordCapacity(5, s);
  RunMetrics m = r.Finish(20);
  ASSERT_EQ(m.rows.size(), 2u);
  ASSERT_TRUE(m.rows[0].frag_pct.has_value());
  EXPECT_DOUBLE_EQ(*m.rows[0].frag_pct, 20);  // (10*5 + 30*5) / 10
  EXPECT_DOUBLE_EQ(*m.rows[1].frag_pct, 30);
  ASSERT_TRUE(m.frag_pct.has_value());
  EXPECT_DOUBLE_EQ(*m.frag_pct, 25);  // (10*5 + 30*15) / 20
}

TEST(MetricsRecorderTest, FailuresWithoutRequeueNeverComeBack) {
  MetricsRecorder r;
  r.RecordCapacity(0, Gpus(0, 8000));
  JobIndex a = r.RecordSubmitted(0, {"t", "q", "c", 8000, 0, 0});
  JobIndex b = r.RecordSubmitted(0, {"t", "q", "c", 1000, 0, 0});
  r.RecordStarted(0, a);
  r.RecordStarted(0, b);
  r.RecordFailed(3'600'000, a, /*requeued=*/false);             // 8 GPUs x 1 h rerun
  r.RecordFailed(1'800'000 + 1'800'000, b, /*requeued=*/true);  // waits in the queue forever
  RunMetrics m = r.Finish(7'200'000);
  EXPECT_EQ(m.failures, 2);
  EXPECT_DOUBLE_EQ(m.failure_gpu_hours_lost, 9.0);
  EXPECT_EQ(m.jobs_failed, 1);
  EXPECT_EQ(m.jobs_pending_at_end, 1);
  EXPECT_EQ(m.jobs_not_recovered, 2);
  EXPECT_EQ(m.recovery_s.count, 0);
  EXPECT_EQ(m.makespan_ms, 3'600'000);
}

// Pools (flavor, model): (spot, A100) 4 GPUs, (on-demand, A100) 4 GPUs, (on-demand, H100)
// 8 GPUs, of which 4 are lost at 5 s. Job a: 2 GPUs on (spot, A100) from 0 to 10 s; job b:
// 4 GPUs on (on-demand, H100) from 0 to 5 s; job c: 1 GPU on flavor "byo" (no pool) from 0 s;
// job d: 1 GPU, no labels. 5 s intervals, end at 10 s.
RunMetrics LabelledRun() {
  MetricsRecorder r({.interval_ms = 5'000, .entitlements = {}});
  r.RecordPoolCapacity(0, {"spot", "A100"}, 4000);
  r.RecordPoolCapacity(0, {"on-demand", "A100"}, 4000);
  r.RecordPoolCapacity(0, {"on-demand", "H100"}, 8000);
  r.RecordPoolCapacity(0, {"", ""}, 1000);  // unlabelled: ignored
  JobIndex a = r.RecordSubmitted(0, {"t", "q", "c", 2000, 0, 0});
  JobIndex b = r.RecordSubmitted(0, {"t", "q", "c", 4000, 0, 0});
  JobIndex c = r.RecordSubmitted(0, {"t", "q", "c", 1000, 0, 0});
  JobIndex d = r.RecordSubmitted(0, {"t", "q", "c", 1000, 0, 0});
  r.RecordStarted(0, a, {"spot", "A100"});
  r.RecordStarted(0, b, {"on-demand", "H100"});
  r.RecordStarted(0, c, {"byo", ""});
  r.RecordStarted(0, d);
  r.RecordFinished(5'000, b);
  r.RecordPoolCapacity(5'000, {"on-demand", "H100"}, 4000);  // replaces the 8 GPUs
  r.RecordFinished(10'000, a);
  return r.Finish(10'000);
}

TEST(MetricsRecorderTest, UtilisationPerFlavorAndGpuModel) {
  RunMetrics m = LabelledRun();
  ASSERT_EQ(m.flavor_names, (std::vector<std::string>{"spot", "on-demand", "byo"}));
  ASSERT_EQ(m.gpu_model_names, (std::vector<std::string>{"A100", "H100"}));
  ASSERT_EQ(m.by_flavor.size(), 3u);  // sorted by name
  EXPECT_EQ(m.by_flavor[0].name, "byo");
  EXPECT_FALSE(m.by_flavor[0].allocated_pct.has_value());  // no capacity recorded
  EXPECT_NEAR(m.by_flavor[0].gpu_hours_allocated, 10 * kGpuSecond, 1e-15);
  EXPECT_EQ(m.by_flavor[0].gpu_hours_available, 0);
  // on-demand: 4 GPUs x 5 s of 12 GPUs x 5 s + 8 GPUs x 5 s = 20 of 100 GPU-s.
  EXPECT_EQ(m.by_flavor[1].name, "on-demand");
  ASSERT_TRUE(m.by_flavor[1].allocated_pct.has_value());
  EXPECT_DOUBLE_EQ(*m.by_flavor[1].allocated_pct, 20.0);
  EXPECT_NEAR(m.by_flavor[1].gpu_hours_available, 100 * kGpuSecond, 1e-15);
  EXPECT_NEAR(m.by_flavor[1].gpu_hours_allocated, 20 * kGpuSecond, 1e-15);
  EXPECT_EQ(m.by_flavor[2].name, "spot");
  EXPECT_DOUBLE_EQ(*m.by_flavor[2].allocated_pct, 50.0);  // 2 of 4 all along
  ASSERT_EQ(m.by_gpu_model.size(), 2u);
  EXPECT_EQ(m.by_gpu_model[0].name, "A100");
  EXPECT_DOUBLE_EQ(*m.by_gpu_model[0].allocated_pct, 25.0);  // 2 x 10 of 8 x 10
  EXPECT_EQ(m.by_gpu_model[1].name, "H100");
  EXPECT_DOUBLE_EQ(*m.by_gpu_model[1].allocated_pct, 100.0 / 3);  // 4 x 5 of 8 x 5 + 4 x 5
}

TEST(MetricsRecorderTest, UtilisationPerLabelInEachInterval) {
  RunMetrics m = LabelledRun();
  ASSERT_EQ(m.rows.size(), 2u);
  // Columns in first-seen order: spot, on-demand, byo / A100, H100.
  ASSERT_EQ(m.rows[0].allocated_pct_by_flavor.size(), 3u);
  EXPECT_DOUBLE_EQ(m.rows[0].allocated_pct_by_flavor[0], 50);
  EXPECT_DOUBLE_EQ(m.rows[0].allocated_pct_by_flavor[1], 100.0 / 3);  // 4 of 12
  EXPECT_TRUE(std::isnan(m.rows[0].allocated_pct_by_flavor[2]));      // no capacity
  EXPECT_DOUBLE_EQ(m.rows[0].allocated_pct_by_gpu_model[0], 25);
  EXPECT_DOUBLE_EQ(m.rows[0].allocated_pct_by_gpu_model[1], 50);
  EXPECT_DOUBLE_EQ(m.rows[1].allocated_pct_by_flavor[0], 50);
  EXPECT_DOUBLE_EQ(m.rows[1].allocated_pct_by_flavor[1], 0);
  EXPECT_DOUBLE_EQ(m.rows[1].allocated_pct_by_gpu_model[1], 0);
}

TEST(MetricsRecorderTest, LabelsSeenLaterArePaddedWithNaN) {
  MetricsRecorder r({.interval_ms = 10, .entitlements = {}});
  r.RecordPoolCapacity(0, {"a", ""}, 1000);
  r.RecordPoolCapacity(15, {"b", ""}, 1000);
  JobIndex j = r.RecordSubmitted(15, {"t", "q", "c", 1000, 0, 0});
  r.RecordStarted(15, j, {"b", ""});
  RunMetrics m = r.Finish(20);
  ASSERT_EQ(m.rows.size(), 2u);
  ASSERT_EQ(m.rows[0].allocated_pct_by_flavor.size(), 2u);
  EXPECT_DOUBLE_EQ(m.rows[0].allocated_pct_by_flavor[0], 0);
  EXPECT_TRUE(std::isnan(m.rows[0].allocated_pct_by_flavor[1]));
  EXPECT_DOUBLE_EQ(m.rows[1].allocated_pct_by_flavor[1], 100);  // [15, 20) full
  EXPECT_DOUBLE_EQ(*m.by_flavor[1].allocated_pct, 100);         // b exists from 15 on
}

// Failure events (times in s): A at 10 hits j0 and j1, both requeued; j0 runs again at 12,
// j1 at 20: A recovered after 10 s. B at 30 hits j2, not requeued: never recovered. C at 40
// hits nothing. D at 45 hits j3, which is cancelled at 50 while waiting: recovered after 5 s.
// j4 fails at 12 on its own (no event) and never restarts.
TEST(MetricsRecorderTest, FailureEventsRecoverWhenEveryJobTheyHitRunsAgain) {
  MetricsRecorder r({.interval_ms = 60'000, .entitlements = {}});
  std::vector<JobIndex> j;
  for (int i = 0; i < 5; ++i) {
    j.push_back(r.RecordSubmitted(0, {"t", "q", "c", 1000 * (i + 1), 0, 0}));
    r.RecordStarted(0, j.back());
  }
  FailureIndex a = r.RecordFailureEvent(10'000, "node n1");
  r.RecordFailed(10'000, j[0], true, a);
  r.RecordFailed(10'000, j[1], true, a);
  r.RecordStarted(12'000, j[0]);
  r.RecordFailed(12'000, j[4], true);
  r.RecordStarted(20'000, j[1]);
  FailureIndex b = r.RecordFailureEvent(30'000, "gpu n2/3");
  r.RecordFailed(30'000, j[2], false, b);
  EXPECT_EQ(r.RecordFailureEvent(40'000, "node n3 (idle)").v, 2);
  FailureIndex d = r.RecordFailureEvent(45'000, "cluster east");
  r.RecordFailed(45'000, j[3], true, d);
  r.RecordCancelled(50'000, j[3]);
  RunMetrics m = r.Finish(60'000);

  ASSERT_EQ(m.failure_events.size(), 4u);
  EXPECT_EQ(m.failure_events[0].what, "node n1");
  EXPECT_EQ(m.failure_events[0].t_ms, 10'000);
  EXPECT_EQ(m.failure_events[0].jobs_hit, 2);
  // j0 (1 GPU) and j1 (2 GPUs) ran 10 s each: 30 GPU-s rerun.
  EXPECT_NEAR(m.failure_events[0].gpu_hours_lost, 30 * kGpuSecond, 1e-15);
  ASSERT_TRUE(m.failure_events[0].recovered_after_s.has_value());
  EXPECT_DOUBLE_EQ(*m.failure_events[0].recovered_after_s, 10);
  EXPECT_FALSE(m.failure_events[1].recovered_after_s.has_value());
  EXPECT_NEAR(m.failure_events[1].gpu_hours_lost, 90 * kGpuSecond, 1e-15);  // 3 GPUs x 30 s
  EXPECT_EQ(m.failure_events[2].jobs_hit, 0);
  EXPECT_EQ(m.failure_events[2].recovered_after_s, 0.0);
  EXPECT_DOUBLE_EQ(*m.failure_events[3].recovered_after_s, 5);

  // Time to recover over A and D (C hit nothing); B never recovered.
  EXPECT_EQ(m.failure_recovery_s.count, 2);
  EXPECT_DOUBLE_EQ(m.failure_recovery_s.mean, 7.5);
  EXPECT_DOUBLE_EQ(m.failure_recovery_s.max, 10);
  EXPECT_EQ(m.failure_events_not_recovered, 1);
  // Per job: 5 failed attempts; j2 (for good), j3 (cancelled) and j4 (pending) never came back.
  EXPECT_EQ(m.failures, 5);
  EXPECT_EQ(m.jobs_not_recovered, 3);
  EXPECT_EQ(m.recovery_s.count, 2);  // j0 after 2 s, j1 after 10 s
  // j4 (5 GPUs x 12 s) is in the total but in no event.
  EXPECT_NEAR(m.failure_gpu_hours_lost, (30 + 90 + 4 * 45 + 5 * 12) * kGpuSecond, 1e-12);
  ASSERT_EQ(m.rows.size(), 1u);
  EXPECT_NEAR(m.rows[0].failure_gpu_hours_lost, m.failure_gpu_hours_lost, 1e-12);
}

TEST(MetricsRecorderTest, FailureThatHitsMoreJobsLaterRecoversWithTheLast) {
  // A cluster is lost at 10 s: one job fails at once and restarts at 15 s; another fails when
  // the toleration expires at 20 s and restarts at 30 s. Recovery: 20 s after the loss.
  MetricsRecorder r;
  JobIndex x = r.RecordSubmitted(0, {"t", "q", "c", 1000, 0, 0});
  JobIndex y = r.RecordSubmitted(0, {"t", "q", "c", 1000, 0, 0});
  r.RecordStarted(0, x);
  r.RecordStarted(0, y);
  FailureIndex lost = r.RecordFailureEvent(10'000, "cluster west");
  r.RecordFailed(10'000, x, true, lost);
  r.RecordStarted(15'000, x);
  r.RecordFailed(20'000, y, true, lost);
  r.RecordStarted(30'000, y);
  RunMetrics m = r.Finish(40'000);
  ASSERT_EQ(m.failure_events.size(), 1u);
  EXPECT_EQ(m.failure_events[0].jobs_hit, 2);
  EXPECT_DOUBLE_EQ(m.failure_events[0].recovered_after_s.value_or(-1), 20);
  EXPECT_EQ(m.failure_events_not_recovered, 0);
  EXPECT_EQ(m.jobs_not_recovered, 0);
}

TEST(MetricsRecorderTest, NoEventsGiveNoRows) {
  MetricsRecorder r;
  RunMetrics m = r.Finish(1000);
  EXPECT_TRUE(m.rows.empty());
  EXPECT_EQ(m.jobs_submitted, 0);
  EXPECT_EQ(m.gpu_allocation_pct, 0);
  EXPECT_EQ(m.jain_index, 1);
}

TEST(MetricsRecorderTest, OutOfOrderCallsAreBugs) {
  MetricsRecorder r;
  JobIndex j = r.RecordSubmitted(10, {"t", "q", "c", 1000, 0, 0});
  EXPECT_DEATH(r.RecordFinished(20, j), "not running");
  EXPECT_DEATH(r.RecordStarted(5, j), "backwards");
  r.RecordStarted(10, j);
  EXPECT_DEATH(r.RecordFailed(20, j, true, FailureIndex{3}), "unknown failure event");
  EXPECT_DEATH(r.RecordPoolCapacity(20, {"f", "m"}, -1), "negative pool capacity");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
