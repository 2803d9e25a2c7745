#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "sim/core/rng.h"
#include "sim/gpushare/arrival_buckets.h"
#include "sim/gpushare/node_selector.h"
#include "sim/gpushare/openb_reader.h"
#include "sim/gpushare/replay.h"
#include "sim/gpushare_test_util.h"

namespace berth::sim::gpushare {
namespace BERTH_UNITY_ID {

using testing::Node;
using testing::OpenbFixturePath;
using testing::Pod;

constexpr gpu::GpuModelId kG2{0};

OpenbTrace Fixture() {
  core::Result<OpenbTrace> trace =
      ReadOpenbTrace(OpenbFixturePath("openb_node_list_gpu_node.csv"),
                     OpenbFixturePath("openb_pod_list_default.csv"), {});
  EXPECT_TRUE(trace.has_value()) << trace.error().ToString();
  return trace.has_value() ? std::move(trace).value() : OpenbTrace{};
}

TEST(ArrivalBucketsTest, RoundsHalfToEvenLikePython) {
  EXPECT_EQ(ArrivedBucket(0.49), 0);
  EXPECT_EQ(ArrivedBucket(0.5), 0);
  EXPECT_EQ(ArrivedBucket(1.5), 2);
  EXPECT_EQ(ArrivedBucket(2.5), 2);
  EXPECT_EQ(ArrivedBucket(99.51), 100);
}

TEST(ArrivalBucketsTest, MeansPerBucketWithTheNeighbourWindowForEmptyOnes) {
  const std::vector<double> arrived = {0.2, 0.4, 1.2, 3.1, 3.4, 6.0};
  const std::vector<double> values = {1.0, 3.0, 5.0, 7.0, NAN, 9.0};
  const std::map<int, double> buckets = BucketByArrivedPct(arrived, values, 8);
  EXPECT_DOUBLE_EQ(buckets.at(0), 2.0);
  EXPECT_DOUBLE_EQ(buckets.at(1), 5.0);
  EXPECT_DOUBLE_EQ(buckets.at(2), (5.0 + 7.0) / 2);  // empty: buckets 1..3
  EXPECT_DOUBLE_EQ(buckets.at(3), 7.0);              // the NaN is left out of the mean
  EXPECT_DOUBLE_EQ(buckets.at(4), 7.0);
  EXPECT_DOUBLE_EQ(buckets.at(5), 9.0);
  EXPECT_DOUBLE_EQ(buckets.at(7), 9.0);
  EXPECT_EQ(buckets.count(8), 0u);  // nothing within one of it
}

TEST(ArrivalOrderTest, ShufflesAPermutationWithoutInflation) {
  std::vector<gpu::PodSpec> pods;
  for (int i = 0; i < 20; ++i) {
    pods.push_back(Pod(1000, 1, 500));
    pods.back().name = std::string("p").append(std::to_string(100 + i));
  }
  ReplayOptions options;
  options.inflation_ratio = 0;
  Rng rng(42);
  core::Result<std::vector<int32_t>> order = ArrivalOrder(pods, 10000, options, rng);
  ASSERT_TRUE(order.has_value());
  std::vector<int32_t> sorted = *order;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 20; ++i) EXPECT_EQ(sorted[i], i);
  options.shuffle = false;
  Rng rng2(42);
  core::Result<std::vector<int32_t>> by_name = ArrivalOrder(pods, 10000, options, rng2);
  ASSERT_TRUE(by_name.has_value());
  EXPECT_TRUE(std::is_sorted(by_name->begin(), by_name->end()));
}

TEST(ArrivalOrderTest, InflatesWithThePerGpuStopTest) {
  // One 8-GPU pod and one 100-thousandths pod for a cluster of 10 GPUs at 1.3: copies are
  // appended until the drawn pod's per-GPU share would pass 13000, so an 8-GPU copy can
  // overshoot by up to 7 GPUs.
  std::vector<gpu::PodSpec> pods = {Pod(1000, 8, 1000), Pod(1000, 1, 100)};
  pods[0].name = "a";
  pods[1].name = "b";
  ReplayOptions options;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    core::Result<std::vector<int32_t>> order = ArrivalOrder(pods, 10000, options, rng);
    ASSERT_TRUE(order.has_value());
    int64_t requested = 0;
    for (int32_t i : *order) requested += pods[i].TotalGpuMilli();
    EXPECT_GE(order->size(), 2u);
    EXPECT_LE(requested, 13000 + 7000);
    EXPECT_GT(requested + 1000, 13000 - 1000);  // it stops only when a draw would pass
  }
}

TEST(ArrivalOrderTest, ThinsARequestAboveTheTarget) {
  std::vector<gpu::PodSpec> pods;
  for (int i = 0; i < 30; ++i) {
    pods.push_back(Pod(1000, 1, 1000));
    pods.back().name = std::string("p").append(std::to_string(i));
  }
  ReplayOptions options;  // 1.3 x 10 GPUs = 13 whole-GPU pods
  Rng rng(5);
  core::Result<std::vector<int32_t>> order = ArrivalOrder(pods, 10000, options, rng);
  ASSERT_TRUE(order.has_value());
  EXPECT_EQ(order->size(), 13u);
  std::vector<gpu::PodSpec> cpu_only = {Pod(1000, 0, 0)};
  EXPECT_FALSE(ArrivalOrder(cpu_only, 10000, options, rng).has_value());
}

TEST(NodeSelectorTest, TiesGoToTheLowestRankOrAreDrawnUniformly) {
  const std::vector<gpu::NodeSpec> specs = {Node("a", 64000, 2, kG2), Node("b", 64000, 2, kG2),
                                            Node("c", 64000, 2, kG2)};
  const gpu::GpuCluster cluster(specs, nullptr);
  const std::unique_ptr<gpu::NodeScorer> bestfit = gpu::MakeScorer(gpu::Policy::kBestFit, nullptr);
  Rng rng(1);
  NodeSelector ranked({2, 0, 1}, TieBreak::kSeededNodeOrder);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(ranked.Select(*bestfit, Pod(1000, 1, 500), cluster, rng), 1);
  NodeSelector uniform({2, 0, 1}, TieBreak::kUniform);
  std::vector<int> hits(3, 0);
  for (int i = 0; i < 300; ++i) ++hits[uniform.Select(*bestfit, Pod(1000, 1, 500), cluster, rng)];
  for (int h : hits) EXPECT_GT(h, 50);
  // Random draws uniformly even under the ranked rule.
  const std::unique_ptr<gpu::NodeScorer> random = gpu::MakeScorer(gpu::Policy::kRandom, nullptr);
  std::vector<int> random_hits(3, 0);
  for (int i = 0; i < 300; ++i)
    ++random_hits[ranked.Select(*random, Pod(1000, 1, 500), cluster, rng)];
  for (int h : random_hits) EXPECT_GT(h, 50);
  // Nothing fits: -1.
  EXPECT_EQ(ranked.Select(*bestfit, Pod(1000, 3, 1000), cluster, rng), -1);
}

TEST(NodeRanksTest, IsASeededPermutation) {
  std::vector<gpu::NodeSpec> nodes;
  for (int i = 0; i < 40; ++i)
    nodes.push_back(Node(std::string("n").append(std::to_string(i)), 1000, 1, kG2));
  Rng a(42), b(42);
  const std::vector<int32_t> ranks = NodeRanks(nodes, a);
  EXPECT_EQ(ranks, NodeRanks(nodes, b));
  std::vector<int32_t> sorted = ranks;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 40; ++i) EXPECT_EQ(sorted[i], i);
}

TEST(ReplayTest, HandReplayPlacesUntilFullAndBucketsAllocation) {
  // One 2-GPU node, pods in name order without inflation: two halves fill GPU 0 (best fit
  // packs them), the whole-GPU pod takes GPU 1, the last one finds no room.
  const std::vector<gpu::NodeSpec> nodes = {Node("n", 16000, 2, kG2)};
  std::vector<gpu::PodSpec> pods = {Pod(1000, 1, 500), Pod(1000, 1, 500), Pod(1000, 1, 1000),
                                    Pod(1000, 1, 1000)};
  for (size_t i = 0; i < pods.size(); ++i)
    pods[i].name = std::string("p").append(std::to_string(i));
  ReplayOptions options;
  options.policy = gpu::Policy::kBestFit;
  options.inflation_ratio = 0;
  options.shuffle = false;
  options.keep_samples = true;
  core::Result<ReplayResult> result = RunReplay(nodes, pods, options);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_EQ(result->placed, 3);
  EXPECT_EQ(result->failed, 1);
  EXPECT_EQ(result->events, 4);
  ASSERT_EQ(result->samples.size(), 4u);
  EXPECT_EQ(result->samples[1].allocated_gpu_milli, 1000);
  EXPECT_EQ(result->samples[1].idle_gpu_milli, 1000);
  EXPECT_FALSE(result->samples[3].placed);
  // Arrived 25%, 50%, 100%, 150%: allocation 25, 50, 100 (and 150 is beyond 130).
  EXPECT_DOUBLE_EQ(result->allocation_pct_by_arrived_pct.at(25), 25);
  EXPECT_DOUBLE_EQ(result->allocation_pct_by_arrived_pct.at(100), 100);
  EXPECT_DOUBLE_EQ(result->unallocated_pct_at_100, 0);
  EXPECT_EQ(result->allocation_pct_by_arrived_pct.count(75), 0u);
  EXPECT_DOUBLE_EQ(result->final_allocation_pct, 100);
}

TEST(ReplayTest, SameSeedSameResultOnTheFixture) {
  const OpenbTrace trace = Fixture();
  for (gpu::Policy policy : gpu::kAllPolicies) {
    ReplayOptions options;
    options.policy = policy;
    options.seed = 42;
    options.keep_samples = true;
    core::Result<ReplayResult> a = RunReplay(trace.nodes, trace.pods, options);
    core::Result<ReplayResult> b = RunReplay(trace.nodes, trace.pods, options);
    ASSERT_TRUE(a.has_value() && b.has_value());
    EXPECT_EQ(a->allocation_pct_by_arrived_pct, b->allocation_pct_by_arrived_pct);
    EXPECT_EQ(a->frag_amount_pct_by_arrived_pct, b->frag_amount_pct_by_arrived_pct);
    EXPECT_EQ(a->frag_rate_pct_by_arrived_pct, b->frag_rate_pct_by_arrived_pct);
    EXPECT_EQ(a->placed, b->placed);
    // Accounting: one event per arrival, inflation to about 1.3x, nothing allocated that
    // has not arrived, and the bar-chart cell read from the 100% bucket.
    EXPECT_EQ(a->placed + a->failed, a->pods);
    EXPECT_EQ(a->events, a->pods);
    EXPECT_GT(a->pods, static_cast<int64_t>(trace.pods.size()));
    ASSERT_EQ(a->samples.size(), static_cast<size_t>(a->pods));
    EXPECT_GE(a->samples.back().arrived_gpu_milli, a->gpu_capacity_milli * 12 / 10);
    for (const ReplaySample& sample : a->samples) {
      EXPECT_LE(sample.allocated_gpu_milli, sample.arrived_gpu_milli);
      EXPECT_EQ(sample.allocated_gpu_milli + sample.idle_gpu_milli, a->gpu_capacity_milli);
      EXPECT_LE(sample.fragment_milli, static_cast<double>(sample.idle_gpu_milli) + 1e-6);
    }
    ASSERT_EQ(a->allocation_pct_by_arrived_pct.count(100), 1u);
    EXPECT_DOUBLE_EQ(a->unallocated_pct_at_100, 100 - a->allocation_pct_by_arrived_pct.at(100));
  }
  ReplayOptions seed42, seed43;
  seed43.seed = 43;
  core::Result<ReplayResult> a = RunReplay(trace.nodes, trace.pods, seed42);
  core::Result<ReplayResult> c = RunReplay(trace.nodes, trace.pods, seed43);
  ASSERT_TRUE(a.has_value() && c.has_value());
  EXPECT_NE(a->allocation_pct_by_arrived_pct, c->allocation_pct_by_arrived_pct);
}

// The node classes (NodeSelector) replay exactly what the scan over every node replays: every
// event's sample equal, for the paper's six policies and berth's, both tie rules, two seeds.
TEST(ReplayTest, NodeClassesReplayAsTheScanOnTheFixture) {
  const OpenbTrace trace = Fixture();
  std::vector<gpu::Policy> policies(gpu::kAllPolicies.begin(), gpu::kAllPolicies.end());
  policies.push_back(gpu::Policy::kBerth);
  for (gpu::Policy policy : policies) {
    for (TieBreak tie : {TieBreak::kSeededNodeOrder, TieBreak::kUniform}) {
      for (uint64_t seed : {42u, 43u}) {
        SCOPED_TRACE(::testing::Message() << gpu::PolicyName(policy) << " seed " << seed
                                          << (tie == TieBreak::kUniform ? " uniform" : ""));
        ReplayOptions options;
        options.policy = policy;
        options.seed = seed;
        options.tie_break = tie;
        options.keep_samples = true;
        core::Result<ReplayResult> classes = RunReplay(trace.nodes, trace.pods, options);
        options.select_by_scan = true;
        core::Result<ReplayResult> scan = RunReplay(trace.nodes, trace.pods, options);
        ASSERT_TRUE(classes.has_value() && scan.has_value());
        ASSERT_EQ(classes->samples.size(), scan->samples.size());
        for (size_t i = 0; i < scan->samples.size(); ++i) {
          const ReplaySample& x = classes->samples[i];
          const ReplaySample& y = scan->samples[i];
          ASSERT_TRUE(x.allocated_gpu_milli == y.allocated_gpu_milli && x.placed == y.placed &&
                      x.fragment_milli == y.fragment_milli)
              << "event " << i;
        }
        EXPECT_EQ(classes->allocation_pct_by_arrived_pct, scan->allocation_pct_by_arrived_pct);
        EXPECT_EQ(classes->frag_rate_pct_by_arrived_pct, scan->frag_rate_pct_by_arrived_pct);
      }
    }
  }
}

TEST(ReplayTest, FragmentAtTheStartIsTheCpuOnlyShareOfIdleGpus) {
  // Upstream counts a node's idle GPUs as fragment for CPU-only typical pods too (XL): on
  // the empty cluster, with sharing pods that fit every node, the fragment rate is exactly
  // the CPU-only share of the typical pods, here 10 of 40.
  const OpenbTrace trace = Fixture();
  std::vector<gpu::PodSpec> pods;
  for (int i = 0; i < 30; ++i) pods.push_back(Pod(1000, 1, 300));
  for (int i = 0; i < 10; ++i) pods.push_back(Pod(2000, 0, 0));
  const gpu::FragmentationModel model(gpu::BuildTypicalPods(pods));
  const gpu::GpuCluster empty(trace.nodes, &model);
  EXPECT_DOUBLE_EQ(empty.fragment_milli() / static_cast<double>(empty.gpu_idle_milli()), 0.25);
  EXPECT_DOUBLE_EQ(empty.Breakdown()[gpu::FragClass::kXlSatisfied], 0.25 * 314000);
}

TEST(ReplayTest, RejectsAClusterWithoutGpusAndAnEmptyTrace) {
  const std::vector<gpu::NodeSpec> cpu_nodes = {Node("cpu", 64000, 0)};
  const std::vector<gpu::PodSpec> pods = {Pod(1000, 1, 500)};
  core::Result<ReplayResult> no_gpus = RunReplay(cpu_nodes, pods, {});
  ASSERT_FALSE(no_gpus.has_value());
  EXPECT_EQ(no_gpus.error().code(), core::ErrorCode::kFailedPrecondition);
  const std::vector<gpu::NodeSpec> nodes = {Node("n", 64000, 2, kG2)};
  core::Result<ReplayResult> no_pods = RunReplay(nodes, {}, {});
  ASSERT_FALSE(no_pods.has_value());
  EXPECT_EQ(no_pods.error().code(), core::ErrorCode::kFailedPrecondition);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::gpushare
