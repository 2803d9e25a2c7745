// berth.dev/GpuSharePacking: the FGD paper's GpuPacking policy (upstream
// gpu_packing_score.go), over the GPUs the pod would take on the node (the ledger's choice
// for a fraction, free GPUs for whole ones). Three bands: only partly used GPUs taken,
// max(100 - sum of their free percent / 10, 50); a used node where the pod breaks n free
// GPUs, max(50 - n, 33); an idle node with n GPUs, max(33 - n, n) (upstream's floor).
// Made per pod; O(portions x GPUs reserved for fractions on the node) per Score.
#pragma once

#include "binding/plugins/gpu_share_plugin.h"

namespace berth::binding {

class GpuSharePackingScore final : public GpuSharePlugin {
 public:
  std::string_view Name() const override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
};

}  // namespace berth::binding
