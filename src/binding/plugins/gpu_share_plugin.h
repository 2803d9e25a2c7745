// GpuSharePlugin: the common PreScore of berth's GPU-sharing score plugins (the FGD paper's
// policies, gpu_share_names.h): a pod is scored only when it requests GPUs, whole
// (nvidia.com/gpu) or fractional (KAI annotations); any other pod is skipped, adds nothing
// and keeps binding's index. Also says when a pod must leave the index because such a
// plugin scores it. Made per pod by MakeScorePlugins.
#pragma once

#include <span>

#include "binding/framework/cycle_context.h"
#include "binding/framework/score_plugin.h"
#include "binding/plugins/gpu_share_cycle.h"
#include "gpu/gpu_node_view.h"

namespace berth::binding {

class GpuSharePlugin : public ScorePlugin {
 public:
  bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) override;

 protected:
  // Set by PreScore for a pod it does not skip.
  const GpuShareCycle* cycle_ = nullptr;
  gpu::GpuRequest request_;
};

// True when the pod's profile weighs a GPU-sharing plugin and the pod requests GPUs: the
// plugin's score then depends on per-GPU state no node class captures, so the pod takes
// the reference path (IndexedPath::Eligible). O(1).
bool GpuShareScoresPod(const CycleContext& ctx);

// 100 x v truncated towards zero, clamped to 0..100: the paper's float-to-score step.
int64_t ScoreOf(double v);

}  // namespace berth::binding
