// GpuShareViewScore: the FGD paper's six policies (gpu::Policy kRandom .. kFgd) as one
// binding score plugin, selected by name (gpu_share_names.h: berth.dev/GpuShare{Random,
// DotProd,Clustering,Packing,BestFit,FGD}), scored on binding's KAI view of a node
// (gpu/gpu_node_view.h, through GpuShareCycle). The arithmetic of each policy is the gpu
// module's (gpu/policy_scores.h) and F is gpu's one fragmentation rule (gpu/fragmentation.h);
// what this adapter adds, and why it does not run the gpu::NodeScorer on the node model as
// GpuShareScore does, is exactly what binding's view has and the node model has not:
// - fractions by GPU memory and over several GPUs (a KAI pod's share depends on the node's
//   GPU memory; the fraction's portions go where the node's FractionLedger puts them, and
//   FGD and Packing read that choice), whole GPUs usable only when no fraction holds them;
// - the max spec is the snapshot's largest node (GpuShareCycle::max_*), not OpenB's fixed
//   128 cores and 8 GPUs, and components are clamped to it (scores 0..100 whatever the fleet);
// - Clustering's pod kinds are ClusterState's per-node counts (fraction = "sharing");
// - Random is a hash of kGpuShareRandomSeed and the pod's namespace/name over the feasible
//   nodes in name order (no run RNG in a plan), and BestFit min-max normalises as upstream's
//   NormalizeScore does (the replay needs no normalisation: it keeps the top nodes).
// Only GPU pods are scored (GpuSharePlugin::PreScore); a CPU-only pod adds nothing. Made per
// pod by MakeScorePlugins. Per Score: O(GPUs reserved for fractions on the node), FGD
// O(typical pods x those GPUs) or O(1) from GpuShareCycle's memo, Packing and FGD also the
// ledger's choice O(portions x those GPUs); BestFit's normalisation O(feasible nodes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "binding/plugins/gpu_share_plugin.h"
#include "gpu/policy.h"

namespace berth::binding {

class GpuShareViewScore final : public GpuSharePlugin {
 public:
  // `policy` is one of the paper's six (gpu::kAllPolicies); checked.
  GpuShareViewScore(std::string_view name, gpu::Policy policy);

  std::string_view Name() const override { return name_; }
  bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
  void NormalizeScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible,
                      std::span<int64_t> scores) const override;

 private:
  int64_t RandomScore(model::NodeIndex node) const;
  int64_t DotProdScore(model::NodeIndex node) const;
  int64_t ClusteringScore(const CycleContext& ctx, model::NodeIndex node) const;
  int64_t PackingScore(model::NodeIndex node) const;
  int64_t BestFitScore(model::NodeIndex node) const;
  int64_t FgdScore(model::NodeIndex node) const;

  std::string_view name_;
  gpu::Policy policy_;
  model::NodeIndex chosen_{-1};  // Random's pick, set by PreScore
};

// Random's draw: an index below n from `seed` and the pod's namespace/name (splitmix64 over
// FNV-1a). O(name length).
size_t GpuShareRandomPick(uint64_t seed, const model::Pod& pod, size_t n);

// Min-max scaling to 0..100 (all 0 when the scores are equal): BestFit's NormalizeScore.
void MinMaxNormalize(std::span<int64_t> scores);

}  // namespace berth::binding
