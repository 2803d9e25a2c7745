// Scheduler::NodeFree / ClusterFree: a node's free capacity is its allocatable minus what
// the pods bound there request, as binding accounts it (bound input pods, terminal ones
// excepted; the init-container rule and overhead; every bind, unbind and guest since), and
// the cluster's is the sum over its nodes.
#include <gtest/gtest.h>

#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using berth::testing::kGi;
using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;

model::PodIndex P(int32_t i) { return model::PodIndex{i}; }
model::NodeIndex N(int32_t i) { return model::NodeIndex{i}; }

struct Ids {
  model::ResourceId cpu, memory, gpu;
};

Ids Find(const model::Snapshot& snap) {
  Ids ids;
  EXPECT_TRUE(snap.resources.Find("cpu", &ids.cpu));
  EXPECT_TRUE(snap.resources.Find("memory", &ids.memory));
  EXPECT_TRUE(snap.resources.Find("nvidia.com/gpu", &ids.gpu));
  return ids;
}

TEST(FreeCapacityTest, AllocatableLessWhatBoundPodsRequest) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(4000).Memory(8 * kGi).Gpu(4));
  s.Add(NodeBuilder("b").Cpu(2000).Memory(4 * kGi).Gpu(2));
  // Bound in the input: the init container's larger cpu request and the overhead count.
  s.Add(PodBuilder("running").NodeName("a").InitContainer({{"cpu", 1500}})
            .Container({{"cpu", 1000}, {"memory", kGi}, {"nvidia.com/gpu", 1}})
            .Overhead({{"cpu", 100}}));
  // Terminal pods hold nothing.
  s.Add(PodBuilder("done").NodeName("b").Phase(model::PodPhase::kSucceeded)
            .Container({{"cpu", 2000}, {"nvidia.com/gpu", 2}}));
  s.Add(PodBuilder("pending").Created(1).NodeSelector("kubernetes.io/hostname", "b")
            .Container({{"cpu", 500}, {"memory", 2 * kGi}, {"nvidia.com/gpu", 2}}));
  model::Snapshot snap = s.Build();
  const Ids r = Find(snap);
  Scheduler scheduler(snap, model::SchedulerConfig{});

  model::ResourceVector a = scheduler.NodeFree(N(0));
  EXPECT_EQ(a.Get(r.cpu), 4000 - 1600);
  EXPECT_EQ(a.Get(r.memory), 7 * kGi);
  EXPECT_EQ(a.Get(r.gpu), 3);
  model::ResourceVector b = scheduler.NodeFree(N(1));
  EXPECT_EQ(b.Get(r.cpu), 2000);
  EXPECT_EQ(b.Get(r.gpu), 2);

  // A bind takes its requests from its node; the cluster's free is the nodes' sum.
  ASSERT_TRUE(scheduler.ScheduleOne(P(2)).node.has_value());
  b = scheduler.NodeFree(N(1));
  EXPECT_EQ(b.Get(r.cpu), 1500);
  EXPECT_EQ(b.Get(r.memory), 2 * kGi);
  EXPECT_EQ(b.Get(r.gpu), 0);
  model::ResourceVector all = scheduler.ClusterFree();
  EXPECT_EQ(all.Get(r.cpu), 2400 + 1500);
  EXPECT_EQ(all.Get(r.memory), 9 * kGi);
  EXPECT_EQ(all.Get(r.gpu), 3);

  // Unbinding gives it back, for input pods too.
  scheduler.Unbind(P(2));
  scheduler.Unbind(P(0));
  EXPECT_EQ(scheduler.NodeFree(N(0)).Get(r.cpu), 4000);
  EXPECT_EQ(scheduler.NodeFree(N(1)).Get(r.gpu), 2);
  EXPECT_EQ(scheduler.ClusterFree().Get(r.gpu), 6);
}

TEST(FreeCapacityTest, GuestsCountAndOvercommitGoesNegative) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(1000).Memory(4 * kGi).Gpu(1));
  // Two input pods bound past the node's allocatable (an overcommitted input).
  s.Add(PodBuilder("x").NodeName("a").Container({{"cpu", 800}}));
  s.Add(PodBuilder("y").NodeName("a").Container({{"cpu", 800}}));
  model::Snapshot snap = s.Build();
  const Ids r = Find(snap);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_EQ(scheduler.NodeFree(N(0)).Get(r.cpu), -600);

  scheduler.Unbind(P(1));
  model::Pod guest =
      PodBuilder("guest").Container({{"cpu", 100}, {"nvidia.com/gpu", 1}}).Build(snap.resources);
  const model::PodIndex g = scheduler.AddPod(guest);
  ASSERT_TRUE(scheduler.ScheduleOne(g).node.has_value());
  EXPECT_EQ(scheduler.NodeFree(N(0)).Get(r.cpu), 100);
  EXPECT_EQ(scheduler.NodeFree(N(0)).Get(r.gpu), 0);
  scheduler.Unbind(g);
  EXPECT_EQ(scheduler.NodeFree(N(0)).Get(r.gpu), 1);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
