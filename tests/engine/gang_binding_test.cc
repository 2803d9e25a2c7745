// engine's gang binding (gang_binding.h): BindGang's verdict names the pods that failed on
// their own, not those Coscheduling rejected; GuestSlots binds guest gangs all or nothing,
// frees every slot of a failed gang, and reuses freed slots (last freed first) so the
// scheduler grows only to the most guests bound at once.
#include "engine/gang_binding.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "support/model_builders.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

using berth::testing::kGi;
using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;

// Two nodes of 1000m cpu; pods "p0", "p1" of 600m pending; "huge" of 5000m pending.
model::Snapshot TwoNodes() {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n1").Cpu(1000).Memory(4 * kGi));
  s.Add(NodeBuilder("n2").Cpu(1000).Memory(4 * kGi));
  s.Add(PodBuilder("p0").Created(0).Container({{"cpu", 600}}));
  s.Add(PodBuilder("p1").Created(1).Container({{"cpu", 600}}));
  s.Add(PodBuilder("huge").Created(2).Container({{"cpu", 5000}}));
  return s.Build();
}

TEST(GangBindingTest, BindGangPlacesAllOrNothingAndNamesTheFailure) {
  const model::Snapshot snap = TwoNodes();
  binding::Scheduler scheduler(snap, model::SchedulerConfig{});
  GangVerdict failed =
      BindGang(scheduler, {model::PodIndex{0}, model::PodIndex{2}, model::PodIndex{1}});
  EXPECT_FALSE(failed.placed);
  ASSERT_EQ(failed.decisions.size(), 3u);
  for (const model::PodDecision& d : failed.decisions) EXPECT_FALSE(d.node.has_value());
  // p0 was undone and p1 left untried (Coscheduling); only "huge" failed on its own.
  EXPECT_EQ(failed.failed, 1);
  ASSERT_TRUE(failed.first_failure.has_value());
  EXPECT_EQ(*failed.first_failure, 1u);
  EXPECT_FALSE(failed.FirstMessage().empty());
  EXPECT_EQ(failed.FirstMessage(), failed.decisions[1].message);

  GangVerdict placed = BindGang(scheduler, {model::PodIndex{0}, model::PodIndex{1}});
  EXPECT_TRUE(placed.placed);
  EXPECT_EQ(placed.failed, 0);
  EXPECT_FALSE(placed.first_failure.has_value());
  ASSERT_TRUE(placed.decisions[0].node && placed.decisions[1].node);
  EXPECT_NE(placed.decisions[0].node->v, placed.decisions[1].node->v);
}

TEST(GangBindingTest, GuestSlotsFreeFailedGangsAndReuseReleasedSlots) {
  model::Snapshot snap = TwoNodes();
  binding::Scheduler scheduler(snap, model::SchedulerConfig{});
  GuestSlots guests(scheduler);
  auto guest = [&](const std::string& name, int64_t cpu) {
    return PodBuilder(name).Container({{"cpu", cpu}}).Build(snap.resources);
  };
  // Guests follow the snapshot's three pods.
  std::vector<model::PodIndex> slots;
  GangVerdict a = guests.Bind({guest("g0", 600), guest("g1", 600)}, &slots);
  ASSERT_TRUE(a.placed);
  EXPECT_EQ(slots, (std::vector<model::PodIndex>{model::PodIndex{3}, model::PodIndex{4}}));
  const std::vector<model::PodIndex> first = slots;

  // Nothing else fits: the failed gang's new slot is free again, and nothing stays bound.
  std::vector<model::PodIndex> none;
  GangVerdict b = guests.Bind({guest("g2", 600)}, &none);
  EXPECT_FALSE(b.placed);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(b.failed, 1);
  // A single guest reuses that slot.
  const std::optional<model::PodIndex> one = guests.BindOne(guest("g3", 100));
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->v, 5);
  guests.Release({*one});

  // Released slots are reused, last freed first: no new slot is added.
  guests.Release(first);
  EXPECT_EQ(scheduler.NodeFree(model::NodeIndex{0}).Get(model::kCpu), 1000);
  std::vector<model::PodIndex> again;
  GangVerdict c = guests.Bind({guest("g4", 600), guest("g5", 600)}, &again);
  ASSERT_TRUE(c.placed);
  EXPECT_EQ(again, (std::vector<model::PodIndex>{model::PodIndex{4}, model::PodIndex{3}}));
  EXPECT_EQ(scheduler.NodeFree(model::NodeIndex{0}).Get(model::kCpu), 400);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
