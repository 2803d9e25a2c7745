#include "binding/plugins/gpu_share_score.h"

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/resolved_profile.h"
#include "binding/plugins/gpu_share_cycle.h"
#include "gpu/node_state.h"

namespace berth::binding {

bool GpuShareScore::PreScore(const CycleContext& ctx, std::span<const model::NodeIndex>) {
  if (ctx.gpu_share == nullptr) return false;
  GpuShareNodeModel& model = ctx.gpu_share->node_model();
  std::optional<gpu::PodSpec> shape = model.Shape(ctx.pod, ctx.info);
  if (!shape.has_value()) return false;
  model.Sync();
  model.SetScoredPod(&ctx.info, policy_);
  shape_ = std::move(*shape);
  scorer_ = &model.Scorer(policy_);
  model_ = &model;
  return true;
}

int64_t GpuShareScore::Score(const CycleContext&, model::NodeIndex node) const {
  const gpu::GpuCluster& cluster = model_->cluster();
  const gpu::NodeState& state = cluster.node(node.v);
  // binding's filters passed; a node the model sees otherwise (a GPU-memory limit it does
  // not know, more GPUs than it holds) is scored as the worst.
  if (!gpu::Fits(shape_, state)) return 0;
  return scorer_->Score(shape_, state, cluster.node_fragment_milli(node.v));
}

bool WeighsGpuShareNodeModel(const ResolvedProfile& profile) {
  for (const GpuShareNodeModelPlugin& p : kGpuShareNodeModelPlugins) {
    if (profile.Weight(p.name) > 0) return true;
  }
  return false;
}

}  // namespace berth::binding
