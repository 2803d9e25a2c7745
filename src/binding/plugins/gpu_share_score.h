// GpuShareScore: a gpu::NodeScorer (a GPU-sharing placement policy of the gpu module, the
// simulator's own code) as a binding score plugin, selected by its name
// (gpu_share_names.h: berth.dev/GpuShareBerth runs gpu::Policy::kBerth). Every pod is scored,
// CPU-only ones included, as in the simulator; the nodes are read through GpuShareNodeModel,
// and a fractional pod's bind takes the GPU the policy chose (GpuFractionPlacer). Scores are
// the policy's own integers, not normalised: berth's key (pressure, FGD, alignment) runs to
// about 330,000, so within a profile it decides before the 0..100 plugins, which only break
// its ties. Ties between nodes go to the name that sorts first, as for every plugin. Made per
// pod by MakeScorePlugins. Per Score: the policy's cost (berth: FGD's what-if, mostly a memo
// hit); per pod: a Sync of the nodes changed since the last pod.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "binding/framework/cycle_context.h"
#include "binding/framework/score_plugin.h"
#include "binding/plugins/gpu_share_node_model.h"
#include "gpu/gpu_spec.h"
#include "gpu/node_scorer.h"
#include "gpu/policy.h"

namespace berth::binding {

class GpuShareScore final : public ScorePlugin {
 public:
  GpuShareScore(std::string_view name, gpu::Policy policy) : name_(name), policy_(policy) {}

  std::string_view Name() const override { return name_; }
  bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;

 private:
  std::string_view name_;
  gpu::Policy policy_;
  // Set by PreScore for a pod it scores.
  const GpuShareNodeModel* model_ = nullptr;
  const gpu::NodeScorer* scorer_ = nullptr;
  gpu::PodSpec shape_;
};

// Whether the profile weighs a GpuShareScore plugin (kGpuShareNodeModelPlugins): then every
// pod is scored by it and takes the reference path. O(plugins).
bool WeighsGpuShareNodeModel(const ResolvedProfile& profile);

}  // namespace berth::binding
