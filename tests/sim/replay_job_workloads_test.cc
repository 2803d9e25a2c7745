// sim/replay job workloads: how a trace job is split into equal pods (SplitJob) and the Kueue
// Workload AddJobWorkloads makes of it (name, UID, queue, priority, creation time, pod set).
#include <gtest/gtest.h>

#include <string>

#include "sim/replay/job_workloads.h"
#include "sim/trace/queued_trace.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

TEST(ReplayJobWorkloadsTest, SplitJobKeepsSmallJobsInOnePod) {
  EXPECT_EQ(SplitJob(0, 8).count, 1);
  EXPECT_EQ(SplitJob(0, 8).gpus_per_pod, 0);
  EXPECT_EQ(SplitJob(1, 8).count, 1);
  EXPECT_EQ(SplitJob(1, 8).gpus_per_pod, 1);
  EXPECT_EQ(SplitJob(8, 8).count, 1);
  EXPECT_EQ(SplitJob(8, 8).gpus_per_pod, 8);
}

TEST(ReplayJobWorkloadsTest, SplitJobMakesEqualPodsCoveringTheJob) {
  struct Case {
    int32_t gpus, max, count, per_pod;
  };
  const Case cases[] = {
      {16, 8, 2, 8},                 // two whole nodes
      {9, 8, 2, 5},                  // ceil(9/8) = 2 pods of ceil(9/2) = 5
      {12, 8, 2, 6}, {17, 8, 3, 6},  // 3 pods of 6 = 18 >= 17
      {24, 8, 3, 8}, {64, 8, 8, 8}, {7, 1, 7, 1}, {5, 4, 2, 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.gpus) + " GPUs, at most " + std::to_string(c.max));
    const PodSplit s = SplitJob(c.gpus, c.max);
    EXPECT_EQ(s.count, c.count);
    EXPECT_EQ(s.gpus_per_pod, c.per_pod);
    EXPECT_GE(s.count * s.gpus_per_pod, c.gpus);
    EXPECT_LE(s.gpus_per_pod, c.max);
  }
}

QueuedTrace TwoJobTrace() {
  QueuedTrace t;
  t.name = "t";
  t.queues = {{"ml", "lq-a"}, {"prod", "lq-b"}};
  TraceJob a;
  a.id = "a";
  a.submit_s = 0;
  a.duration_s = 60;
  a.gpus = 2;
  a.cpu_milli = 6000;
  a.memory_bytes = 1000;
  a.priority = 3;
  TraceJob b;
  b.id = "b";
  b.submit_s = 90;
  b.duration_s = 10;
  b.gpus = 12;
  b.cpu_milli = 7001;  // split over 2 pods: 3501 each (rounded up)
  b.memory_bytes = 3;
  t.jobs = {{a, 0}, {b, 1}};
  return t;
}

TEST(ReplayJobWorkloadsTest, AddJobWorkloadsFillsEveryField) {
  model::Snapshot world;
  world.kueue_workloads.emplace_back();  // one already there: the jobs come after it
  JobShape shape;
  shape.cluster = "east";
  shape.start_unix_s = 1000;
  auto first = AddJobWorkloads(TwoJobTrace(), shape, &world);
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_EQ(*first, 1);
  ASSERT_EQ(world.kueue_workloads.size(), 3u);
  model::ResourceId gpu;
  ASSERT_TRUE(world.resources.Find("nvidia.com/gpu", &gpu));

  const model::Workload& a = world.kueue_workloads[1];
  EXPECT_EQ(a.meta.name, "job-0");
  EXPECT_EQ(a.meta.namespace_, "ml");
  EXPECT_EQ(a.queue_name, "lq-a");
  EXPECT_EQ(a.meta.uid, "sim-0000000000");
  EXPECT_EQ(a.meta.labels.at("kueue.x-k8s.io/job-uid"), "sim-0000000000");
  EXPECT_EQ(a.meta.creation_timestamp.unix_s, 1000);
  EXPECT_EQ(a.priority, 3);
  EXPECT_EQ(a.cluster, "east");
  EXPECT_FALSE(a.admission.has_value());
  ASSERT_EQ(a.pod_sets.size(), 1u);
  EXPECT_EQ(a.pod_sets[0].name, "main");
  EXPECT_EQ(a.pod_sets[0].count, 1);
  EXPECT_EQ(a.pod_sets[0].pod_template.priority, 3);
  EXPECT_EQ(a.pod_sets[0].pod_template.cluster, "east");
  ASSERT_EQ(a.pod_sets[0].pod_template.containers.size(), 1u);
  const model::ResourceVector& ra = a.pod_sets[0].pod_template.containers[0].requests;
  EXPECT_EQ(ra.Get(gpu), 2);
  EXPECT_EQ(ra.Get(model::kCpu), 6000);
  EXPECT_EQ(ra.Get(model::kMemory), 1000);

  const model::Workload& b = world.kueue_workloads[2];
  EXPECT_EQ(b.meta.name, "job-1");
  EXPECT_EQ(b.meta.namespace_, "prod");
  EXPECT_EQ(b.queue_name, "lq-b");
  EXPECT_EQ(b.meta.uid, "sim-0000000001");
  EXPECT_EQ(b.meta.creation_timestamp.unix_s, 1090);
  EXPECT_EQ(b.pod_sets[0].count, 2);
  const model::ResourceVector& rb = b.pod_sets[0].pod_template.containers[0].requests;
  EXPECT_EQ(rb.Get(gpu), 6);
  EXPECT_EQ(rb.Get(model::kCpu), 3501);
  EXPECT_EQ(rb.Get(model::kMemory), 2);
  // UIDs order as the jobs do, so equal creation times keep trace order.
  EXPECT_LT(a.meta.uid, b.meta.uid);
}

TEST(ReplayJobWorkloadsTest, CpuOnlyJobAsksForNoGpu) {
  QueuedTrace t = TwoJobTrace();
  t.jobs.resize(1);
  t.jobs[0].job.gpus = 0;
  model::Snapshot world;
  JobShape shape;
  shape.gpu_resource = "example.com/accel";
  ASSERT_TRUE(AddJobWorkloads(t, shape, &world).has_value());
  model::ResourceId accel;
  ASSERT_TRUE(world.resources.Find("example.com/accel", &accel));
  EXPECT_EQ(world.kueue_workloads[0].pod_sets[0].pod_template.containers[0].requests.Get(accel), 0);
  EXPECT_EQ(world.kueue_workloads[0].cluster, "default");
}

TEST(ReplayJobWorkloadsTest, RejectsMaxGpusPerPodBelowOne) {
  model::Snapshot world;
  JobShape shape;
  shape.max_gpus_per_pod = 0;
  auto r = AddJobWorkloads(TwoJobTrace(), shape, &world);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("got 0"), std::string::npos) << r.error().message();
  EXPECT_TRUE(world.kueue_workloads.empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
