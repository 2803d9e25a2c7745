// GPU-sharing score plugins and GPU-weighted NodeResourcesFit strategies the way `berth
// plan` gets them: objects and a KubeSchedulerConfiguration read by io, the profile's
// plugins.score.enabled naming berth.dev/GpuShare* with weights, then binding's Scheduler
// on the snapshot's scheduler config (what engine's plan does).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/plugin_names.h"
#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "core/diagnostics.h"
#include "io/reader.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

constexpr std::string_view kCluster = R"(
apiVersion: v1
kind: Node
metadata:
  name: node-a
  labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
status:
  allocatable: {cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "4"}
---
apiVersion: v1
kind: Node
metadata:
  name: node-b
  labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
status:
  allocatable: {cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "4"}
---
apiVersion: v1
kind: Pod
metadata: {name: one-1, namespace: ml, creationTimestamp: "2026-01-10T10:00:01Z"}
spec:
  containers:
  - name: train
    image: trainer
    resources:
      requests: {cpu: "1", nvidia.com/gpu: "1"}
      limits: {nvidia.com/gpu: "1"}
---
apiVersion: v1
kind: Pod
metadata: {name: one-2, namespace: ml, creationTimestamp: "2026-01-10T10:00:02Z"}
spec:
  containers:
  - name: train
    image: trainer
    resources:
      requests: {cpu: "1", nvidia.com/gpu: "1"}
      limits: {nvidia.com/gpu: "1"}
---
apiVersion: v1
kind: Pod
metadata: {name: four, namespace: ml, creationTimestamp: "2026-01-10T10:00:03Z"}
spec:
  containers:
  - name: train
    image: trainer
    resources:
      requests: {cpu: "1", nvidia.com/gpu: "4"}
      limits: {nvidia.com/gpu: "4"}
)";

// The cluster above with a KubeSchedulerConfiguration whose one profile (default-scheduler)
// has `profile` (YAML lines indented under the profile's list item) after its name.
model::Snapshot ReadAll(const std::string& profile) {
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(kCluster, "cluster.yaml");
  reader.ReadText(
      "apiVersion: kubescheduler.config.k8s.io/v1\n"
      "kind: KubeSchedulerConfiguration\n"
      "profiles:\n"
      "- schedulerName: default-scheduler\n" +
          profile,
      "scheduler-config.yaml");
  io::Input input = reader.Finish();
  for (const core::Diagnostic& d : diags.entries()) {
    EXPECT_NE(d.severity, core::Severity::kError) << d.error.message();
  }
  EXPECT_TRUE(input.snapshot.scheduler_config.has_value());
  return std::move(input.snapshot);
}

// A profile scoring with `plugin` alone.
std::string OnlyScoring(std::string_view plugin) {
  return "  plugins:\n    score:\n      disabled:\n      - name: \"*\"\n      enabled:\n"
         "      - name: " +
         std::string(plugin) + "\n";
}

// A profile whose NodeResourcesFit scores with strategy `type` over `resources` (flow
// mappings: "{name: nvidia.com/gpu, weight: 1}").
std::string FitStrategy(std::string_view type, const std::vector<std::string>& resources) {
  std::string out =
      "  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
      "      scoringStrategy:\n        type: " +
      std::string(type) + "\n        resources:\n";
  for (const std::string& r : resources) out += "        - " + r + "\n";
  return out;
}

// NodeResourcesFit's raw scores of node-a and node-b for the second pod, the first bound.
std::vector<int64_t> FitScoresOfSecondPod(const model::Snapshot& snap) {
  Scheduler scheduler(snap, *snap.scheduler_config);
  scheduler.ScheduleOne(model::PodIndex{0});
  PodExplanation e = scheduler.Explain(model::PodIndex{1});
  return {RawScore(e, snap, "node-a", kNodeResourcesFit),
          RawScore(e, snap, "node-b", kNodeResourcesFit)};
}

std::vector<std::string> Placements(const model::Snapshot& snap) {
  Scheduler scheduler(snap, *snap.scheduler_config);
  std::vector<std::string> out;
  for (const model::PodDecision& d : scheduler.ScheduleAll()) {
    out.push_back(snap.pods[static_cast<size_t>(d.pod.v)].meta.name + "->" +
                  (d.node.has_value() ? snap.node(*d.node).meta.name : "none"));
  }
  return out;
}

TEST(GpuShareConfigTest, FgdEnabledThroughTheProfileKeepsRoomForTheFourGpuPod) {
  model::Snapshot snap = ReadAll(R"(  plugins:
    score:
      enabled:
      - name: berth.dev/GpuShareFGD
        weight: 5
)");
  const model::SchedulerProfile& profile = snap.scheduler_config->profiles.at(0);
  EXPECT_EQ(profile.score_weights.at(std::string(kGpuShareFgd)), 5);
  EXPECT_EQ(Placements(snap),
            (std::vector<std::string>{"one-1->node-a", "one-2->node-a", "four->node-b"}));
  // The explanation names the plugin with its weight.
  Scheduler scheduler(snap, *snap.scheduler_config);
  PodExplanation e = scheduler.Explain(model::PodIndex{0});
  const NodeVerdict* a = FindVerdict(e, snap, "node-a");
  ASSERT_NE(a, nullptr);
  const PluginScore* fgd = FindScore(*a, kGpuShareFgd);
  ASSERT_NE(fgd, nullptr);
  EXPECT_EQ(fgd->weight, 5);
  EXPECT_EQ(fgd->raw, 26);
}

TEST(GpuShareConfigTest, LeastAllocatedOnGpusSpreadsAndStrandsTheFourGpuPod) {
  model::Snapshot snap =
      ReadAll(FitStrategy("LeastAllocated", {"{name: nvidia.com/gpu, weight: 1}"}));
  EXPECT_EQ(Placements(snap),
            (std::vector<std::string>{"one-1->node-a", "one-2->node-b", "four->none"}));
  // LeastAllocated on nvidia.com/gpu alone, for one-2 with one-1 on node-a:
  // node-a (4 - 2) x 100 / 4 = 50, node-b (4 - 1) x 100 / 4 = 75.
  EXPECT_EQ(FitScoresOfSecondPod(snap), (std::vector<int64_t>{50, 75}));
}

TEST(GpuShareConfigTest, MostAllocatedOnGpusPacks) {
  model::Snapshot snap = ReadAll(FitStrategy(
      "MostAllocated", {"{name: nvidia.com/gpu, weight: 3}", "{name: cpu, weight: 1}"}));
  EXPECT_EQ(Placements(snap),
            (std::vector<std::string>{"one-1->node-a", "one-2->node-a", "four->node-b"}));
  // MostAllocated for one-2 with one-1 on node-a, weighted (3 x gpu + 1 x cpu) / 4:
  // node-a (3 x 50 + 1 x 2000 x 100 / 64000 = 3) / 4 = 38; node-b (3 x 25 + 1) / 4 = 19.
  EXPECT_EQ(FitScoresOfSecondPod(snap), (std::vector<int64_t>{38, 19}));
}

TEST(GpuShareConfigTest, EveryPolicyIsUsableFromAProfile) {
  for (const auto& [name, policy] : kGpuSharePlugins) {
    model::Snapshot snap = ReadAll(OnlyScoring(name));
    Scheduler scheduler(snap, *snap.scheduler_config);
    PodExplanation e = scheduler.Explain(model::PodIndex{0});
    const NodeVerdict* a = FindVerdict(e, snap, "node-a");
    ASSERT_NE(a, nullptr) << name;
    ASSERT_EQ(a->scores.size(), 1u) << name;
    EXPECT_EQ(a->scores[0].plugin, name);
    EXPECT_EQ(a->scores[0].weight, 1);
    EXPECT_GE(a->scores[0].normalized, 0);
    EXPECT_LE(a->scores[0].normalized, 100);
    // Every policy places the three pods somewhere or says why not.
    for (const model::PodDecision& d : scheduler.ScheduleAll()) {
      EXPECT_TRUE(d.node.has_value() || !d.message.empty()) << name;
    }
  }
}

// berth's policy (the simulator's gpu::NodeScorer) through a profile, as `berth plan` reads
// it: like FGD here (no model pressure, whole-GPU pods skip the alignment), it packs the two
// 1-GPU pods and keeps node-b whole for the 4-GPU pod; its raw score is the berth key.
TEST(GpuShareConfigTest, BerthPolicyIsUsableFromAProfile) {
  model::Snapshot snap = ReadAll(OnlyScoring(kGpuShareBerth));
  EXPECT_EQ(Placements(snap),
            (std::vector<std::string>{"one-1->node-a", "one-2->node-a", "four->node-b"}));
  Scheduler scheduler(snap, *snap.scheduler_config);
  PodExplanation e = scheduler.Explain(model::PodIndex{0});
  const NodeVerdict* a = FindVerdict(e, snap, "node-a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->scores.size(), 1u);
  EXPECT_EQ(a->scores[0].plugin, kGpuShareBerth);
  // Pressure level 0 (no pod names a model) puts the key above every 0..100 score.
  EXPECT_GT(a->scores[0].raw, 100);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
