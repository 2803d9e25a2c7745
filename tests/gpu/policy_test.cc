#include "gpu/policy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <set>

#include "gpu/fragmentation.h"
#include "gpu/gpu_test_util.h"
#include "gpu/node_state.h"

namespace berth::gpu {
namespace BERTH_UNITY_ID {

using testing::Node;
using testing::NodeWithFree;
using testing::Pod;

constexpr GpuModelId kG2{0};

int64_t ScoreOf(Policy policy, const PodSpec& pod, const NodeState& node,
                const FragmentationModel* fragmentation = nullptr) {
  const std::unique_ptr<NodeScorer> scorer = MakeScorer(policy, fragmentation);
  const double f = fragmentation != nullptr ? fragmentation->NodeFragmentMilli(node) : 0;
  return scorer->Score(pod, node, f);
}

GpuSet GpusOf(Policy policy, const PodSpec& pod, const NodeState& node,
              const FragmentationModel* fragmentation = nullptr) {
  const std::unique_ptr<NodeScorer> scorer = MakeScorer(policy, fragmentation);
  const double f = fragmentation != nullptr ? fragmentation->NodeFragmentMilli(node) : 0;
  testing::TestRandom rng(3);
  return scorer->ChooseGpus(pod, node, f, rng);
}

TEST(PolicyTest, NamesRoundTripAndListsParse) {
  for (Policy policy : kAllPolicies) {
    core::Result<Policy> parsed = ParsePolicy(PolicyName(policy));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, policy);
  }
  EXPECT_EQ(PolicyName(Policy::kClustering), "clustering");
  EXPECT_EQ(PolicyPaperName(Policy::kFgd), "06-FGD");
  EXPECT_EQ(*ParsePolicy("BestFit"), Policy::kBestFit);
  core::Result<std::vector<Policy>> all = ParsePolicyList("all");
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->size(), 6u);
  core::Result<std::vector<Policy>> two = ParsePolicyList("fgd,bestfit,fgd");
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(*two, (std::vector<Policy>{Policy::kFgd, Policy::kBestFit}));
  core::Result<std::vector<Policy>> bad = ParsePolicyList("fgd,tetris");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("tetris"), std::string::npos);
  EXPECT_NE(bad.error().message().find("dotprod"), std::string::npos);
  EXPECT_FALSE(ParsePolicyList("fgd,").has_value());
}

TEST(PolicyTest, DotProdHandCase) {
  // Node (64 of 128 cores, 2 of 8 GPUs free) . pod (8 cores, 1 GPU) = 0.5 x 0.0625 + 0.25 x
  // 0.125 = 0.0625; 1 - 0.0625 / 2 = 0.96875 -> 96.
  const NodeState node = NodeState::FromSpec(Node("n", 64000, 2, kG2));
  EXPECT_EQ(ScoreOf(Policy::kDotProd, Pod(8000, 1, 1000), node), 96);
  // An emptier node makes a larger product, so a lower score.
  const NodeState big = NodeState::FromSpec(Node("n", 128000, 8, kG2));
  EXPECT_EQ(ScoreOf(Policy::kDotProd, Pod(8000, 1, 1000), big), 90);  // 1 - 0.1875 / 2
  EXPECT_EQ(GpusOf(Policy::kDotProd, Pod(1000, 1, 200),
                   NodeWithFree(Node("n", 64000, 2, kG2), {1000, 300})),
            GpuSet::Of(1));
}

TEST(PolicyTest, BestFitHandCase) {
  // Left over: (64 - 8) / 128 x 0.5 + (2 - 1) / 8 x 0.5 = 0.28125; (1 - 0.28125) x 100 = 71.
  const NodeState node = NodeState::FromSpec(Node("n", 64000, 2, kG2));
  EXPECT_EQ(ScoreOf(Policy::kBestFit, Pod(8000, 1, 1000), node), 71);
  // Exactly full afterwards: 100.
  EXPECT_EQ(ScoreOf(Policy::kBestFit, Pod(64000, 2, 1000), node), 100);
  EXPECT_EQ(GpusOf(Policy::kBestFit, Pod(1000, 1, 200),
                   NodeWithFree(Node("n", 64000, 3, kG2), {500, 300, 1000})),
            GpuSet::Of(1));
}

TEST(PolicyTest, ClusteringBands) {
  const NodeSpec spec = Node("n", 96000, 8, kG2);
  const PodSpec share = Pod(1000, 1, 500);
  // Idle node: (25, 50], nothing allocated: 25.
  EXPECT_EQ(ScoreOf(Policy::kClustering, share, NodeState::FromSpec(spec)), 25);
  // Only sharing pods there (500 used): 75 + 25 x 500 / 8000 = 75 + 1.
  NodeState shared = NodeState::FromSpec(spec);
  Place(share, GpuSet::Of(0), shared);
  EXPECT_EQ(ScoreOf(Policy::kClustering, share, shared), 76);
  // Only a 1-GPU pod there: another kind only, 25 x 1000 / 8000 = 3.
  NodeState whole = NodeState::FromSpec(spec);
  Place(Pod(1000, 1, 1000), GpuSet::Of(0), whole);
  EXPECT_EQ(ScoreOf(Policy::kClustering, share, whole), 3);
  // Both kinds: the pod's kind among others, 50 + 25 x 1500 / 8000 = 54.
  Place(share, GpuSet::Of(1), whole);
  EXPECT_EQ(ScoreOf(Policy::kClustering, share, whole), 54);
  // CPU-only pods score 0 everywhere.
  EXPECT_EQ(ScoreOf(Policy::kClustering, Pod(1000, 0, 0), shared), 0);
}

TEST(PolicyTest, PackingCases) {
  const PodSpec share = Pod(1000, 1, 200);
  // Case 3, idle nodes: 33 - free GPUs, so a small idle node wins over a big one.
  EXPECT_EQ(ScoreOf(Policy::kPacking, share, NodeState::FromSpec(Node("n", 96000, 8, kG2))), 25);
  EXPECT_EQ(ScoreOf(Policy::kPacking, share, NodeState::FromSpec(Node("n", 96000, 2, kG2))), 31);
  // Case 1, a partly used GPU with 300 free: 100 - 30 / 10 = 97.
  const NodeState used = NodeWithFree(Node("n", 96000, 4, kG2), {1000, 300, 1000, 1000});
  EXPECT_EQ(ScoreOf(Policy::kPacking, share, used), 97);
  // Case 2, a whole GPU on a used node: 50 - 1; two of them: 48.
  EXPECT_EQ(ScoreOf(Policy::kPacking, Pod(1000, 1, 1000), used), 49);
  EXPECT_EQ(ScoreOf(Policy::kPacking, Pod(1000, 2, 1000), used), 48);
  // The sharing pod does not fit on the used GPU: it breaks a free one (case 2).
  EXPECT_EQ(ScoreOf(Policy::kPacking, Pod(1000, 1, 400), used), 49);
  EXPECT_EQ(ScoreOf(Policy::kPacking, Pod(1000, 0, 0), used), 0);
  EXPECT_EQ(GpusOf(Policy::kPacking, share, used), GpuSet::Of(1));
}

TEST(PolicyTest, RandomScoresAllNodesAlikeAndDrawsFittingGpus) {
  const std::unique_ptr<NodeScorer> scorer = MakeScorer(Policy::kRandom, nullptr);
  EXPECT_TRUE(scorer->always_uniform());
  EXPECT_FALSE(MakeScorer(Policy::kBestFit, nullptr)->always_uniform());
  const NodeState node = NodeWithFree(Node("n", 96000, 4, kG2), {1000, 300, 1000, 100});
  EXPECT_EQ(scorer->Score(Pod(1000, 1, 200), node, 0), 0);
  testing::TestRandom rng(11);
  std::set<uint32_t> seen;
  for (int i = 0; i < 100; ++i)
    seen.insert(scorer->ChooseGpus(Pod(1000, 1, 200), node, 0, rng).bits());
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen.count(GpuSet::Of(3).bits()), 0u);
}

TEST(PolicyTest, FgdScoresTheFragmentGrowthAndPicksTheGpu) {
  // Typical pods: a whole GPU (half) and a half GPU (half); 2-GPU nodes with CPU to spare.
  TypicalPod whole;
  whole.cpu_milli = 1000;
  whole.gpu_milli = 1000;
  whole.num_gpu = 1;
  whole.frequency = 0.5;
  TypicalPod half = whole;
  half.gpu_milli = 500;
  const FragmentationModel model({whole, half});
  const PodSpec pod = Pod(1000, 1, 500);

  // Empty node: F 0 -> 250 (GPU with 500 left is a fragment for whole-GPU pods):
  // sigmoid(-0.25) x 100 = 43.8 -> 43.
  const NodeState empty = NodeState::FromSpec(Node("n", 16000, 2, kG2));
  EXPECT_EQ(ScoreOf(Policy::kFgd, pod, empty, &model), 43);
  // A node whose GPU 1 has 500 left: filling it takes F from 250 to 0, sigmoid(0.25) -> 56;
  // the free GPU 0 would leave two half GPUs, F 500, so FGD takes GPU 1.
  const NodeState half_used = NodeWithFree(Node("n", 16000, 2, kG2), {1000, 500});
  EXPECT_EQ(ScoreOf(Policy::kFgd, pod, half_used, &model), 56);
  EXPECT_EQ(GpusOf(Policy::kFgd, pod, half_used, &model), GpuSet::Of(1));
  EXPECT_NEAR(100 / (1 + std::exp(-0.25)), 56.2, 0.1);
  // Whole-GPU pods take the lowest free GPU; on the empty node F stays 0: sigmoid(0) = 50.
  EXPECT_EQ(ScoreOf(Policy::kFgd, Pod(1000, 1, 1000), empty, &model), 50);
  EXPECT_EQ(GpusOf(Policy::kFgd, Pod(1000, 1, 1000), half_used, &model), GpuSet::Of(0));
  // A CPU-only pod that leaves every typical pod room changes nothing: 50; one that makes
  // the CPU short for them turns all idle GPU into fragment: F 0 -> 2000, sigmoid(-2) -> 11.
  EXPECT_EQ(ScoreOf(Policy::kFgd, Pod(1000, 0, 0), empty, &model), 50);
  EXPECT_EQ(ScoreOf(Policy::kFgd, Pod(15500, 0, 0), empty, &model), 11);
  EXPECT_TRUE(GpusOf(Policy::kFgd, Pod(1000, 0, 0), empty, &model).empty());
}

TEST(PolicyTest, FgdTiesBetweenGpusGoToTheLowestIndex) {
  TypicalPod whole;
  whole.cpu_milli = 1000;
  whole.gpu_milli = 1000;
  whole.num_gpu = 1;
  whole.frequency = 1.0;
  const FragmentationModel model({whole});
  // GPUs 1 and 3 have the same free share, so the same outcome: GPU 1.
  const NodeState node = NodeWithFree(Node("n", 16000, 4, kG2), {1000, 600, 0, 600});
  EXPECT_EQ(GpusOf(Policy::kFgd, Pod(1000, 1, 600), node, &model), GpuSet::Of(1));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::gpu
