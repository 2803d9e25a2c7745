#include "gpu/fragmentation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gpu/fragment_memo.h"
#include "gpu/gpu_test_util.h"
#include "gpu/typical_pods.h"

namespace berth::gpu {
namespace BERTH_UNITY_ID {

using testing::Node;
using testing::NodeWithFree;
using testing::Pod;

constexpr GpuModelId kG2{0};
constexpr GpuModelId kT4{1};

TypicalPod Typical(int64_t cpu_milli, int32_t num_gpu, int32_t gpu_milli, double frequency,
                   ModelSet models = {}) {
  TypicalPod pod;
  pod.cpu_milli = cpu_milli;
  pod.num_gpu = num_gpu;
  pod.gpu_milli = gpu_milli;
  pod.frequency = frequency;
  pod.allowed_models = models;
  return pod;
}

// A sharing pod, a two-GPU pod, a CPU-only pod and a T4-only pod.
std::vector<TypicalPod> HandTypicalPods() {
  return {Typical(2000, 1, 500, 0.4), Typical(4000, 2, 1000, 0.3), Typical(8000, 0, 0, 0.2),
          Typical(1000, 1, 1000, 0.1, ModelSet::Of(kT4))};
}

TEST(TypicalPodsTest, GroupsCutsAt95PercentAndRenormalises) {
  std::vector<PodSpec> pods;
  for (int i = 0; i < 5; ++i) pods.push_back(Pod(1000, 1, 500));
  for (int i = 0; i < 3; ++i) pods.push_back(Pod(2000, 1, 1000, 4096 + i));  // memory ignored
  pods.push_back(Pod(4000, 0, 0));
  PodSpec t4 = Pod(3000, 1, 1000);
  t4.gpu_spec = "T4";
  t4.allowed_models = ModelSet::Of(kT4);
  pods.push_back(t4);

  const std::vector<TypicalPod> all = BuildTypicalPods(pods);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].gpu_milli, 500);
  EXPECT_EQ(all[0].count, 5);
  EXPECT_DOUBLE_EQ(all[0].frequency, 0.5);
  EXPECT_EQ(all[1].count, 3);
  // Equal counts: the larger key (CPU first) goes first, as upstream's reversed sort does.
  EXPECT_EQ(all[2].cpu_milli, 4000);
  EXPECT_EQ(all[3].gpu_spec, "T4");
  EXPECT_TRUE(all[3].allowed_models.Allows(kT4));
  EXPECT_FALSE(all[3].allowed_models.Allows(kG2));

  TypicalPodOptions eighty;
  eighty.popularity_threshold_pct = 80;
  const std::vector<TypicalPod> top = BuildTypicalPods(pods, eighty);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_DOUBLE_EQ(top[0].frequency, 5.0 / 8.0);
  EXPECT_DOUBLE_EQ(top[1].frequency, 3.0 / 8.0);

  TypicalPodOptions gpu_only;
  gpu_only.include_cpu_pods = false;
  const std::vector<TypicalPod> gpu = BuildTypicalPods(pods, gpu_only);
  ASSERT_EQ(gpu.size(), 3u);
  EXPECT_DOUBLE_EQ(gpu[0].frequency + gpu[1].frequency + gpu[2].frequency, 1.0);
  EXPECT_EQ(gpu[2].gpu_spec, "T4");
}

TEST(FragmentationTest, ClassifiesEachCase) {
  const NodeState g2 = NodeWithFree(Node("g2", 64000, 2, kG2), {1000, 300});
  EXPECT_EQ(ClassifyNode(g2, Typical(8000, 0, 0, 1)), FragClass::kXlSatisfied);
  EXPECT_EQ(ClassifyNode(g2, Typical(80000, 0, 0, 1)), FragClass::kXrLackCpu);
  EXPECT_EQ(ClassifyNode(g2, Typical(1000, 1, 100, 1, ModelSet::Of(kT4))), FragClass::kNoAccess);
  EXPECT_EQ(ClassifyNode(g2, Typical(1000, 1, 500, 1)), FragClass::kQ3Satisfied);
  EXPECT_EQ(ClassifyNode(g2, Typical(80000, 1, 500, 1)), FragClass::kQ4LackCpu);
  EXPECT_EQ(ClassifyNode(g2, Typical(1000, 2, 1000, 1)), FragClass::kQ2LackGpu);
  EXPECT_EQ(ClassifyNode(g2, Typical(80000, 2, 1000, 1)), FragClass::kQ1LackBoth);
  EXPECT_EQ(FragClassName(FragClass::kQ3Satisfied), "q3_satisfied");
}

TEST(FragmentationTest, HandComputedNodeFragment) {
  const FragmentationModel model(HandTypicalPods());
  // 2000 idle: the sharing pod fits (Q3) and only the 300 + 0 on GPUs short of 500 is
  // fragment (0.4 x 300 under Q2, 0.4 x 1700 satisfied); two whole GPUs do not fit
  // (0.3 x 2000, Q2); the CPU-only pod lacks CPU (0.2 x 2000, XR); G2 is not T4 (0.1 x 2000).
  NodeState node = NodeWithFree(Node("n", 6000, 4, kG2), {1000, 700, 300, 0});
  FragBreakdown b = model.Breakdown(node);
  EXPECT_DOUBLE_EQ(b[FragClass::kQ2LackGpu], 0.4 * 300 + 0.3 * 2000);
  EXPECT_DOUBLE_EQ(b[FragClass::kQ3Satisfied], 0.4 * 1700);
  EXPECT_DOUBLE_EQ(b[FragClass::kXrLackCpu], 0.2 * 2000);
  EXPECT_DOUBLE_EQ(b[FragClass::kNoAccess], 0.1 * 2000);
  EXPECT_DOUBLE_EQ(b.FragmentMilli(), 1320);
  EXPECT_DOUBLE_EQ(b.IdleMilli(), 2000);
  EXPECT_DOUBLE_EQ(model.NodeFragmentMilli(node), 1320);

  // With 1.5 cores left every class lacks CPU: all 2000 idle is fragment.
  node.cpu_free_milli = 1500;
  b = model.Breakdown(node);
  EXPECT_DOUBLE_EQ(b[FragClass::kQ4LackCpu], 0.4 * 2000);
  EXPECT_DOUBLE_EQ(b[FragClass::kQ1LackBoth], 0.3 * 2000);
  EXPECT_DOUBLE_EQ(b[FragClass::kQ3Satisfied], 0);
  EXPECT_DOUBLE_EQ(model.NodeFragmentMilli(node), 2000);

  // A free 1-GPU T4 node with CPU to spare: only the two-GPU pod (0.3) and, as upstream
  // counts it, the CPU-only pod (0.2, XL) see its 1000 idle as fragment.
  const NodeState t4 = NodeState::FromSpec(Node("t4", 16000, 1, kT4));
  b = model.Breakdown(t4);
  EXPECT_DOUBLE_EQ(b[FragClass::kXlSatisfied], 200);
  EXPECT_DOUBLE_EQ(b[FragClass::kQ3Satisfied], 400 + 100);
  EXPECT_DOUBLE_EQ(model.NodeFragmentMilli(t4), 500);

  // A node without GPUs has nothing to fragment.
  EXPECT_DOUBLE_EQ(model.NodeFragmentMilli(NodeState::FromSpec(Node("cpu", 64000, 0))), 0);
}

TEST(FragmentationTest, FullNodeHasNoFragment) {
  const FragmentationModel model(HandTypicalPods());
  EXPECT_DOUBLE_EQ(model.NodeFragmentMilli(NodeWithFree(Node("n", 6000, 2, kG2), {0, 0})), 0);
}

TEST(FragmentMemoTest, GivesTheModelsValuesBitForBitWhateverTheGpuOrder) {
  const FragmentationModel model(HandTypicalPods());
  FragmentMemo memo(model);
  testing::TestRandom rng(9);
  const int32_t shares[] = {0, 100, 300, 500, 700, 1000};
  for (int round = 0; round < 500; ++round) {
    NodeState node =
        NodeState::FromSpec(Node("n", 16000, 1 + static_cast<int>(rng.UniformIntByRemainder(8)),
                                 rng.UniformIntByRemainder(2) == 0 ? kG2 : kT4));
    node.cpu_free_milli = static_cast<int64_t>(rng.UniformIntByRemainder(5)) * 2000;
    for (int i = 0; i < node.num_gpu; ++i) {
      node.gpu_free_milli[i] = shares[rng.UniformIntByRemainder(6)];
    }
    const double direct = model.NodeFragmentMilli(node);
    EXPECT_EQ(memo.NodeFragmentMilli(node), direct);
    std::reverse(node.gpu_free_milli.begin(), node.gpu_free_milli.begin() + node.num_gpu);
    EXPECT_EQ(memo.NodeFragmentMilli(node), direct);  // same multiset: a hit, same bits
  }
  EXPECT_GE(memo.hits(), 500);
  EXPECT_EQ(memo.hits() + memo.misses(), 1000);
  // States too large to pack are computed directly.
  const NodeState big = NodeState::FromSpec(Node("big", 64000, 16, kG2));
  EXPECT_EQ(memo.NodeFragmentMilli(big), model.NodeFragmentMilli(big));
  EXPECT_EQ(memo.hits() + memo.misses(), 1000);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::gpu
