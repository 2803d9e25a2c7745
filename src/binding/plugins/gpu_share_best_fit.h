// berth.dev/GpuShareBestFit: the FGD paper's BestFit policy (upstream best_fit_score.go):
// raw score int(100 x (1 - sum over CPU and GPU of 0.5 x (free - request) / largest node)),
// the tightest fit highest; NormalizeScore then min-max scales the feasible nodes' scores to
// 0..100 (all 0 when they are equal), as upstream's NormalizeScore does. Made per pod;
// O(GPUs reserved for fractions on the node) per Score, O(feasible nodes) to normalise.
#pragma once

#include "binding/plugins/gpu_share_plugin.h"

namespace berth::binding {

class GpuShareBestFitScore final : public GpuSharePlugin {
 public:
  std::string_view Name() const override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
  void NormalizeScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible,
                      std::span<int64_t> scores) const override;
};

// Upstream's min-max NormalizeScore (plugin_utils.go): (s - min) x 100 / (max - min), all
// 0 when max == min.
void MinMaxNormalize(std::span<int64_t> scores);

}  // namespace berth::binding
