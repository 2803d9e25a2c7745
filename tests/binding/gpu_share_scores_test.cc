// berth's GPU-sharing score plugins Random, DotProd, GpuClustering, GpuPacking and BestFit
// (the FGD paper's baselines, docs/binding.md "GPU-sharing score plugins"): hand-computed
// scores on a three-node cluster, which pods they score, and that the pods they score leave
// the index.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/plugin_names.h"
#include "binding/plugins/gpu_share_score.h"
#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "gpu/gpu_node_view.h"
#include "gpu/policy_scores.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using testing::kGi;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::SnapshotBuilder;

NodeBuilder GpuNode(const std::string& name, int64_t cpu_milli, int64_t gpus) {
  return NodeBuilder(name).Cpu(cpu_milli).Memory(512 * kGi).Gpu(gpus).Label("nvidia.com/gpu.memory",
                                                                            "81920");
}

// a: 32 cores, 4 GPUs, a bound 2-GPU pod of 8 cores (24 cores, 2 GPUs free).
// b: 64 cores, 8 GPUs, a bound half-GPU pod of 4 cores (60 cores, 7 free GPUs and one
//    shared GPU with 500 milli free).
// c: 8 cores, 2 GPUs, idle.
// The largest node: 64 cores, 8 GPUs. The pending pod comes last, with `annotations`.
struct Cluster {
  model::Snapshot snapshot;
  model::PodIndex pod;
};

Cluster MakeCluster(const PodBuilder& pending, const core::Labels& annotations = {}) {
  SnapshotBuilder s;
  s.Add(GpuNode("a", 32000, 4)).Add(GpuNode("b", 64000, 8)).Add(GpuNode("c", 8000, 2));
  s.Add(PodBuilder("w2").NodeName("a").Container({{"cpu", 8000}, {"nvidia.com/gpu", 2}}));
  s.Add(PodBuilder("half").NodeName("b").Container({{"cpu", 4000}}));
  model::PodIndex pod = s.NextPod();
  s.Add(pending);
  model::Snapshot snap = s.Build();
  snap.pods[1].meta.annotations = {{"gpu-fraction", "0.5"}};
  snap.pods[static_cast<size_t>(pod.v)].meta.annotations = annotations;
  return Cluster{std::move(snap), pod};
}

PodBuilder WholeGpus(int64_t gpus, int64_t cpu_milli = 4000) {
  return PodBuilder("p").Container({{"cpu", cpu_milli}, {"nvidia.com/gpu", gpus}});
}

PodBuilder CpuOnly() { return PodBuilder("p").Container({{"cpu", 4000}}); }

struct Scores {
  int64_t a = -1, b = -1, c = -1;
  bool operator==(const Scores&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Scores& s) {
  return os << "{a=" << s.a << ", b=" << s.b << ", c=" << s.c << "}";
}

Scores Raw(const Cluster& c, std::string_view plugin) {
  Scheduler scheduler(c.snapshot, OnlyScore(std::string(plugin)));
  PodExplanation e = scheduler.Explain(c.pod);
  return Scores{RawScore(e, c.snapshot, "a", plugin), RawScore(e, c.snapshot, "b", plugin),
                RawScore(e, c.snapshot, "c", plugin)};
}

Scores Normalized(const Cluster& c, std::string_view plugin) {
  Scheduler scheduler(c.snapshot, OnlyScore(std::string(plugin)));
  PodExplanation e = scheduler.Explain(c.pod);
  return Scores{NormalizedScore(e, c.snapshot, "a", plugin),
                NormalizedScore(e, c.snapshot, "b", plugin),
                NormalizedScore(e, c.snapshot, "c", plugin)};
}

TEST(GpuShareDotProdTest, HandComputedOnTheLargestNode) {
  // dot = free_cpu/64 x 4/64 + idle/8 x 1/8; score = int(100 x (1 - dot / 2)).
  // a: 24/64 x 1/16 + 2/8 x 1/8 = 0.0546875 -> 97.27; b: 60/64 x 1/16 + 7.5/8 x 1/8 =
  // 0.17578125 -> 91.2; c: 8/64 x 1/16 + 2/8 x 1/8 = 0.0390625 -> 98.05.
  Cluster c = MakeCluster(WholeGpus(1));
  EXPECT_EQ(Raw(c, kGpuShareDotProd), (Scores{97, 91, 98}));
  EXPECT_EQ(Normalized(c, kGpuShareDotProd), (Scores{97, 91, 98}));
}

TEST(GpuShareBestFitTest, HandComputedThenMinMaxNormalized) {
  // 100 x (1 - 0.5 x (free_cpu - 4)/64 - 0.5 x (idle - 1)/8):
  // a: 1 - 0.15625 - 0.0625 = 78.125; b: 1 - 0.4375 - 0.40625 = 15.625;
  // c: 1 - 0.03125 - 0.0625 = 90.625. Min-max over {78, 15, 90}: 84, 0, 100.
  Cluster c = MakeCluster(WholeGpus(1));
  EXPECT_EQ(Raw(c, kGpuShareBestFit), (Scores{78, 15, 90}));
  EXPECT_EQ(Normalized(c, kGpuShareBestFit), (Scores{84, 0, 100}));
}

TEST(GpuShareBestFitTest, MinMaxOfEqualScoresIsZero) {
  std::vector<int64_t> equal = {40, 40, 40};
  gpu::MinMaxNormalize(equal);
  EXPECT_EQ(equal, (std::vector<int64_t>{0, 0, 0}));
  std::vector<int64_t> spread = {10, 20, 40};
  gpu::MinMaxNormalize(spread);
  EXPECT_EQ(spread, (std::vector<int64_t>{0, 33, 100}));
}

TEST(GpuShareClusteringTest, BandsByPodKind) {
  // used = 25 x (8000 - idle) / 8000: a 25 x 6000/8000 = 18, b 25 x 500/8000 = 1, c 18.
  // One whole GPU: a holds 2-GPU pods, b sharing pods (other kinds: + 0), c none (+ 25).
  EXPECT_EQ(Raw(MakeCluster(WholeGpus(1)), kGpuShareClustering), (Scores{18, 1, 43}));
  // Two whole GPUs: a holds only that kind (+ 75).
  EXPECT_EQ(Raw(MakeCluster(WholeGpus(2)), kGpuShareClustering), (Scores{93, 1, 43}));
  // A fraction: b holds only sharing pods.
  EXPECT_EQ(Raw(MakeCluster(CpuOnly(), {{"gpu-fraction", "0.25"}}), kGpuShareClustering),
            (Scores{18, 76, 43}));
}

TEST(GpuShareClusteringTest, MixedKindsScoreInTheSecondBand) {
  SnapshotBuilder s;
  s.Add(GpuNode("a", 32000, 8));
  s.Add(PodBuilder("one").NodeName("a").Container({{"cpu", 1000}, {"nvidia.com/gpu", 1}}));
  s.Add(PodBuilder("two").NodeName("a").Container({{"cpu", 1000}, {"nvidia.com/gpu", 2}}));
  model::PodIndex pod = s.NextPod();
  s.Add(WholeGpus(1));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, OnlyScore(std::string(kGpuShareClustering)));
  // 5 of 8 GPUs idle: used = 25 x 3000 / 8000 = 9; its kind among others: + 50.
  EXPECT_EQ(RawScore(scheduler.Explain(pod), snap, "a", kGpuShareClustering), 59);
}

TEST(GpuSharePackingTest, ThreeBands) {
  // Whole GPU: a and b are used nodes where it breaks one free GPU, max(50 - 1, 33) = 49;
  // c is idle with 2 GPUs: max(33 - 2, 2) = 31.
  EXPECT_EQ(Raw(MakeCluster(WholeGpus(1)), kGpuSharePacking), (Scores{49, 49, 31}));
  EXPECT_EQ(Raw(MakeCluster(WholeGpus(2)), kGpuSharePacking), (Scores{48, 48, 31}));
  // A quarter GPU: on b it joins the shared GPU with 50% free, max(100 - 50/10, 50) = 95;
  // on a it reserves a free GPU, 49.
  EXPECT_EQ(Raw(MakeCluster(CpuOnly(), {{"gpu-fraction", "0.25"}}), kGpuSharePacking),
            (Scores{49, 95, 31}));
}

TEST(GpuSharePackingTest, IdleNodeFloorIsTheGpuCount) {
  SnapshotBuilder s;
  s.Add(GpuNode("big", 64000, 32));
  model::PodIndex pod = s.NextPod();
  s.Add(WholeGpus(1));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, OnlyScore(std::string(kGpuSharePacking)));
  // max(33 - 32, 32): upstream's odd floor.
  EXPECT_EQ(RawScore(scheduler.Explain(pod), snap, "big", kGpuSharePacking), 32);
}

TEST(GpuShareRandomTest, OneFeasibleNodeScores100Deterministically) {
  Cluster c = MakeCluster(WholeGpus(1));
  Scores first = Raw(c, kGpuShareRandom);
  EXPECT_EQ(first, Raw(c, kGpuShareRandom));
  // The feasible nodes in name order are a, b, c.
  const size_t pick = GpuShareRandomPick(kGpuShareRandomSeed, c.snapshot.pods[2], 3);
  Scores expected{0, 0, 0};
  (pick == 0 ? expected.a : pick == 1 ? expected.b : expected.c) = 100;
  EXPECT_EQ(first, expected);
}

TEST(GpuShareRandomTest, PicksSpreadOverTheNodes) {
  std::set<size_t> picks;
  model::Pod pod;
  pod.meta.namespace_ = "ml";
  for (int i = 0; i < 40; ++i) {
    pod.meta.name = testing::Indexed("p-", i);
    const size_t pick = GpuShareRandomPick(kGpuShareRandomSeed, pod, 4);
    EXPECT_LT(pick, 4u);
    picks.insert(pick);
  }
  EXPECT_EQ(picks.size(), 4u);
  // Another seed draws differently for some pod.
  bool differs = false;
  for (int i = 0; i < 40 && !differs; ++i) {
    pod.meta.name = testing::Indexed("p-", i);
    differs = GpuShareRandomPick(1, pod, 4) != GpuShareRandomPick(kGpuShareRandomSeed, pod, 4);
  }
  EXPECT_TRUE(differs);
}

TEST(GpuShareScoresTest, CpuOnlyPodsAreNotScoredAndKeepTheIndex) {
  Cluster c = MakeCluster(CpuOnly());
  model::SchedulerConfig config;
  for (const auto& [name, policy] : kGpuSharePlugins)
    config.profiles[0].score_weights[std::string(name)] = 1;
  Scheduler scheduler(c.snapshot, config);
  PodExplanation e = scheduler.Explain(c.pod);
  for (const auto& [name, policy] : kGpuSharePlugins) {
    EXPECT_EQ(RawScore(e, c.snapshot, "a", name), -1) << name;
  }
  model::PodDecision d = scheduler.ScheduleOne(c.pod);
  EXPECT_TRUE(d.node.has_value());
  EXPECT_EQ(scheduler.stats().indexed, 1);
  EXPECT_EQ(scheduler.stats().reference, 0);
}

TEST(GpuShareScoresTest, GpuPodsTakeTheReferencePathOnlyUnderSuchAProfile) {
  Cluster c = MakeCluster(WholeGpus(1));
  Scheduler plain(c.snapshot, model::SchedulerConfig{});
  EXPECT_TRUE(plain.ScheduleOne(c.pod).node.has_value());
  EXPECT_EQ(plain.stats().indexed, 1);
  model::SchedulerConfig config;
  config.profiles[0].score_weights[std::string(kGpuSharePacking)] = 1;
  Scheduler packing(c.snapshot, config);
  EXPECT_TRUE(packing.ScheduleOne(c.pod).node.has_value());
  EXPECT_EQ(packing.stats().indexed, 0);
  EXPECT_EQ(packing.stats().reference, 1);
}

TEST(GpuShareScoresTest, WeightedIntoTheTotal) {
  // Packing at weight 5 over the default profile: c (idle, 31) loses to a and b (49);
  // b wins over a on the default scores (LeastAllocated: more free cpu and memory).
  Cluster c = MakeCluster(WholeGpus(1));
  model::SchedulerConfig config;
  config.profiles[0].score_weights[std::string(kGpuSharePacking)] = 5;
  Scheduler scheduler(c.snapshot, config);
  PodExplanation e = scheduler.Explain(c.pod);
  const NodeVerdict* b = FindVerdict(e, c.snapshot, "b");
  ASSERT_NE(b, nullptr);
  const PluginScore* packing = FindScore(*b, kGpuSharePacking);
  ASSERT_NE(packing, nullptr);
  EXPECT_EQ(packing->weight, 5);
  EXPECT_EQ(packing->normalized, 49);
  EXPECT_EQ(BoundTo(c.snapshot, scheduler.ScheduleOne(c.pod)), "b");
}

TEST(GpuNodeViewTest, PlacedTakesWholeGpusOrTheLedgersChoice) {
  gpu::GpuNodeView v;
  v.cpu_free_milli = 10000;
  v.gpus = 4;
  v.free_whole = 2;
  v.gpu_memory_mib = 1000;
  v.shareable = true;
  v.shared = {{300, 300}, {900, 900}};
  EXPECT_EQ(v.IdleMilli(), 3200);
  gpu::GpuRequest whole{2000, 1, std::nullopt};
  gpu::GpuNodeView after = gpu::Placed(v, whole, {});
  EXPECT_EQ(after.cpu_free_milli, 8000);
  EXPECT_EQ(after.free_whole, 1);
  EXPECT_EQ(after.IdleMilli(), 2200);
  gpu::GpuRequest quarter{0, 0, gpu::FractionRequest{250, 0, 2}};
  EXPECT_EQ(v.RequestMilli(quarter), 500);
  std::vector<int32_t> choice = {0, -1};
  after = gpu::Placed(v, quarter, choice);
  EXPECT_EQ(after.free_whole, 1);
  ASSERT_EQ(after.shared.size(), 3u);
  EXPECT_EQ(after.shared[0].milli_free, 50);
  EXPECT_EQ(after.shared[2].milli_free, 750);
  EXPECT_EQ(after.shared[2].memory_free_mib, 750);
  EXPECT_EQ(after.IdleMilli(), 2700);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
