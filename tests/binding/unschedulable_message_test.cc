// The "0/N nodes are available: ..." message: reasons counted over nodes, a node giving
// several reasons counted for each, rendered "<count> <reason>", sorted as strings (so the
// counts take part in the order), and the rejections that go with it.
#include <gtest/gtest.h>

#include "binding/framework/fit_error.h"
#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using testing::kGi;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::SnapshotBuilder;

model::PodDecision ScheduleLast(const model::Snapshot& s) {
  Scheduler scheduler(s, model::SchedulerConfig{});
  return scheduler.ScheduleOne(model::PodIndex{static_cast<int32_t>(s.pods.size()) - 1});
}

TEST(UnschedulableMessageTest, GpuClusterExample) {
  SnapshotBuilder s;
  for (int i = 0; i < 8; ++i) {
    s.Add(NodeBuilder(testing::Indexed("cpu-", i)).Cpu(16000).Memory(64 * kGi));
  }
  for (int i = 0; i < 4; ++i) {
    s.Add(NodeBuilder(testing::Indexed("gpu-", i))
              .Cpu(16000)
              .Memory(64 * kGi)
              .Gpu(8)
              .Taint("nvidia.com/gpu", "present"));
  }
  s.Add(PodBuilder("train").Container({{"nvidia.com/gpu", 1}}));
  model::PodDecision d = ScheduleLast(s.Build());
  EXPECT_FALSE(d.node.has_value());
  // "4 node(s)..." sorts before "8 Insufficient..." because upstream sorts the rendered
  // "<count> <reason>" strings.
  EXPECT_EQ(d.message,
            "0/12 nodes are available: 4 node(s) had untolerated taint {nvidia.com/gpu: present}, "
            "8 Insufficient nvidia.com/gpu.");
  ASSERT_EQ(d.rejections.size(), 2u);
  EXPECT_EQ(d.rejections[0].plugin, "TaintToleration");
  EXPECT_EQ(d.rejections[0].count, 4);
  EXPECT_EQ(d.rejections[0].reason, "node(s) had untolerated taint {nvidia.com/gpu: present}");
  EXPECT_EQ(d.rejections[1].plugin, "NodeResourcesFit");
  EXPECT_EQ(d.rejections[1].reason, "Insufficient nvidia.com/gpu");
  EXPECT_EQ(d.rejections[1].message, "8 Insufficient nvidia.com/gpu");
  EXPECT_EQ(d.rejections[1].stage, "binding");
}

TEST(UnschedulableMessageTest, SeveralReasonsPerNodeCountSeparately) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(1000).Memory(kGi)).Add(NodeBuilder("b").Cpu(1000).Memory(8 * kGi));
  s.Add(PodBuilder("p").Container({{"cpu", 2000}, {"memory", 2 * kGi}}));
  model::PodDecision d = ScheduleLast(s.Build());
  EXPECT_EQ(d.message, "0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.");
}

TEST(UnschedulableMessageTest, CountsSortAsText) {
  SnapshotBuilder s;
  for (int i = 0; i < 10; ++i)
    s.Add(NodeBuilder(testing::Indexed("small-", i)).Cpu(100).Memory(kGi));
  for (int i = 0; i < 2; ++i)
    s.Add(NodeBuilder(testing::Indexed("cordoned-", i)).Cpu(8000).Memory(kGi).Unschedulable());
  s.Add(PodBuilder("p").Container({{"cpu", 1000}}));
  model::PodDecision d = ScheduleLast(s.Build());
  EXPECT_EQ(d.message,
            "0/12 nodes are available: 10 Insufficient cpu, 2 node(s) were unschedulable.");
}

TEST(UnschedulableMessageTest, NoNodes) {
  SnapshotBuilder s;
  s.Add(PodBuilder("p"));
  model::PodDecision d = ScheduleLast(s.Build());
  EXPECT_FALSE(d.node.has_value());
  EXPECT_EQ(d.message, "no nodes available to schedule pods");
}

TEST(ReasonHistogramTest, RendersInStringOrder) {
  ReasonTable reasons;
  ReasonHistogram h;
  h.Add(reasons.Intern("P", "b reason"), 3);
  h.Add(reasons.Intern("P", "a reason"), 3);
  h.Add(reasons.Intern("Q", "z reason"), 12);
  model::PodDecision d;
  h.Render(reasons, 18, &d);
  EXPECT_EQ(d.message, "0/18 nodes are available: 12 z reason, 3 a reason, 3 b reason.");
  ASSERT_EQ(d.rejections.size(), 3u);
  EXPECT_EQ(d.rejections[0].plugin, "Q");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
