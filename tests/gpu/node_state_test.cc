#include "gpu/node_state.h"

#include <gtest/gtest.h>

#include <set>

#include "gpu/gpu_choice.h"
#include "gpu/gpu_cluster.h"
#include "gpu/gpu_test_util.h"

namespace berth::gpu {
namespace BERTH_UNITY_ID {

using testing::Node;
using testing::NodeWithFree;
using testing::Pod;

constexpr GpuModelId kG2{0};
constexpr GpuModelId kT4{1};

TEST(NodeStateTest, FitChecksCpuMemoryModelAndGpuShares) {
  const NodeSpec spec = Node("n", 16000, 2, kG2, 65536);
  NodeState node = NodeWithFree(spec, {300, 1000});
  EXPECT_TRUE(Fits(Pod(16000, 1, 1000, 65536), node));
  EXPECT_FALSE(Fits(Pod(16001, 1, 1000), node));                   // CPU
  EXPECT_FALSE(Fits(Pod(1000, 1, 1000, 65537), node));             // memory
  EXPECT_TRUE(Fits(Pod(1000, 1, 300), node));                      // shares the used GPU
  EXPECT_FALSE(Fits(Pod(1000, 2, 1000), node));                    // one GPU is not fully free
  EXPECT_TRUE(Fits(Pod(1000, 0, 0), NodeWithFree(spec, {0, 0})));  // CPU-only: no GPU check

  PodSpec t4_only = Pod(1000, 1, 500);
  t4_only.allowed_models.Add(kT4);
  EXPECT_FALSE(Fits(t4_only, node));
  t4_only.allowed_models.Add(kG2);
  EXPECT_TRUE(Fits(t4_only, node));
  // A GPU pod never fits a node without GPUs; a model list never fits a node without a model.
  EXPECT_FALSE(Fits(Pod(1000, 1, 100), NodeState::FromSpec(Node("cpu", 64000, 0))));
  PodSpec g2_only = Pod(1000, 1, 500);
  g2_only.allowed_models.Add(kG2);
  NodeSpec unnamed = Node("x", 64000, 2);
  unnamed.model = kNoGpuModel;
  EXPECT_FALSE(Fits(g2_only, NodeState::FromSpec(unnamed)));
  EXPECT_TRUE(Fits(Pod(1000, 1, 500), NodeState::FromSpec(unnamed)));
}

TEST(NodeStateTest, PlaceAndRemoveKeepTheBooks) {
  NodeState node = NodeState::FromSpec(Node("n", 32000, 4, kG2, 1000));
  const PodSpec share = Pod(4000, 1, 250, 100);
  const PodSpec whole = Pod(8000, 2, 1000, 200);
  Place(share, GpuSet::Of(1), node);
  GpuSet two;
  two.Add(2);
  two.Add(3);
  Place(whole, two, node);
  EXPECT_EQ(node.cpu_free_milli, 20000);
  EXPECT_EQ(node.memory_free_mib, 700);
  EXPECT_EQ(node.gpu_free_milli[1], 750);
  EXPECT_EQ(node.GpuFreeMilli(), 1750);
  EXPECT_EQ(node.FullyFreeGpus(), 1);
  EXPECT_EQ(node.GpusWithFree(750), 2);
  EXPECT_EQ(node.pods_by_tag[0], 1);
  EXPECT_EQ(node.pods_by_tag[2], 1);
  EXPECT_EQ(node.tags_present, 2);
  Remove(whole, two, node);
  Remove(share, GpuSet::Of(1), node);
  const NodeState fresh = NodeState::FromSpec(Node("n", 32000, 4, kG2, 1000));
  EXPECT_EQ(node.cpu_free_milli, fresh.cpu_free_milli);
  EXPECT_EQ(node.gpu_free_milli, fresh.gpu_free_milli);
  EXPECT_EQ(node.tags_present, 0);
}

TEST(NodeStateTest, AffinityTags) {
  EXPECT_EQ(AffinityTag(Pod(1000, 0, 0)), kNoAffinityTag);
  EXPECT_EQ(AffinityTag(Pod(1000, 1, 500)), 0);
  EXPECT_EQ(AffinityTag(Pod(1000, 1, 1000)), 1);
  EXPECT_EQ(AffinityTag(Pod(1000, 8, 1000)), 8);
}

TEST(GpuChoiceTest, BestFitTakesTheTightestGpuLowestIndexFirst) {
  const NodeState node = NodeWithFree(Node("n", 64000, 4, kG2), {600, 400, 1000, 400});
  EXPECT_EQ(BestFitGpus(Pod(1000, 1, 300), node), GpuSet::Of(1));
  EXPECT_EQ(BestFitGpus(Pod(1000, 1, 500), node), GpuSet::Of(0));
  EXPECT_EQ(BestFitGpus(Pod(1000, 1, 700), node), GpuSet::Of(2));
  EXPECT_TRUE(BestFitGpus(Pod(1000, 0, 0), node).empty());
}

TEST(GpuChoiceTest, WholeGpuPodsTakeTheLowestFullyFreeGpus) {
  const NodeState node =
      NodeWithFree(Node("n", 64000, 8, kG2), {1000, 0, 1000, 999, 1000, 1000, 1000, 1000});
  GpuSet expected;
  expected.Add(0);
  expected.Add(2);
  expected.Add(4);
  EXPECT_EQ(FirstFreeGpus(Pod(1000, 3, 1000), node), expected);
  EXPECT_EQ(BestFitGpus(Pod(1000, 3, 1000), node), expected);
  testing::TestRandom rng(1);
  EXPECT_EQ(RandomFitGpus(Pod(1000, 3, 1000), node, rng), expected);
}

TEST(GpuChoiceTest, RandomFitDrawsAmongFittingGpusOnly) {
  const NodeState node = NodeWithFree(Node("n", 64000, 4, kG2), {100, 500, 1000, 200});
  testing::TestRandom rng(7);
  std::set<uint32_t> seen;
  for (int i = 0; i < 200; ++i) seen.insert(RandomFitGpus(Pod(1000, 1, 300), node, rng).bits());
  EXPECT_EQ(seen, (std::set<uint32_t>{GpuSet::Of(1).bits(), GpuSet::Of(2).bits()}));
}

TEST(GpuClusterTest, KeepsTotalsAndCachedFragmentsIncrementally) {
  TypicalPod whole;
  whole.cpu_milli = 1000;
  whole.gpu_milli = 1000;
  whole.num_gpu = 1;
  whole.frequency = 1.0;
  const FragmentationModel model({whole});
  const std::vector<NodeSpec> specs = {Node("a", 8000, 2, kG2), Node("b", 8000, 1, kT4)};
  GpuCluster cluster(specs, &model);
  EXPECT_EQ(cluster.gpu_capacity_milli(), 3000);
  EXPECT_DOUBLE_EQ(cluster.fragment_milli(), 0);
  cluster.Place(0, Pod(1000, 1, 400), GpuSet::Of(0));
  // GPU 0 of node a has 600 free, short of a whole GPU: a fragment of 600.
  EXPECT_DOUBLE_EQ(cluster.node_fragment_milli(0), 600);
  EXPECT_DOUBLE_EQ(cluster.fragment_milli(), 600);
  cluster.Place(1, Pod(7500, 0, 0), GpuSet());
  // Node b's CPU (500 left) is short for the typical pod: all its idle GPU is fragment (Q4).
  EXPECT_DOUBLE_EQ(cluster.node_fragment_milli(1), 1000);
  EXPECT_DOUBLE_EQ(cluster.fragment_milli(), 1600);
  EXPECT_EQ(cluster.gpu_allocated_milli(), 400);
  EXPECT_EQ(cluster.gpu_idle_milli(), 2600);
  const FragBreakdown breakdown = cluster.Breakdown();
  EXPECT_DOUBLE_EQ(breakdown.FragmentMilli(), 1600);
  EXPECT_DOUBLE_EQ(breakdown.IdleMilli(), 2600);
  cluster.Remove(0, Pod(1000, 1, 400), GpuSet::Of(0));
  EXPECT_DOUBLE_EQ(cluster.fragment_milli(), 1000);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::gpu
