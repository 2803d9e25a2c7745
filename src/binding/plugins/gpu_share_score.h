// GpuShareScore: binding's one GPU-sharing score plugin. It runs the gpu::NodeScorer of the
// policy its name selects (gpu_share_names.h: the FGD paper's six, berth.dev/GpuShare{Random,
// DotProd,Clustering,Packing,BestFit,FGD}, and berth's, berth.dev/GpuShareBerth), made by
// gpu::MakeScorer and kept per Scheduler by GpuShareCycle. Every formula is the gpu
// module's; this class only feeds the scorer the node input its policy reads
// (gpu/node_scorer.h) and applies binding's framework rules:
// - the paper's six read binding's own nodes as gpu::KaiNodes (GpuShareCycle::Node): only
//   GPU pods are scored (a CPU-only pod adds nothing and keeps binding's index); Random's
//   uniform pick is drawn from the pod's namespace/name with kGpuShareRandomSeed (no run RNG
//   in a plan) over the feasible nodes in name order, the pick scoring 100 and the rest 0;
//   BestFit's scores are min-max normalised as upstream's NormalizeScore does;
// - berth's reads the gpu node model (GpuShareNodeModel, its model pressure needs the
//   cluster's free GPUs per model): every pod is scored, CPU-only ones included, as in the
//   simulator, a fractional pod's bind takes the GPU the policy chose (GpuFractionPlacer),
//   and scores are the policy's own integers, not normalised: berth's key (pressure, FGD,
//   alignment) runs to about 330,000, so within a profile it decides before the 0..100
//   plugins, which only break its ties.
// Ties between nodes go to the name that sorts first, as for every plugin. Made per pod by
// MakeScorePlugins. Per Score: the policy's cost (NodeScorer); per pod under berth's policy,
// a Sync of the nodes changed since the last pod.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "binding/framework/cycle_context.h"
#include "binding/framework/score_plugin.h"
#include "binding/plugins/gpu_share_cycle.h"
#include "gpu/gpu_node_view.h"
#include "gpu/gpu_spec.h"
#include "gpu/node_scorer.h"
#include "gpu/policy.h"
#include "gpu/random_source.h"

namespace berth::binding {

class GpuShareScore final : public ScorePlugin {
 public:
  GpuShareScore(std::string_view name, gpu::Policy policy) : name_(name), policy_(policy) {}

  std::string_view Name() const override { return name_; }
  bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
  void NormalizeScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible,
                      std::span<int64_t> scores) const override;

 private:
  bool PreScoreNodeModel(const CycleContext& ctx);

  std::string_view name_;
  gpu::Policy policy_;
  // Set by PreScore for a pod it scores.
  const GpuShareCycle* cycle_ = nullptr;
  const gpu::NodeScorer* scorer_ = nullptr;
  const GpuShareNodeModel* model_ = nullptr;  // non-null when the policy reads the node model
  gpu::GpuRequest request_;                   // the KAI view's input
  gpu::PodSpec shape_;                        // the node model's input
  bool uniform_ = false;                      // scorer_->always_uniform(), asked once a pod
  model::NodeIndex chosen_{-1};               // then its pick
};

// The random source of one pod: its one draw is a hash of `seed` and the pod's
// namespace/name (GpuShareRandomPick), so the same input always draws the same node.
class PodSeededRandom final : public gpu::RandomSource {
 public:
  PodSeededRandom(uint64_t seed, const model::Pod& pod) : seed_(seed), pod_(pod) {}
  // Every call gives the same answer for the same n: one draw per pod.
  uint64_t UniformIntByRemainder(uint64_t n) override;

 private:
  uint64_t seed_;
  const model::Pod& pod_;
};

// An index below n from `seed` and the pod's namespace/name (splitmix64 over FNV-1a).
// O(name length).
size_t GpuShareRandomPick(uint64_t seed, const model::Pod& pod, size_t n);

// Whether the profile weighs a plugin whose policy reads the node model
// (kGpuShareNodeModelPlugins): then every pod is scored by it and takes the reference path.
// O(plugins).
bool WeighsGpuShareNodeModel(const ResolvedProfile& profile);

// True when the pod's profile weighs a GPU-sharing plugin and the pod is scored by it (a GPU
// pod, or any pod under berth's policy): the plugin's score then depends on per-GPU state no
// node class captures, so the pod takes the reference path (IndexedPath::Eligible). O(1).
bool GpuShareScoresPod(const CycleContext& ctx);

}  // namespace berth::binding
