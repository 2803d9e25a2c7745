// NodeSelector (node classes) against SelectByScan (one pass over every node): on random
// fleets and pod streams, for every policy and both tie rules, the two must pick the same node
// for every pod and leave the run's Rng in the same state (the same draws, in the same order).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpu/fragmentation.h"
#include "gpu/gpu_cluster.h"
#include "gpu/policy.h"
#include "gpu/typical_pods.h"
#include "sim/core/rng.h"
#include "sim/gpushare/node_selector.h"
#include "sim/gpushare/replay.h"
#include "sim/gpushare/rng_source.h"
#include "sim/gpushare_test_util.h"

namespace berth::sim::gpushare {
namespace BERTH_UNITY_ID {

using testing::Node;
using testing::Pod;

std::vector<gpu::NodeSpec> RandomFleet(Rng& rng, int count) {
  std::vector<gpu::NodeSpec> nodes;
  const int gpus[] = {0, 1, 2, 4, 8};
  for (int i = 0; i < count; ++i) {
    const int g = gpus[rng.UniformIntByRemainder(5)];
    const auto model = gpu::GpuModelId{static_cast<uint8_t>(rng.UniformIntByRemainder(3))};
    nodes.push_back(Node(std::to_string(i), 32000 + 32000 * static_cast<int64_t>(rng.UniformIntByRemainder(3)),
                         g, model, 131072 * (1 + static_cast<int64_t>(rng.UniformIntByRemainder(2)))));
  }
  return nodes;
}

std::vector<gpu::PodSpec> RandomPods(Rng& rng, int count) {
  std::vector<gpu::PodSpec> pods;
  const int shares[] = {100, 250, 500, 700, 1000};
  for (int i = 0; i < count; ++i) {
    const auto cpu = 1000 * (1 + static_cast<int64_t>(rng.UniformIntByRemainder(16)));
    const auto kind = rng.UniformIntByRemainder(10);
    gpu::PodSpec pod;
    if (kind == 0) {
      pod = Pod(cpu, 0, 0, 4096);
    } else if (kind < 6) {
      pod = Pod(cpu, 1, shares[rng.UniformIntByRemainder(5)], 8192);
    } else {
      pod = Pod(cpu, 1 << rng.UniformIntByRemainder(4), 1000, 16384);
    }
    pod.name = std::to_string(i);
    pods.push_back(pod);
  }
  return pods;
}

struct ReplayRun {
  ReplayRun(std::span<const gpu::NodeSpec> nodes, const gpu::FragmentationModel* fragmentation,
      gpu::Policy policy, uint64_t seed)
      : cluster(nodes, fragmentation),
        scorer(gpu::MakeScorer(policy, fragmentation, &cluster)),
        rng(seed),
        draws(rng) {}
  gpu::GpuCluster cluster;
  std::unique_ptr<gpu::NodeScorer> scorer;
  Rng rng;
  RngSource draws;
};

void Place(ReplayRun& run, int node, const gpu::PodSpec& pod) {
  const gpu::GpuSet gpus = run.scorer->ChooseGpus(pod, run.cluster.node(node),
                                                  run.cluster.node_fragment_milli(node), run.draws);
  run.cluster.Place(node, pod, gpus);
}

TEST(NodeSelectorTest, ChoosesAsTheScanForEveryPolicyAndTieRule) {
  const gpu::Policy policies[] = {gpu::Policy::kRandom,  gpu::Policy::kDotProd,
                                  gpu::Policy::kClustering, gpu::Policy::kPacking,
                                  gpu::Policy::kBestFit, gpu::Policy::kFgd,
                                  gpu::Policy::kBerth};
  for (uint64_t seed : {1u, 2u, 3u}) {
    Rng setup(seed);
    const std::vector<gpu::NodeSpec> nodes = RandomFleet(setup, 60);
    const std::vector<gpu::PodSpec> pods = RandomPods(setup, 400);
    const gpu::FragmentationModel fragmentation(gpu::BuildTypicalPods(pods));
    for (gpu::Policy policy : policies) {
      for (TieBreak tie : {TieBreak::kSeededNodeOrder, TieBreak::kUniform}) {
        SCOPED_TRACE(::testing::Message() << gpu::PolicyName(policy) << " seed " << seed
                                          << (tie == TieBreak::kUniform ? " uniform" : " ranked"));
        ReplayRun scan(nodes, &fragmentation, policy, seed);
        ReplayRun indexed(nodes, &fragmentation, policy, seed);
        Rng rank_rng(seed + 100);
        const std::vector<int32_t> ranks = NodeRanks(nodes, rank_rng);
        NodeSelector selector(ranks, tie);
        int placed = 0;
        for (const gpu::PodSpec& pod : pods) {
          const int a = SelectByScan(*scan.scorer, pod, scan.cluster, ranks, tie, scan.rng);
          const int b = selector.Select(*indexed.scorer, pod, indexed.cluster, indexed.rng);
          ASSERT_EQ(a, b) << pod.name;
          if (a < 0) continue;
          ++placed;
          Place(scan, a, pod);
          Place(indexed, b, pod);
          selector.Update(b, indexed.cluster);
          ASSERT_TRUE(scan.cluster.node(a) == indexed.cluster.node(b)) << pod.name;
        }
        EXPECT_GT(placed, 50);
        EXPECT_LT(placed, 400);  // the fleet fills up: infeasible pods are exercised too
        EXPECT_EQ(scan.rng.Next(), indexed.rng.Next()) << "the same draws";
        EXPECT_LE(selector.classes(), 60);
      }
    }
  }
}

// Many equal nodes: a uniform draw among hundreds of tied nodes in many classes (KthTied's
// pass over the nodes) and in few (its binary search).
TEST(NodeSelectorTest, UniformDrawsFindTheSameNodeAmongManyTiedClasses) {
  std::vector<gpu::NodeSpec> nodes;
  for (int i = 0; i < 400; ++i) nodes.push_back(Node(std::to_string(i), 64000, 8));
  Rng setup(7);
  const std::vector<gpu::PodSpec> stream = RandomPods(setup, 3000);
  const gpu::FragmentationModel fragmentation(gpu::BuildTypicalPods(stream));
  for (gpu::Policy policy : {gpu::Policy::kRandom, gpu::Policy::kBestFit}) {
    SCOPED_TRACE(::testing::Message() << gpu::PolicyName(policy));
    ReplayRun scan(nodes, &fragmentation, policy, 9);
    ReplayRun indexed(nodes, &fragmentation, policy, 9);
    std::vector<int32_t> ranks(nodes.size());
    for (size_t i = 0; i < ranks.size(); ++i) ranks[i] = static_cast<int32_t>(ranks.size() - i);
    NodeSelector selector(ranks, TieBreak::kUniform);
    int most_classes = 0;
    for (const gpu::PodSpec& pod : stream) {
      const int a = SelectByScan(*scan.scorer, pod, scan.cluster, ranks, TieBreak::kUniform,
                                 scan.rng);
      const int b = selector.Select(*indexed.scorer, pod, indexed.cluster, indexed.rng);
      ASSERT_EQ(a, b) << pod.name;
      if (a < 0) continue;
      Place(scan, a, pod);
      Place(indexed, b, pod);
      selector.Update(b, indexed.cluster);
      most_classes = std::max(most_classes, selector.classes());
    }
    EXPECT_GT(most_classes, 40);  // beyond the binary search's limit
    EXPECT_EQ(scan.rng.Next(), indexed.rng.Next());
  }
}

// More pod shapes than Random's Fenwick table holds: the later shapes go through the node
// classes (keyed by what the filter reads) and must still draw as the scan.
TEST(NodeSelectorTest, RandomBeyondItsShapeTableDrawsAsTheScan) {
  Rng setup(11);
  const std::vector<gpu::NodeSpec> nodes = RandomFleet(setup, 120);
  std::vector<gpu::PodSpec> pods;
  const size_t count = NodeSelector::kMaxFeasibleShapes + 200;
  for (size_t i = 0; i < count; ++i) {
    gpu::PodSpec pod = Pod(100 + static_cast<int64_t>(i), 1, i % 3 == 0 ? 1000 : 250, 1024);
    pod.name = std::to_string(i);
    pods.push_back(pod);
  }
  const gpu::FragmentationModel fragmentation(gpu::BuildTypicalPods(pods));
  for (TieBreak tie : {TieBreak::kSeededNodeOrder, TieBreak::kUniform}) {
    ReplayRun scan(nodes, &fragmentation, gpu::Policy::kRandom, 5);
    ReplayRun indexed(nodes, &fragmentation, gpu::Policy::kRandom, 5);
    Rng rank_rng(6);
    const std::vector<int32_t> ranks = NodeRanks(nodes, rank_rng);
    NodeSelector selector(ranks, tie);
    for (const gpu::PodSpec& pod : pods) {
      const int a = SelectByScan(*scan.scorer, pod, scan.cluster, ranks, tie, scan.rng);
      const int b = selector.Select(*indexed.scorer, pod, indexed.cluster, indexed.rng);
      ASSERT_EQ(a, b) << pod.name;
      if (a < 0) continue;
      Place(scan, a, pod);
      Place(indexed, b, pod);
      selector.Update(b, indexed.cluster);
    }
    EXPECT_EQ(scan.rng.Next(), indexed.rng.Next());
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::gpushare
