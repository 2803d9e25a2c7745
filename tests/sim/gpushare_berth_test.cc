// berth's GPU-sharing policy (berth_scorer.h): each criterion on hand-made nodes, their
// order, the in-node GPU choice, and a replay of the fixture.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "gpu/berth_scorer.h"
#include "gpu/fgd_whatif.h"
#include "gpu/gpu_cluster.h"
#include "gpu/policy.h"
#include "sim/gpushare/openb_reader.h"
#include "sim/gpushare/replay.h"
#include "sim/gpushare/rng_source.h"
#include "sim/gpushare_test_util.h"

namespace berth::sim::gpushare {
namespace BERTH_UNITY_ID {

using testing::Node;
using testing::NodeWithFree;
using testing::OpenbFixturePath;
using testing::Pod;

constexpr gpu::GpuModelId kA{0};
constexpr gpu::GpuModelId kB{1};

gpu::TypicalPod Typical(int64_t cpu_milli, int32_t num_gpu, int32_t gpu_milli, double frequency,
                        gpu::ModelSet models = {}) {
  gpu::TypicalPod pod;
  pod.cpu_milli = cpu_milli;
  pod.num_gpu = num_gpu;
  pod.gpu_milli = gpu_milli;
  pod.frequency = frequency;
  pod.allowed_models = models;
  return pod;
}

gpu::ModelSet Models(std::initializer_list<gpu::GpuModelId> ids) {
  gpu::ModelSet set;
  for (gpu::GpuModelId id : ids) set.Add(id);
  return set;
}

// One 8-GPU node of model A, two of model B (24 GPUs: A is a third of them).
std::vector<gpu::NodeSpec> ThreeNodes() {
  return {Node("a", 96000, 8, kA), Node("b1", 96000, 8, kB), Node("b2", 96000, 8, kB)};
}

// GPU demand per typical pod: 0.4 (any model), 0.1 (A only: half a GPU), 0.4 (A or B, two
// GPUs), 0 (CPU only); 0.9 in all.
std::vector<gpu::TypicalPod> MixedTypicalPods() {
  return {Typical(1000, 1, 1000, 0.4), Typical(1000, 1, 500, 0.2, Models({kA})),
          Typical(1000, 2, 1000, 0.2, Models({kA, kB})), Typical(1000, 0, 0, 0.2)};
}

TEST(BerthPolicyTest, NamesAndLists) {
  EXPECT_EQ(*gpu::ParsePolicy("Berth"), gpu::Policy::kBerth);
  EXPECT_EQ(gpu::PolicyName(gpu::Policy::kBerth), "berth");
  EXPECT_EQ(gpu::PolicyPaperName(gpu::Policy::kBerth), "07-Berth");
  EXPECT_EQ(gpu::kDefaultPolicy, gpu::Policy::kBerth);
  // "all" stays the paper's six (the published tables have no berth column).
  core::Result<std::vector<gpu::Policy>> all = gpu::ParsePolicyList("all");
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->size(), 6u);
  EXPECT_EQ(std::count(all->begin(), all->end(), gpu::Policy::kBerth), 0);
  core::Result<std::vector<gpu::Policy>> with_berth = gpu::ParsePolicyList("ALL+berth");
  ASSERT_TRUE(with_berth.has_value());
  ASSERT_EQ(with_berth->size(), 7u);
  EXPECT_EQ(with_berth->back(), gpu::Policy::kBerth);
  EXPECT_EQ(*gpu::ParsePolicyList("berth,fgd"),
            (std::vector<gpu::Policy>{gpu::Policy::kBerth, gpu::Policy::kFgd}));
  core::Result<std::vector<gpu::Policy>> bad = gpu::ParsePolicyList("bert");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("all+berth"), std::string::npos);
}

TEST(BerthPolicyTest, ClusterKeepsGpusPerModel) {
  gpu::GpuCluster cluster(ThreeNodes(), nullptr);
  EXPECT_EQ(cluster.gpu_capacity_milli(kA), 8000);
  EXPECT_EQ(cluster.gpu_capacity_milli(kB), 16000);
  EXPECT_EQ(cluster.gpu_capacity_milli(gpu::kNoGpuModel), 0);
  const gpu::PodSpec pod = Pod(1000, 2, 1000);
  gpu::GpuSet gpus;
  gpus.Add(0);
  gpus.Add(1);
  cluster.Place(1, pod, gpus);
  EXPECT_EQ(cluster.gpu_free_milli(kB), 14000);
  EXPECT_EQ(cluster.gpu_free_milli(kA), 8000);
  cluster.Remove(1, pod, gpus);
  EXPECT_EQ(cluster.gpu_free_milli(kB), 16000);
}

TEST(BerthPolicyTest, ModelPressureHandCase) {
  gpu::GpuCluster cluster(ThreeNodes(), nullptr);
  const gpu::ModelPressure pressure(MixedTypicalPods(), cluster);
  // share(A) = (0.1 + 0.4 x 8/24) / 0.9, share(B) = 0.4 x 16/24 / 0.9; the any-model and
  // CPU-only pods claim no model.
  EXPECT_NEAR(pressure.share(kA), (0.1 + 0.4 / 3) / 0.9, 1e-12);
  EXPECT_NEAR(pressure.share(kB), 0.4 * 2 / 3 / 0.9, 1e-12);
  EXPECT_EQ(pressure.share(gpu::kNoGpuModel), 0);
  // Pressure = share x idle / free of the model: A 0.259 x 24/8 = 0.78, B 0.296 x 24/16 = 0.44.
  EXPECT_NEAR(pressure.Pressure(kA, cluster), 7.0 / 9, 1e-12);
  EXPECT_NEAR(pressure.Pressure(kB, cluster), 4.0 / 9, 1e-12);
  EXPECT_EQ(gpu::PressureLevel(pressure.Pressure(kA, cluster)), 2);
  EXPECT_EQ(gpu::PressureLevel(pressure.Pressure(kB, cluster)), 1);
  // Filling B raises B's pressure and lowers A's: 12 of B's 16 GPUs gone, idle 12 GPUs.
  for (int node = 1; node <= 2; ++node) {
    gpu::GpuSet six;
    for (int g = 0; g < 6; ++g) six.Add(g);
    cluster.Place(node, Pod(1000, 6, 1000), six);
  }
  EXPECT_NEAR(pressure.Pressure(kA, cluster), 7.0 / 9 * 12 / 24 * 8 / 8, 1e-12);
  EXPECT_NEAR(pressure.Pressure(kB, cluster), 0.8 / 3 / 0.9 * 12 / 4, 1e-12);
  // A model with nothing free is at the cap, a model no restricted pod names at 0.
  gpu::GpuSet eight;
  for (int g = 0; g < 8; ++g) eight.Add(g);
  cluster.Place(0, Pod(1000, 8, 1000), eight);
  EXPECT_EQ(pressure.Pressure(kA, cluster), gpu::ModelPressure::kMaxPressure);
  const gpu::ModelPressure unrestricted({Typical(1000, 1, 1000, 1.0)}, cluster);
  EXPECT_EQ(unrestricted.Pressure(kA, cluster), 0);
  EXPECT_EQ(gpu::PressureLevel(gpu::ModelPressure::kMaxPressure), 300);
}

TEST(BerthPolicyTest, AlignmentHandCases) {
  // 64 cores and 8 GPUs, half of each free: the free vector is (0.5, 0.5).
  gpu::NodeState node = NodeWithFree(Node("n", 64000, 8, kA), {1000, 1000, 1000, 1000, 0, 0, 0, 0});
  node.cpu_free_milli = 32000;
  // A sharing pod (8 cores, half a GPU) is (0.125, 0.0625): cos = 0.09375 / (0.13975 x
  // 0.70711) = 0.9487 -> level 9.
  EXPECT_NEAR(Alignment(Pod(8000, 1, 500), node), 3 / std::sqrt(10.0), 1e-12);
  EXPECT_EQ(gpu::AlignmentLevel(Pod(8000, 1, 500), node), 9);
  // A CPU-only pod is (0.125, 0): cos 45 degrees = 0.7071 -> 7.
  EXPECT_NEAR(Alignment(Pod(8000, 0, 0), node), std::sqrt(0.5), 1e-12);
  EXPECT_EQ(gpu::AlignmentLevel(Pod(8000, 0, 0), node), 7);
  // A whole-GPU pod lines up exactly but keeps level 0: it goes by the node order.
  EXPECT_NEAR(Alignment(Pod(8000, 1, 1000), node), 1.0, 1e-12);
  EXPECT_EQ(gpu::AlignmentLevel(Pod(8000, 1, 1000), node), 0);
  // No CPU left: a CPU-only pod is orthogonal to what is free.
  node.cpu_free_milli = 0;
  EXPECT_EQ(Alignment(Pod(8000, 0, 0), node), 0);
}

TEST(BerthPolicyTest, KeyOrdersPressureThenFgdThenAlignment) {
  // One pressure level outweighs any FGD score and alignment.
  EXPECT_GT(gpu::BerthNodeScore(0, 0, 0), gpu::BerthNodeScore(1, 100, 10));
  // One FGD point outweighs any alignment.
  EXPECT_GT(gpu::BerthNodeScore(2, 51, 0), gpu::BerthNodeScore(2, 50, 10));
  EXPECT_GT(gpu::BerthNodeScore(2, 50, 4), gpu::BerthNodeScore(2, 50, 3));
  EXPECT_GE(gpu::BerthNodeScore(300, 0, 0), 0);
}

TEST(BerthPolicyTest, ScoreCombinesTheCriteriaOnACluster) {
  const gpu::FragmentationModel model(MixedTypicalPods());
  gpu::GpuCluster cluster(ThreeNodes(), &model);
  const std::unique_ptr<gpu::NodeScorer> berth =
      gpu::MakeScorer(gpu::Policy::kBerth, &model, &cluster);
  const std::unique_ptr<gpu::NodeScorer> fgd = gpu::MakeScorer(gpu::Policy::kFgd, &model);
  EXPECT_EQ(berth->policy(), gpu::Policy::kBerth);
  auto scores = [&](const gpu::PodSpec& pod, int node) {
    const gpu::NodeState& state = cluster.node(node);
    const double f = cluster.node_fragment_milli(node);
    return std::pair{berth->Score(pod, state, f), fgd->Score(pod, state, f)};
  };
  // A whole-GPU pod: pressure level 2 on A, 1 on B; no alignment.
  const gpu::PodSpec whole = Pod(4000, 1, 1000);
  const auto [berth_a, fgd_a] = scores(whole, 0);
  const auto [berth_b, fgd_b] = scores(whole, 1);
  EXPECT_EQ(berth_a, gpu::BerthNodeScore(2, fgd_a, 0));
  EXPECT_EQ(berth_b, gpu::BerthNodeScore(1, fgd_b, 0));
  EXPECT_GT(berth_b, berth_a);
  // A sharing pod: alignment counts; CPU-only: no pressure, alignment counts.
  const gpu::PodSpec share = Pod(24000, 1, 500);
  const auto [berth_share, fgd_share] = scores(share, 0);
  EXPECT_EQ(berth_share,
            gpu::BerthNodeScore(2, fgd_share, gpu::AlignmentLevel(share, cluster.node(0))));
  const gpu::PodSpec cpu = Pod(8000, 0, 0);
  const auto [berth_cpu, fgd_cpu] = scores(cpu, 0);
  EXPECT_EQ(berth_cpu, gpu::BerthNodeScore(0, fgd_cpu, gpu::AlignmentLevel(cpu, cluster.node(0))));
  Rng run_rng(1);
  RngSource rng(run_rng);
  EXPECT_TRUE(berth->ChooseGpus(cpu, cluster.node(0), 0, rng).empty());
}

TEST(BerthPolicyTest, SharingPodTakesTheLeastFragmentThenTheTightestGpu) {
  Rng run_rng(1);
  RngSource rng(run_rng);
  // Typical pods: 950 of a GPU (1%) and 10 (99%). F is 1% of the free share on GPUs below 950.
  const gpu::FragmentationModel model({Typical(1000, 1, 950, 0.01), Typical(1000, 1, 10, 0.99)});
  gpu::FgdWhatIf what_if(model);
  const gpu::PodSpec pod = Pod(1000, 1, 30);
  // GPUs 965 and 955 free: GPU 0 leaves 935 (F 9.35), GPU 1 leaves 925 (F 9.25); both score
  // int(100 x sigmoid(-0.0093)) = 49. FGD keeps GPU 0, berth the smaller fragment, GPU 1.
  const gpu::NodeState close = NodeWithFree(Node("n", 16000, 2, kA), {965, 955});
  const gpu::FgdOption first = what_if.Evaluate(pod, close, 0, gpu::GpuTieRule::kFirst);
  const gpu::FgdOption tightest = what_if.Evaluate(pod, close, 0, gpu::GpuTieRule::kTightest);
  EXPECT_EQ(first.score, 49);
  EXPECT_EQ(tightest.score, 49);
  EXPECT_EQ(first.gpu, 0);
  EXPECT_EQ(tightest.gpu, 1);
  EXPECT_NEAR(tightest.fragment_after_milli, 9.25, 1e-9);
  const std::vector<gpu::NodeSpec> one = {Node("n", 16000, 2, kA)};
  gpu::GpuCluster cluster(one, &model);
  const std::unique_ptr<gpu::NodeScorer> berth =
      gpu::MakeScorer(gpu::Policy::kBerth, &model, &cluster);
  const std::unique_ptr<gpu::NodeScorer> fgd = gpu::MakeScorer(gpu::Policy::kFgd, &model);
  EXPECT_EQ(berth->ChooseGpus(pod, close, 0, rng), gpu::GpuSet::Of(1));
  EXPECT_EQ(fgd->ChooseGpus(pod, close, 0, rng), gpu::GpuSet::Of(0));
  // GPUs 1000 and 980: no fragment either way (score 50); berth takes the tighter GPU 1.
  const gpu::NodeState roomy = NodeWithFree(Node("n", 16000, 2, kA), {1000, 980});
  EXPECT_EQ(what_if.Evaluate(pod, roomy, 0, gpu::GpuTieRule::kTightest).score, 50);
  EXPECT_EQ(berth->ChooseGpus(pod, roomy, 0, rng), gpu::GpuSet::Of(1));
  EXPECT_EQ(fgd->ChooseGpus(pod, roomy, 0, rng), gpu::GpuSet::Of(0));
  // Whole-GPU pods take the lowest free GPUs, as under every policy.
  const gpu::NodeState mixed = NodeWithFree(Node("n", 16000, 3, kA), {500, 1000, 1000});
  gpu::GpuSet two;
  two.Add(1);
  two.Add(2);
  EXPECT_EQ(berth->ChooseGpus(Pod(1000, 2, 1000), mixed, 0, rng), two);
}

TEST(BerthPolicyTest, ReplaysTheFixtureDeterministically) {
  core::Result<OpenbTrace> trace =
      ReadOpenbTrace(OpenbFixturePath("openb_node_list_gpu_node.csv"),
                     OpenbFixturePath("openb_pod_list_default.csv"), {});
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  ReplayOptions options;
  options.policy = gpu::Policy::kBerth;
  options.seed = 42;
  core::Result<ReplayResult> a = RunReplay(trace->nodes, trace->pods, options);
  core::Result<ReplayResult> b = RunReplay(trace->nodes, trace->pods, options);
  ASSERT_TRUE(a.has_value()) << a.error().ToString();
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(a->policy, gpu::Policy::kBerth);
  EXPECT_EQ(a->placed + a->failed, a->pods);
  EXPECT_GT(a->placed, 0);
  EXPECT_EQ(a->placed, b->placed);
  EXPECT_EQ(a->allocation_pct_by_arrived_pct, b->allocation_pct_by_arrived_pct);
  EXPECT_EQ(a->frag_amount_pct_by_arrived_pct, b->frag_amount_pct_by_arrived_pct);
  EXPECT_FALSE(std::isnan(a->unallocated_pct_at_100));
  // It is a different policy from FGD: on this fixture the two place differently somewhere.
  options.policy = gpu::Policy::kFgd;
  core::Result<ReplayResult> fgd = RunReplay(trace->nodes, trace->pods, options);
  ASSERT_TRUE(fgd.has_value());
  EXPECT_NE(a->allocation_pct_by_arrived_pct, fgd->allocation_pct_by_arrived_pct);
  // Another seed gives another run.
  options.policy = gpu::Policy::kBerth;
  options.seed = 43;
  core::Result<ReplayResult> other = RunReplay(trace->nodes, trace->pods, options);
  ASSERT_TRUE(other.has_value());
  EXPECT_NE(a->allocation_pct_by_arrived_pct, other->allocation_pct_by_arrived_pct);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::gpushare
