// berth.dev/GpuShareDotProd: the FGD paper's DotProd policy (Tetris; upstream
// dot_product_score.go with the "merge" dimensions and "max" normalisation the paper ran):
// node vector (free CPU, idle GPU share), pod vector (CPU, total GPU share), both divided by
// the cluster's largest node (GpuShareCycle::max_*); score int(100 x (1 - dot / 2)), so the
// node whose free resources align least with the request wins. No normalisation (0..100
// already). Made per pod; O(GPUs reserved for fractions on the node) per Score.
#pragma once

#include "binding/plugins/gpu_share_plugin.h"

namespace berth::binding {

class GpuShareDotProdScore final : public GpuSharePlugin {
 public:
  std::string_view Name() const override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
};

}  // namespace berth::binding
