// berth.dev/GpuShareClustering: the FGD paper's GpuClustering policy (upstream
// gpu_clustering_score.go). A GPU pod's kind is "sharing" (a fraction) or "k whole GPUs";
// nodes score in bands of 25: only pods of its kind there (75-100), its kind among others
// (50-75), no GPU pods yet (25-50), other kinds only (0-25); inside a band
// 25 x (largest node's GPU share - idle share) / largest node's GPU share, integer
// division, so a fuller node scores higher (upstream divides by 8 GPUs, OpenB's largest).
// Made per pod; O(GPU kinds on the node + GPUs reserved for fractions) per Score.
#pragma once

#include "binding/plugins/gpu_share_plugin.h"

namespace berth::binding {

class GpuShareClusteringScore final : public GpuSharePlugin {
 public:
  std::string_view Name() const override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;
};

}  // namespace berth::binding
