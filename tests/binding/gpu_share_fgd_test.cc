// berth.dev/GpuShareFGD and what it stands on: the typical pods of a snapshot, the FGD
// paper's fragment F(n) on hand-built node views (every class), the per-node cache that
// follows node versions, hand-computed FGD scores, and a run where FGD keeps room for a
// 4-GPU pod that LeastAllocated spreads away.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "binding/framework/cluster_state.h"
#include "binding/framework/gpu_share_names.h"
#include "binding/framework/label_sig_table.h"
#include "binding/framework/plugin_names.h"
#include "binding/framework/pod_info_store.h"
#include "binding/framework/resource_table.h"
#include "binding/plugins/gpu_share_cycle.h"
#include "binding/plugins/gpu_share_score.h"
#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "gpu/fragmentation.h"
#include "gpu/policy_scores.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using testing::kGi;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::SnapshotBuilder;

gpu::TypicalGpuPod Typical(int64_t cpu_milli, int64_t whole, double frequency = 0,
                           std::optional<gpu::FractionRequest> fraction = std::nullopt) {
  gpu::TypicalGpuPod p;
  p.request = gpu::GpuRequest{cpu_milli, whole, fraction};
  p.count = 1;
  p.frequency = frequency;
  return p;
}

gpu::FractionRequest Milli(int64_t milli) { return gpu::FractionRequest{milli, 0, 1}; }

TEST(TypicalGpuPodsTest, GroupedSortedCutAt95PercentAndRenormalized) {
  std::vector<gpu::TypicalGpuPod> pods;
  for (int i = 0; i < 5; ++i) pods.push_back(Typical(1000, 1));
  for (int i = 0; i < 3; ++i) pods.push_back(Typical(2000, 0, 0, Milli(500)));
  pods.push_back(Typical(100, 8));
  pods.push_back(Typical(500, 0));
  std::vector<gpu::TypicalGpuPod> all = gpu::BuildTypicalGpuPods(pods);
  ASSERT_EQ(all.size(), 4u);  // 9 of 10 pods is below 95%: the last group is kept too
  EXPECT_EQ(all[0].count, 5);
  EXPECT_EQ(all[0].request.whole, 1);
  EXPECT_EQ(all[1].count, 3);
  // Equal counts: the larger key first (CPU 500 before CPU 100).
  EXPECT_EQ(all[2].request.cpu_milli, 500);
  EXPECT_EQ(all[3].request.cpu_milli, 100);
  EXPECT_DOUBLE_EQ(all[0].frequency, 0.5);
  EXPECT_DOUBLE_EQ(all[3].frequency, 0.1);

  std::vector<gpu::TypicalGpuPod> top = gpu::BuildTypicalGpuPods(pods, 80);
  ASSERT_EQ(top.size(), 2u);  // 5 + 3 = 8 of 10 reaches 80%
  EXPECT_DOUBLE_EQ(top[0].frequency, 5.0 / 8);
  EXPECT_DOUBLE_EQ(top[1].frequency, 3.0 / 8);
}

// 4 GPUs: one free, shared ones with 600, 200 and 900 milli free; 4 cores free.
gpu::GpuNodeView SampleView() {
  gpu::GpuNodeView v;
  v.cpu_free_milli = 4000;
  v.gpus = 4;
  v.free_whole = 1;
  v.shareable = true;
  v.product = 3;
  v.shared = {{600, 0}, {200, 0}, {900, 0}};
  return v;
}

TEST(GpuFragmentationTest, EveryClassHandComputed) {
  const gpu::GpuNodeView v = SampleView();  // idle 2700
  gpu::TypicalGpuPod restricted = Typical(1000, 1, 0.05);
  restricted.products = {7};
  gpu::GpuFragmentModel model({
      Typical(1000, 1, 0.4),              // Q3: only the shared GPUs' 1700 is fragment
      Typical(2000, 0, 0.3, Milli(500)),  // Q3: only the GPU with 200 free is
      Typical(1000, 2, 0.1),              // Q2: one free GPU for two
      Typical(8000, 0, 0.05),             // XR: CPU-only pod, CPU short
      Typical(8000, 1, 0.05),             // Q4: the GPU fits, the CPU does not
      Typical(8000, 2, 0.025),            // Q1: neither
      Typical(100, 0, 0.025),             // XL
      restricted,                         // no access
  });
  EXPECT_EQ(gpu::GpuFragmentModel::Classify(v, model.typical_pods()[0]),
            gpu::FragClass::kQ3Satisfied);
  EXPECT_EQ(gpu::GpuFragmentModel::Classify(v, model.typical_pods()[2]),
            gpu::FragClass::kQ2LackGpu);
  EXPECT_EQ(gpu::GpuFragmentModel::Classify(v, model.typical_pods()[3]),
            gpu::FragClass::kXrLackCpu);
  EXPECT_EQ(gpu::GpuFragmentModel::Classify(v, model.typical_pods()[4]),
            gpu::FragClass::kQ4LackCpu);
  EXPECT_EQ(gpu::GpuFragmentModel::Classify(v, model.typical_pods()[5]),
            gpu::FragClass::kQ1LackBoth);
  EXPECT_EQ(gpu::GpuFragmentModel::Classify(v, model.typical_pods()[6]),
            gpu::FragClass::kXlSatisfied);
  EXPECT_EQ(gpu::GpuFragmentModel::Classify(v, model.typical_pods()[7]), gpu::FragClass::kNoAccess);
  gpu::FragBreakdown b = model.Breakdown(v);
  EXPECT_NEAR(b[gpu::FragClass::kQ2LackGpu], 0.4 * 1700 + 0.3 * 200 + 0.1 * 2700, 1e-9);
  EXPECT_NEAR(b[gpu::FragClass::kQ3Satisfied], 0.4 * 1000 + 0.3 * 2500, 1e-9);
  EXPECT_NEAR(b[gpu::FragClass::kXrLackCpu], 0.05 * 2700, 1e-9);
  EXPECT_NEAR(b[gpu::FragClass::kQ4LackCpu], 0.05 * 2700, 1e-9);
  EXPECT_NEAR(b[gpu::FragClass::kQ1LackBoth], 0.025 * 2700, 1e-9);
  EXPECT_NEAR(b[gpu::FragClass::kXlSatisfied], 0.025 * 2700, 1e-9);
  EXPECT_NEAR(b[gpu::FragClass::kNoAccess], 0.05 * 2700, 1e-9);
  // Everything but Q3: 680 + 60 + 270 + 135 + 135 + 67.5 + 67.5 + 135.
  EXPECT_NEAR(model.FragmentMilli(v), 1550, 1e-9);
}

TEST(GpuFragmentationTest, FractionsNeedAShareableNodeAndMemory) {
  gpu::GpuNodeView v = SampleView();
  gpu::GpuFragmentModel by_fraction({Typical(1000, 0, 1.0, Milli(500))});
  EXPECT_NEAR(by_fraction.FragmentMilli(v), 200, 1e-9);
  v.shareable = false;  // MIG or time-sliced GPUs take no fractions: all idle is fragment
  EXPECT_NEAR(by_fraction.FragmentMilli(v), 2700, 1e-9);
  // A memory request on GPUs of unknown memory cannot be placed.
  v.shareable = true;
  gpu::GpuFragmentModel by_memory({Typical(1000, 0, 1.0, gpu::FractionRequest{0, 4000, 1})});
  EXPECT_NEAR(by_memory.FragmentMilli(v), 2700, 1e-9);
  // With 10000 MiB GPUs it is 400 milli and 4000 MiB: the 200-milli GPU is too small, and
  // the 600-milli one has only 1000 MiB left.
  v.gpu_memory_mib = 10000;
  v.shared = {{600, 1000}, {200, 2000}, {900, 9000}};
  EXPECT_NEAR(by_memory.FragmentMilli(v), 800, 1e-9);
}

TEST(GpuFragmentationTest, FgdScoreOfDelta) {
  EXPECT_EQ(gpu::FgdScore(0, 0), 50);
  EXPECT_EQ(gpu::FgdScore(-1000, 0), 26);       // sigmoid(-1) = 0.2689
  EXPECT_EQ(gpu::FgdScore(1000.0 / 3, 0), 58);  // sigmoid(1/3) = 0.5826
  EXPECT_EQ(gpu::FgdScore(1e9, 0), 100);
  EXPECT_EQ(gpu::FgdScore(-1e9, 0), 0);
}

TEST(AllowedGpuProductsTest, NodeSelectorOrEveryRequiredTerm) {
  model::Pod pod;
  EXPECT_TRUE(AllowedGpuProducts(pod).empty());
  pod.node_selector["nvidia.com/gpu.product"] = "H100";
  EXPECT_EQ(AllowedGpuProducts(pod), std::vector<std::string>{"H100"});
  pod.node_selector.clear();
  core::NodeSelector required;
  core::NodeSelectorTerm t1;
  t1.match_expressions.push_back({"nvidia.com/gpu.product", core::SelectorOp::kIn, {"B", "A"}});
  core::NodeSelectorTerm t2;
  t2.match_expressions.push_back({"zone", core::SelectorOp::kIn, {"z1"}});
  t2.match_expressions.push_back({"nvidia.com/gpu.product", core::SelectorOp::kIn, {"C", "A"}});
  required.terms = {t1, t2};
  pod.node_affinity.required = required;
  EXPECT_EQ(AllowedGpuProducts(pod), (std::vector<std::string>{"A", "B", "C"}));
  // A term that does not restrict the product lets any product through.
  required.terms.push_back(core::NodeSelectorTerm{{{"zone", core::SelectorOp::kIn, {"z2"}}}, {}});
  pod.node_affinity.required = required;
  EXPECT_TRUE(AllowedGpuProducts(pod).empty());
}

NodeBuilder GpuNode(const std::string& name, int64_t gpus) {
  return NodeBuilder(name).Cpu(32000).Memory(256 * kGi).Gpu(gpus);
}

PodBuilder GpuPod(const std::string& name, int64_t gpus, int created) {
  return PodBuilder(name).Created(created).Container({{"cpu", 1000}, {"nvidia.com/gpu", gpus}});
}

// Two idle 4-GPU nodes and, in queue order, two 1-GPU pods and one 4-GPU pod. The typical
// pods are those three: 1 GPU (2/3), 4 GPUs (1/3). F(4 free) = 0, F(3 free) = 1/3 x 3000,
// F(2 free) = 1/3 x 2000.
model::Snapshot FourGpuCase() {
  SnapshotBuilder s;
  s.Add(GpuNode("a", 4)).Add(GpuNode("b", 4));
  s.Add(GpuPod("one-1", 1, 1)).Add(GpuPod("one-2", 1, 2)).Add(GpuPod("four", 4, 3));
  return s.Build();
}

model::SchedulerConfig LeastAllocatedWithGpu() {
  model::SchedulerConfig config = OnlyScore(std::string(kNodeResourcesFit));
  config.profiles[0].fit_strategy.resources = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}};
  return config;
}

TEST(GpuShareFgdTest, HandComputedScores) {
  model::Snapshot snap = FourGpuCase();
  Scheduler scheduler(snap, OnlyScore(std::string(kGpuShareFgd)));
  // Both idle: F 0 -> 1000, sigmoid(-1) -> 26 on each; the tie goes to "a".
  PodExplanation first = scheduler.Explain(model::PodIndex{0});
  EXPECT_EQ(RawScore(first, snap, "a", kGpuShareFgd), 26);
  EXPECT_EQ(RawScore(first, snap, "b", kGpuShareFgd), 26);
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(model::PodIndex{0})), "a");
  // a: F 1000 -> 666.7, sigmoid(1/3) -> 58; b: 0 -> 1000, 26.
  PodExplanation second = scheduler.Explain(model::PodIndex{1});
  EXPECT_EQ(RawScore(second, snap, "a", kGpuShareFgd), 58);
  EXPECT_EQ(RawScore(second, snap, "b", kGpuShareFgd), 26);
  EXPECT_EQ(NormalizedScore(second, snap, "a", kGpuShareFgd), 58);
}

TEST(GpuShareFgdTest, PacksWhereLeastAllocatedSpreadsAndStrandsTheBigPod) {
  model::Snapshot snap = FourGpuCase();
  Scheduler least(snap, LeastAllocatedWithGpu());
  std::vector<model::PodDecision> spread = least.ScheduleAll();
  ASSERT_EQ(spread.size(), 3u);
  EXPECT_EQ(BoundTo(snap, spread[0]), "a");
  EXPECT_EQ(BoundTo(snap, spread[1]), "b");
  EXPECT_FALSE(spread[2].node.has_value());
  EXPECT_EQ(spread[2].message, "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");

  for (int32_t fgd_weight : {1, 5}) {
    // FGD alone, and FGD at weight 5 over kube-scheduler's default profile.
    model::SchedulerConfig config =
        fgd_weight == 1 ? OnlyScore(std::string(kGpuShareFgd)) : model::SchedulerConfig{};
    config.profiles[0].score_weights[std::string(kGpuShareFgd)] = fgd_weight;
    Scheduler fgd(snap, config);
    std::vector<model::PodDecision> packed = fgd.ScheduleAll();
    ASSERT_EQ(packed.size(), 3u);
    EXPECT_EQ(BoundTo(snap, packed[0]), "a") << fgd_weight;
    EXPECT_EQ(BoundTo(snap, packed[1]), "a") << fgd_weight;
    EXPECT_EQ(BoundTo(snap, packed[2]), "b") << fgd_weight;
  }
}

// The cluster's fragment sum after binding pods per `decisions`, measured afresh.
double FragmentAfter(model::Snapshot snap, const std::vector<model::PodDecision>& decisions) {
  for (const model::PodDecision& d : decisions) {
    if (d.node.has_value())
      snap.pods[static_cast<size_t>(d.pod.v)].node_name = snap.node(*d.node).meta.name;
  }
  ResourceTable resources(snap.resources);
  LabelSigTable sigs;
  PodInfoStore infos(snap, resources, &sigs);
  ClusterState state(snap, resources);
  for (size_t i = 0; i < snap.pods.size(); ++i) {
    const model::PodIndex p{static_cast<int32_t>(i)};
    if (auto n = state.FindNode(snap.pods[i].node_name)) state.AddPod(p, *n, infos.Get(p));
  }
  GpuShareCycle cycle(snap, resources, state, infos);
  double sum = 0;
  for (int32_t n = 0; n < state.num_nodes(); ++n)
    sum += cycle.NodeFragmentMilli(model::NodeIndex{n});
  return sum;
}

TEST(GpuShareFgdTest, LeavesLessFragmentThanLeastAllocated) {
  model::Snapshot snap = FourGpuCase();
  // Against the same typical pods, after the first two pods: LeastAllocated leaves 3 + 3
  // free GPUs, each node a fragment for the 4-GPU pod (2 x 1000); FGD leaves 2 + 4 (666.7).
  Scheduler least(snap, LeastAllocatedWithGpu());
  std::vector<model::PodDecision> spread = {least.ScheduleOne(model::PodIndex{0}),
                                            least.ScheduleOne(model::PodIndex{1})};
  Scheduler fgd(snap, OnlyScore(std::string(kGpuShareFgd)));
  std::vector<model::PodDecision> packed = {fgd.ScheduleOne(model::PodIndex{0}),
                                            fgd.ScheduleOne(model::PodIndex{1})};
  EXPECT_NEAR(FragmentAfter(snap, spread), 2000, 1e-6);
  EXPECT_NEAR(FragmentAfter(snap, packed), 2000.0 / 3, 1e-6);
}

TEST(GpuShareCycleTest, TypicalPodsSkipTerminalAndMalformedPods) {
  SnapshotBuilder s;
  s.Add(GpuNode("a", 4).Label("nvidia.com/gpu.memory", "81920"));
  s.Add(GpuPod("ok", 1, 1));
  s.Add(GpuPod("done", 2, 2).Phase(model::PodPhase::kSucceeded));
  s.Add(PodBuilder("bad").Container({{"cpu", 1000}}));
  s.Add(PodBuilder("cpu").Container({{"cpu", 500}}));
  model::Snapshot snap = s.Build();
  snap.pods[2].meta.annotations = {{"gpu-fraction", "1.5"}};
  ResourceTable resources(snap.resources);
  LabelSigTable sigs;
  PodInfoStore infos(snap, resources, &sigs);
  ClusterState state(snap, resources);
  GpuShareCycle cycle(snap, resources, state, infos);
  const auto& typical = cycle.fragmentation().typical_pods();
  ASSERT_EQ(typical.size(), 2u);  // "ok" and "cpu", one each
  EXPECT_DOUBLE_EQ(typical[0].frequency + typical[1].frequency, 1.0);
  EXPECT_EQ(cycle.max_gpu_milli(), 4000);
  EXPECT_EQ(cycle.max_cpu_milli(), 32000);
}

// A cycle's node that counts how often a scorer evaluates it (asks the ledger's choice).
class CountingNode final : public gpu::KaiNode {
 public:
  CountingNode(const GpuShareCycle& cycle, model::NodeIndex node) : node_(cycle, node) {}
  int32_t index() const override { return node_.index(); }
  uint32_t version() const override { return node_.version(); }
  gpu::GpuNodeView View() const override { return node_.View(); }
  std::optional<std::vector<int32_t>> Choose(const gpu::GpuRequest& request) const override {
    ++evaluations;
    return node_.Choose(request);
  }
  double FragmentMilli() const override { return node_.FragmentMilli(); }
  gpu::KindsOnNode Kinds(int64_t pod_kind) const override { return node_.Kinds(pod_kind); }

  mutable int evaluations = 0;

 private:
  GpuShareCycle::Node node_;
};

TEST(GpuShareCycleTest, FragmentCacheAndMemoFollowNodeVersions) {
  model::Snapshot snap = FourGpuCase();
  ResourceTable resources(snap.resources);
  LabelSigTable sigs;
  PodInfoStore infos(snap, resources, &sigs);
  ClusterState state(snap, resources);
  GpuShareCycle cycle(snap, resources, state, infos);
  const model::NodeIndex a{0};
  EXPECT_NEAR(cycle.NodeFragmentMilli(a), 0, 1e-9);
  const gpu::GpuRequest one = cycle.Request(infos.Get(model::PodIndex{0}));
  EXPECT_EQ(one, (gpu::GpuRequest{1000, 1, std::nullopt}));
  // FGD's scorer keeps its scores per node version: a repeat is not evaluated again.
  const gpu::NodeScorer& fgd = cycle.Scorer(gpu::Policy::kFgd);
  EXPECT_EQ(&fgd, &cycle.Scorer(gpu::Policy::kFgd));
  const CountingNode node(cycle, a);
  const int64_t score = fgd.Score(one, node, cycle.kai_cluster());
  EXPECT_EQ(node.evaluations, 1);
  EXPECT_EQ(fgd.Score(one, node, cycle.kai_cluster()), score);
  EXPECT_EQ(node.evaluations, 1);
  fgd.Score(cycle.Request(infos.Get(model::PodIndex{2})), node, cycle.kai_cluster());
  EXPECT_EQ(node.evaluations, 2);
  state.AddPod(model::PodIndex{0}, a, infos.Get(model::PodIndex{0}));
  // The node changed: the cached F is recomputed and the memo no longer answers.
  EXPECT_NEAR(cycle.NodeFragmentMilli(a), 1000, 1e-9);
  EXPECT_EQ(cycle.NodeFragmentMilli(a), cycle.fragmentation().FragmentMilli(cycle.View(a)));
  fgd.Score(one, node, cycle.kai_cluster());
  EXPECT_EQ(node.evaluations, 3);
  state.RemovePod(model::PodIndex{0}, a, infos.Get(model::PodIndex{0}));
  EXPECT_NEAR(cycle.NodeFragmentMilli(a), 0, 1e-9);
  EXPECT_NEAR(cycle.NodeFragmentMilli(model::NodeIndex{1}), 0, 1e-9);
}

TEST(GpuShareFgdTest, FractionScoredAtTheLedgersChoice) {
  // One 2-GPU node with a quarter GPU reserved; typical pods: the quarter (2/3 with the
  // pending one) and a whole GPU (1/3). A second quarter joins the shared GPU (KAI's
  // packing): F before = 2/3 x 0 + 1/3 x 750 (the whole pod fits, the shared GPU's 750 is
  // out of its reach) = 250; after, 1/3 x 500 = 166.7: delta +83.3 -> sigmoid(0.0833) = 52.
  SnapshotBuilder s;
  s.Add(GpuNode("a", 2).Label("nvidia.com/gpu.memory", "81920"));
  s.Add(PodBuilder("q1").NodeName("a").Container({{"cpu", 1000}}));
  model::PodIndex pending = s.NextPod();
  s.Add(PodBuilder("q2").Container({{"cpu", 1000}}));
  s.Add(GpuPod("whole", 1, 5));
  model::Snapshot snap = s.Build();
  snap.pods[0].meta.annotations = {{"gpu-fraction", "0.25"}};
  snap.pods[1].meta.annotations = {{"gpu-fraction", "0.25"}};
  Scheduler scheduler(snap, OnlyScore(std::string(kGpuShareFgd)));
  EXPECT_EQ(RawScore(scheduler.Explain(pending), snap, "a", kGpuShareFgd), 52);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
