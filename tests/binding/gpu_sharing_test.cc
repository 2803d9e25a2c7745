// GpuSharing: fractional GPU pods (KAI Scheduler's gpu-fraction / gpu-memory annotations)
// pack onto GPUs reserved for sharing, never share a GPU with whole-GPU pods, are routed
// to the reference path, and show the filter in their own verdicts only.
#include "binding/plugins/gpu_sharing.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using testing::kGi;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::SnapshotBuilder;

// A node "gpu" with `gpus` GPUs of 80 GiB, and pods in the order given.
model::Snapshot Build(int64_t gpus, const std::vector<std::pair<PodBuilder, core::Labels>>& pods,
                      bool second_node = false) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("gpu").Cpu(32000).Memory(256 * kGi).Gpu(gpus).Label("nvidia.com/gpu.memory",
                                                                        "81920"));
  if (second_node) s.Add(NodeBuilder("cpu").Cpu(32000).Memory(256 * kGi));
  for (const auto& [pod, annotations] : pods) s.Add(pod);
  model::Snapshot snap = s.Build();
  for (size_t i = 0; i < pods.size(); ++i) snap.pods[i].meta.annotations = pods[i].second;
  return snap;
}

PodBuilder Pod(const std::string& name, int created) {
  return PodBuilder(name).Created(created).Container({{"cpu", 1000}});
}

TEST(GpuSharingTest, FractionsPackOnOneGpuAndKeepWholeGpuPodsOff) {
  model::Snapshot snap = Build(
      1, {{Pod("half-a", 1), {{"gpu-fraction", "0.5"}}},
          {PodBuilder("whole").Created(2).Container({{"cpu", 1000}, {"nvidia.com/gpu", 1}}), {}},
          {Pod("half-b", 3), {{"gpu-fraction", "0.5"}}},
          {Pod("quarter", 4), {{"gpu-fraction", "0.25"}}}});
  Scheduler scheduler(snap, model::SchedulerConfig{});
  std::vector<model::PodDecision> d = scheduler.ScheduleAll();
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(BoundTo(snap, d[0]), "gpu");
  // The GPU is reserved for sharing: nvidia.com/gpu is used up.
  EXPECT_FALSE(d[1].node.has_value());
  EXPECT_EQ(d[1].message, "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
  EXPECT_EQ(BoundTo(snap, d[2]), "gpu");
  EXPECT_FALSE(d[3].node.has_value());
  EXPECT_EQ(d[3].message,
            "0/1 nodes are available: 1 node(s) didn't have a GPU with enough free fraction.");
  ASSERT_EQ(d[3].rejections.size(), 1u);
  EXPECT_EQ(d[3].rejections[0].plugin, "GpuSharing");
  SchedulerStats stats = scheduler.stats();
  EXPECT_EQ(stats.reference, 3);  // the fractional pods
  EXPECT_EQ(stats.indexed, 1);
}

TEST(GpuSharingTest, FractionsOpenAnotherGpuWhenNoneFits) {
  model::Snapshot snap =
      Build(2, {{Pod("a", 1), {{"gpu-fraction", "0.75"}}},
                {Pod("b", 2), {{"gpu-fraction", "0.5"}}},
                {Pod("c", 3), {{"gpu-memory", "20480"}}},
                {PodBuilder("whole").Created(4).Container({{"nvidia.com/gpu", 1}}), {}}});
  Scheduler scheduler(snap, model::SchedulerConfig{});
  std::vector<model::PodDecision> d = scheduler.ScheduleAll();
  EXPECT_EQ(BoundTo(snap, d[0]), "gpu");
  EXPECT_EQ(BoundTo(snap, d[1]), "gpu");  // second GPU reserved
  EXPECT_EQ(BoundTo(snap, d[2]), "gpu");  // 0.25 of memory: packs onto the first (0.75)
  EXPECT_FALSE(d[3].node.has_value());    // both GPUs reserved
}

TEST(GpuSharingTest, MemoryRequestsNameMemoryInTheirReason) {
  model::Snapshot snap = Build(1, {{Pod("big", 1), {{"gpu-memory", "90000"}}}}, true);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  std::vector<model::PodDecision> d = scheduler.ScheduleAll();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "0/2 nodes are available: 2 node(s) didn't have a GPU with enough free memory.");
}

TEST(GpuSharingTest, MalformedAnnotationsRejectEveryNode) {
  model::Snapshot snap = Build(1, {{Pod("bad", 1), {{"gpu-fraction", "1.5"}}}});
  Scheduler scheduler(snap, model::SchedulerConfig{});
  std::vector<model::PodDecision> d = scheduler.ScheduleAll();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_FALSE(d[0].node.has_value());
  EXPECT_EQ(d[0].message,
            "0/1 nodes are available: invalid GPU fraction request: "
            "metadata.annotations[gpu-fraction]: invalid value \"1.5\": must be a number "
            "greater than 0 and at most 1.");
}

// Explain evaluates every filter on every node, but a filter whose PreFilter rejected the
// pod is not asked again (upstream never calls it): its verdict is the rejection. Before,
// GpuSharing's Filter ran on a pod without a parsed fraction and gave a reason it had never
// interned (id -1), and rendering that text read out of bounds (std::bad_alloc in
// `berth explain`).
TEST(GpuSharingTest, ExplainOfMalformedAnnotationsShowsTheRejectionOnEveryNode) {
  model::Snapshot snap = Build(1, {{Pod("bad", 1), {{"gpu-fraction", "1.5"}}}}, true);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  PodExplanation e = scheduler.Explain(model::PodIndex{0});
  const std::string rejection =
      "invalid GPU fraction request: metadata.annotations[gpu-fraction]: invalid value "
      "\"1.5\": must be a number greater than 0 and at most 1";
  EXPECT_EQ(FilterReason(e, snap, "gpu", "GpuSharing"), rejection);
  EXPECT_EQ(FilterReason(e, snap, "cpu", "GpuSharing"), rejection);
  for (const NodeVerdict& v : e.nodes) EXPECT_FALSE(v.feasible);
  EXPECT_FALSE(e.decision.node.has_value());
  EXPECT_EQ(e.decision.message, "0/2 nodes are available: " + rejection + ".");
}

TEST(GpuSharingTest, BoundFractionalPodsHoldTheirShareFromTheStart) {
  model::Snapshot snap =
      Build(1, {{Pod("running", 1).NodeName("gpu"), {{"gpu-fraction", "0.75"}}},
                {Pod("next", 2), {{"gpu-fraction", "0.5"}}},
                {PodBuilder("whole").Created(3).Container({{"nvidia.com/gpu", 1}}), {}}});
  Scheduler scheduler(snap, model::SchedulerConfig{});
  std::vector<model::PodDecision> d = scheduler.ScheduleAll();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_FALSE(d[0].node.has_value());
  EXPECT_FALSE(d[1].node.has_value());
}

TEST(GpuSharingTest, OnlyFractionalPodsShowTheFilter) {
  model::Snapshot snap =
      Build(1, {{Pod("half", 1), {{"gpu-fraction", "0.5"}}}, {Pod("plain", 2), {}}}, true);
  Scheduler scheduler(snap, model::SchedulerConfig{});
  PodExplanation half = scheduler.Explain(model::PodIndex{0});
  EXPECT_EQ(FilterReason(half, snap, "gpu", "GpuSharing"), "");
  EXPECT_EQ(FilterReason(half, snap, "cpu", "GpuSharing"),
            "node(s) didn't have a GPU with enough free fraction");
  EXPECT_EQ(BoundTo(snap, half.decision), "gpu");
  PodExplanation plain = scheduler.Explain(model::PodIndex{1});
  EXPECT_EQ(FilterReason(plain, snap, "gpu", "GpuSharing"), "<no filter>");
  EXPECT_EQ(plain.nodes[0].filters.size(), 7u);
}

TEST(GpuSharingTest, IndexAndReferencePathsAgree) {
  std::vector<std::pair<PodBuilder, core::Labels>> pods;
  for (int i = 0; i < 12; ++i) {
    if (i % 3 == 0) {
      pods.push_back({PodBuilder(testing::Indexed("whole-", i))
                          .Created(i)
                          .Container({{"cpu", 500}, {"nvidia.com/gpu", 1}}),
                      {}});
    } else {
      pods.push_back(
          {Pod(testing::Indexed("frac-", i), i), {{"gpu-fraction", i % 3 == 1 ? "0.5" : "0.3"}}});
    }
  }
  model::Snapshot snap = Build(4, pods, true);
  Scheduler indexed(snap, model::SchedulerConfig{});
  Scheduler reference(snap, model::SchedulerConfig{}, SchedulerOptions{false});
  std::vector<model::PodDecision> a = indexed.ScheduleAll();
  std::vector<model::PodDecision> b = reference.ScheduleAll();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(BoundTo(snap, a[i]), BoundTo(snap, b[i])) << i;
    EXPECT_EQ(a[i].message, b[i].message) << i;
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
