// berth.dev/GpuShareFGD: the FGD paper's fragmentation gradient descent (upstream
// fgd_score.go): score int(100 x sigmoid((F_before - F_after) / 1000)), where F is the
// node's fragment against the typical pods (gpu_fragmentation.h) and F_after is taken at the
// placement the bind would make (free GPUs for whole ones, the node's FractionLedger choice
// for a fraction), so the node whose fragment grows least wins. No normalisation (0..100
// already). Made per pod. Per Score: F_before comes from GpuShareCycle's per-node cache,
// F_after costs O(typical pods x GPUs reserved for fractions on the node), and a node not
// changed since a pod with the same request was scored answers from the memo in O(1).
#pragma once

#include "binding/plugins/gpu_share_plugin.h"

namespace berth::binding {

class GpuShareFgdScore final : public GpuSharePlugin {
 public:
  std::string_view Name() const override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
};

// int(100 x sigmoid(delta_milli / 1000)), the step from a fragment change to a score.
int64_t FgdScoreOfDelta(double delta_milli);

}  // namespace berth::binding
