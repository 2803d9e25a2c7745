// Which pods are pending and in which order they are placed.
#include "binding/framework/queue_order.h"

#include <gtest/gtest.h>

#include "binding/scheduler.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using testing::NodeBuilder;
using testing::PodBuilder;
using testing::SnapshotBuilder;

std::vector<std::string> Names(const model::Snapshot& s, const std::vector<model::PodIndex>& pods) {
  std::vector<std::string> out;
  for (auto p : pods) out.push_back(s.pod(p).meta.namespace_ + "/" + s.pod(p).meta.name);
  return out;
}

TEST(QueueOrderTest, PriorityThenCreationThenName) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n"));
  s.Add(PodBuilder("late-low").Priority(0).Created(300));
  s.Add(PodBuilder("early-low").Priority(0).Created(100));
  s.Add(PodBuilder("high").Priority(1000).Created(900));
  s.Add(PodBuilder("b", "ns2").Priority(0).Created(200));
  s.Add(PodBuilder("a", "ns2").Priority(0).Created(200));
  s.Add(PodBuilder("z", "ns1").Priority(0).Created(200));
  s.Add(PodBuilder("negative").Priority(-5).Created(0));
  model::Snapshot snap = s.Build();
  EXPECT_EQ(Names(snap, PendingPodsInQueueOrder(snap, model::SchedulerConfig{})),
            (std::vector<std::string>{"default/high", "default/early-low", "ns1/z", "ns2/a",
                                      "ns2/b", "default/late-low", "default/negative"}));
}

TEST(QueueOrderTest, OnlyPendingPodsOfAServedScheduler) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n"));
  s.Add(PodBuilder("bound").NodeName("n"));
  s.Add(PodBuilder("done").Phase(model::PodPhase::kSucceeded));
  s.Add(PodBuilder("failed").Phase(model::PodPhase::kFailed));
  s.Add(PodBuilder("foreign").SchedulerName("volcano"));
  s.Add(PodBuilder("mine"));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_EQ(Names(snap, scheduler.QueueOrder()), (std::vector<std::string>{"default/mine"}));
  model::PodDecision foreign = scheduler.ScheduleOne(model::PodIndex{3});
  EXPECT_TRUE(foreign.skipped);
  EXPECT_FALSE(foreign.node.has_value());
}

TEST(QueueOrderTest, SecondProfileServesItsPods) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("n").Cpu(1000).Memory(testing::kGi));
  s.Add(PodBuilder("gpu-sched").SchedulerName("gpu-scheduler"));
  model::Snapshot snap = s.Build();
  model::SchedulerConfig config;
  config.profiles.push_back(model::SchedulerProfile{});
  config.profiles.back().scheduler_name = "gpu-scheduler";
  Scheduler scheduler(snap, config);
  ASSERT_EQ(scheduler.QueueOrder().size(), 1u);
  EXPECT_TRUE(scheduler.ScheduleOne(model::PodIndex{0}).node.has_value());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
