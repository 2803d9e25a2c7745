// The policies on their second node input, binding's KaiNode (kai_node.h): one scorer per
// policy reads both inputs with the same formula, the KaiNode with the cluster's own max spec.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <vector>

#include "gpu/fragmentation.h"
#include "gpu/gpu_test_util.h"
#include "gpu/kai_node.h"
#include "gpu/node_state.h"
#include "gpu/policy.h"
#include "gpu/policy_scores.h"

namespace berth::gpu {
namespace BERTH_UNITY_ID {

using testing::Node;
using testing::Pod;

constexpr GpuModelId kG2{0};

// A KaiNode of fixed values that counts how often a scorer asks the ledger's choice.
class FakeKaiNode final : public KaiNode {
 public:
  explicit FakeKaiNode(GpuNodeView view) : view_(std::move(view)) {}
  int32_t index() const override { return 0; }
  uint32_t version() const override { return version_; }
  GpuNodeView View() const override { return view_; }
  std::optional<std::vector<int32_t>> Choose(const GpuRequest& request) const override {
    ++choices;
    if (!request.fraction.has_value()) return std::vector<int32_t>{};
    return std::vector<int32_t>{view_.shared.empty() ? -1 : 0};
  }
  double FragmentMilli() const override { return fragment_milli; }
  KindsOnNode Kinds(int64_t) const override { return kinds; }

  void Change() { ++version_; }

  double fragment_milli = 0;
  KindsOnNode kinds;
  mutable int choices = 0;

 private:
  GpuNodeView view_;
  uint32_t version_ = 1;
};

// OpenB's largest node, the max spec the NodeState scorers divide by.
constexpr MaxSpec kOpenbMax{128000, 8000};

GpuNodeView HalfFreeView() {
  GpuNodeView v;
  v.cpu_free_milli = 64000;
  v.gpus = 8;
  v.free_whole = 4;
  v.shareable = true;
  return v;
}

NodeState HalfFreeState() {
  NodeState s = NodeState::FromSpec(Node("n", 128000, 8, kG2));
  s.cpu_free_milli = 64000;
  for (int g = 4; g < 8; ++g) s.gpu_free_milli[g] = 0;
  return s;
}

TEST(KaiScorerTest, BothInputsGiveTheSameScoreUnderTheSameMaxSpec) {
  const GpuFragmentModel fragmentation({});
  const KaiCluster cluster{kOpenbMax, &fragmentation};
  const FakeKaiNode node(HalfFreeView());
  const GpuRequest request{8000, 1, std::nullopt};
  const PodSpec pod = Pod(8000, 1, 1000);
  // DotProd: 1 - (0.5 x 0.0625 + 0.5 x 0.125) / 2 = 0.953; BestFit: 1 - 0.21875 - 0.1875.
  for (Policy policy : {Policy::kDotProd, Policy::kBestFit}) {
    const std::unique_ptr<NodeScorer> scorer = MakeScorer(policy, nullptr);
    EXPECT_EQ(scorer->Score(request, node, cluster), scorer->Score(pod, HalfFreeState(), 0))
        << PolicyName(policy);
  }
  EXPECT_EQ(MakeScorer(Policy::kDotProd, nullptr)->Score(request, node, cluster), 95);
  EXPECT_EQ(MakeScorer(Policy::kBestFit, nullptr)->Score(request, node, cluster), 59);
}

TEST(KaiScorerTest, TheClustersOwnMaxSpecAndClamping) {
  const GpuFragmentModel fragmentation({});
  // A largest node of 64 cores and 4 GPUs: the half-free view counts as wholly free.
  const KaiCluster small{{64000, 4000}, &fragmentation};
  const FakeKaiNode node(HalfFreeView());
  const GpuRequest request{8000, 1, std::nullopt};
  // 1 - (1 x 0.125 + 1 x 0.25) / 2 = 0.8125.
  EXPECT_EQ(MakeScorer(Policy::kDotProd, nullptr)->Score(request, node, small), 81);
}

TEST(KaiScorerTest, ClusteringReadsTheNodesKinds) {
  const GpuFragmentModel fragmentation({});
  const KaiCluster cluster{kOpenbMax, &fragmentation};
  FakeKaiNode node(HalfFreeView());
  const GpuRequest whole{1000, 1, std::nullopt};
  const std::unique_ptr<NodeScorer> scorer = MakeScorer(Policy::kClustering, nullptr);
  // 25 x 4000 / 8000 = 12 inside the band.
  EXPECT_EQ(scorer->Score(whole, node, cluster), 12 + 25);  // no GPU pods
  node.kinds = {true, 1};
  EXPECT_EQ(scorer->Score(whole, node, cluster), 12 + 75);  // only its own kind
  node.kinds = {false, 2};
  EXPECT_EQ(scorer->Score(whole, node, cluster), 12);  // other kinds only
}

TEST(KaiScorerTest, WhatTheCallerDoesIsSaidByTheScorer) {
  EXPECT_TRUE(MakeScorer(Policy::kRandom, nullptr)->always_uniform());
  EXPECT_TRUE(MakeScorer(Policy::kBestFit, nullptr)->min_max_normalised());
  for (Policy policy : {Policy::kDotProd, Policy::kClustering, Policy::kPacking, Policy::kFgd}) {
    EXPECT_FALSE(MakeScorer(policy, nullptr)->always_uniform()) << PolicyName(policy);
    EXPECT_FALSE(MakeScorer(policy, nullptr)->min_max_normalised()) << PolicyName(policy);
  }
  for (Policy policy : kAllPolicies) EXPECT_TRUE(ReadsKaiView(policy)) << PolicyName(policy);
  EXPECT_FALSE(ReadsKaiView(Policy::kBerth));
}

TEST(KaiScorerTest, FgdKeepsItsScorePerNodeVersion) {
  // Typical pods: a whole GPU only. F of the half-free node is 0 (every idle GPU fits one);
  // a quarter on a fresh GPU leaves 750 that no typical pod can use.
  TypicalGpuPod whole;
  whole.request = GpuRequest{1000, 1, std::nullopt};
  whole.count = 1;
  const GpuFragmentModel fragmentation(BuildTypicalGpuPods({whole}));
  const KaiCluster cluster{kOpenbMax, &fragmentation};
  FakeKaiNode node(HalfFreeView());
  GpuRequest quarter;
  quarter.cpu_milli = 1000;
  quarter.fraction = FractionRequest{};
  quarter.fraction->milli = 250;
  const std::unique_ptr<NodeScorer> fgd = MakeScorer(Policy::kFgd, nullptr);
  EXPECT_EQ(fgd->Score(quarter, node, cluster), FgdScore(0, 750));
  EXPECT_EQ(node.choices, 1);
  EXPECT_EQ(fgd->Score(quarter, node, cluster), FgdScore(0, 750));
  EXPECT_EQ(node.choices, 1);
  node.Change();
  fgd->Score(quarter, node, cluster);
  EXPECT_EQ(node.choices, 2);
}

TEST(KaiScorerTest, MinMaxKeepsDistinctScoresDistinct) {
  std::vector<int64_t> scores = {3, 4, 5, 100};
  MinMaxNormalize(scores);
  EXPECT_EQ(scores, (std::vector<int64_t>{0, 1, 2, 100}));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::gpu
