// Scheduler::AddPod: guest pods (another cluster's workload tried here by fleet dispatch)
// are scheduled, ganged, unbound and overridden like the snapshot's own pods, never enter
// the queue, and leave the same state as the equivalent pods given in the snapshot.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using berth::testing::kGi;
using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;

model::Snapshot TwoNodes() {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n1").Cpu(1000).Memory(4 * kGi).Label("pool", "a"));
  s.Add(NodeBuilder("n2").Cpu(1000).Memory(4 * kGi).Label("pool", "b"));
  s.Add(PodBuilder("local").Created(1).Container({{"cpu", 600}}));
  return s.Build();
}

model::Pod Guest(const std::string& name, int64_t cpu_milli) {
  SnapshotBuilder s;
  s.Add(PodBuilder(name).Created(2).Container({{"cpu", cpu_milli}}));
  return s.Build().pods.front();
}

TEST(AddPodTest, GuestIndicesFollowTheSnapshotAndStayOutOfTheQueue) {
  model::Snapshot snap = TwoNodes();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  const model::PodIndex g0 = scheduler.AddPod(Guest("g0", 100));
  const model::PodIndex g1 = scheduler.AddPod(Guest("g1", 100));
  EXPECT_EQ(g0.v, 1);
  EXPECT_EQ(g1.v, 2);
  EXPECT_EQ(scheduler.QueueOrder(), std::vector<model::PodIndex>{model::PodIndex{0}});
}

TEST(AddPodTest, GuestsTakeCapacityFromLaterPods) {
  model::Snapshot snap = TwoNodes();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  const model::PodIndex a = scheduler.AddPod(Guest("ga", 600));
  const model::PodIndex b = scheduler.AddPod(Guest("gb", 600));
  EXPECT_TRUE(scheduler.ScheduleOne(a).node.has_value());
  EXPECT_TRUE(scheduler.ScheduleOne(b).node.has_value());
  // Both nodes now hold 600m: the local pod fits nowhere.
  const model::PodDecision local = scheduler.ScheduleOne(model::PodIndex{0});
  EXPECT_FALSE(local.node.has_value());
  EXPECT_NE(local.message.find("Insufficient cpu"), std::string::npos) << local.message;
}

TEST(AddPodTest, FailedGangOfGuestsLeavesNoTrace) {
  model::Snapshot snap = TwoNodes();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  std::vector<model::PodIndex> gang;
  for (int i = 0; i < 3; ++i) gang.push_back(scheduler.AddPod(Guest("g" + std::to_string(i), 600)));
  const GangOutcome out = scheduler.ScheduleGang(gang);
  EXPECT_FALSE(out.placed);
  EXPECT_EQ(out.bound, 0);
  // Nothing held: the local pod gets the first node.
  const model::PodDecision local = scheduler.ScheduleOne(model::PodIndex{0});
  EXPECT_EQ(BoundTo(snap, local), "n1");
}

TEST(AddPodTest, UnbindAndOverrideWorkOnGuests) {
  model::Snapshot snap = TwoNodes();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  const model::PodIndex g = scheduler.AddPod(Guest("g", 900));
  ASSERT_TRUE(scheduler.ScheduleOne(g).node.has_value());
  scheduler.Unbind(g);
  model::Pod pinned = Guest("g", 900);
  pinned.node_selector["pool"] = "b";
  scheduler.OverridePod(g, pinned);
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(g)), "n2");
}

TEST(AddPodTest, RejectsBoundGuests) {
  model::Snapshot snap = TwoNodes();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  model::Pod bound = Guest("g", 100);
  bound.node_name = "n1";
  EXPECT_DEATH(scheduler.AddPod(bound), "AddPod");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
