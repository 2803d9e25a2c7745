// berth.dev/GpuShareRandom: the FGD paper's Random policy. PreScore draws one feasible node
// uniformly and the Score gives it 100, every other node 0 (upstream random_score.go). The
// draw is a hash of kGpuShareRandomSeed and the pod's namespace/name over the feasible
// nodes in name order, so the same input always picks the same node. Made per pod.
#pragma once

#include "binding/plugins/gpu_share_plugin.h"

namespace berth::binding {

class GpuShareRandomScore final : public GpuSharePlugin {
 public:
  std::string_view Name() const override;
  bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;

 private:
  model::NodeIndex chosen_{-1};
};

// The draw: an index in [0, n) from the seed and the pod's identity. Exposed for tests.
size_t GpuShareRandomPick(uint64_t seed, const model::Pod& pod, size_t n);

}  // namespace berth::binding
