// Scheduler end to end: bound pods consume capacity from the start, each bind updates the
// state later pods see, ties go to the first node name, decisions are reproducible.
#include "binding/scheduler.h"

#include <gtest/gtest.h>

#include "binding_test_util.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using testing::kGi;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::SnapshotBuilder;

TEST(SchedulerTest, TiesGoToTheNodeNameThatSortsFirst) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("node-b").Cpu(4000).Memory(8 * kGi))
      .Add(NodeBuilder("node-a").Cpu(4000).Memory(8 * kGi));
  s.Add(PodBuilder("p").Container({{"cpu", 100}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(model::PodIndex{0})), "node-a");
}

TEST(SchedulerTest, BindsUpdateTheStateLaterPodsSee) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(4000).Memory(8 * kGi).Gpu(8))
      .Add(NodeBuilder("b").Cpu(4000).Memory(8 * kGi).Gpu(8));
  for (int i = 0; i < 5; ++i) {
    s.Add(PodBuilder(testing::Indexed("train-", i))
              .Created(i)
              .Container({{"cpu", 500}, {"nvidia.com/gpu", 4}}));
  }
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  std::vector<model::PodDecision> d = scheduler.ScheduleAll();
  ASSERT_EQ(d.size(), 5u);
  // LeastAllocated spreads: a, b, then the one with more room left (a, tie by name), b.
  EXPECT_EQ(BoundTo(snap, d[0]), "a");
  EXPECT_EQ(BoundTo(snap, d[1]), "b");
  EXPECT_EQ(BoundTo(snap, d[2]), "a");
  EXPECT_EQ(BoundTo(snap, d[3]), "b");
  EXPECT_FALSE(d[4].node.has_value());
  EXPECT_EQ(d[4].message, "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
  // Scheduling a bound pod again returns its node and binds nothing.
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(d[0].pod)), "a");
}

TEST(SchedulerTest, BoundPodsConsumeCapacityFromTheStart) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(4000).Memory(8 * kGi)).Add(NodeBuilder("b").Cpu(4000).Memory(8 * kGi));
  s.Add(PodBuilder("running").NodeName("a").Container({{"cpu", 3500}}));
  s.Add(PodBuilder("finished")
            .NodeName("b")
            .Phase(model::PodPhase::kSucceeded)
            .Container({{"cpu", 3500}}));
  s.Add(PodBuilder("elsewhere").NodeName("gone").Container({{"cpu", 3500}}));
  s.Add(PodBuilder("p").Container({{"cpu", 1000}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  std::vector<model::PodDecision> d = scheduler.ScheduleAll();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(BoundTo(snap, d[0]), "b");
}

TEST(SchedulerTest, MostAllocatedPacks) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(4000).Memory(8 * kGi)).Add(NodeBuilder("b").Cpu(4000).Memory(8 * kGi));
  for (int i = 0; i < 3; ++i)
    s.Add(PodBuilder(testing::Indexed("p", i))
              .Created(i)
              .Container({{"cpu", 1000}, {"memory", kGi}}));
  model::Snapshot snap = s.Build();
  model::SchedulerConfig config;
  config.profiles[0].fit_strategy.type = model::ScoringStrategyType::kMostAllocated;
  Scheduler scheduler(snap, config);
  for (const auto& d : scheduler.ScheduleAll()) EXPECT_EQ(BoundTo(snap, d), "a");
}

TEST(SchedulerTest, ExplainDoesNotBind) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(1000).Memory(kGi));
  s.Add(PodBuilder("p").Container({{"cpu", 1000}}));
  s.Add(PodBuilder("q").Container({{"cpu", 1000}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  PodExplanation e = scheduler.Explain(model::PodIndex{0});
  EXPECT_EQ(BoundTo(snap, e.decision), "a");
  ASSERT_EQ(e.nodes.size(), 1u);
  EXPECT_TRUE(e.nodes[0].feasible);
  EXPECT_EQ(e.nodes[0].filters.size(), 7u);
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(model::PodIndex{1})), "a");
  EXPECT_FALSE(scheduler.ScheduleOne(model::PodIndex{0}).node.has_value());
}

TEST(SchedulerTest, DisabledFilterDoesNotRun) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(1000).Memory(kGi).Taint("k", "v"));
  s.Add(PodBuilder("p"));
  model::Snapshot snap = s.Build();
  model::SchedulerConfig config;
  config.profiles[0].disabled_filters = {"TaintToleration"};
  Scheduler scheduler(snap, config);
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(model::PodIndex{0})), "a");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
