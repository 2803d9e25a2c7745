#include "binding/plugins/gpu_share_clustering.h"

#include <algorithm>

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/plugin_names.h"

namespace berth::binding {

std::string_view GpuShareClusteringScore::Name() const { return kGpuShareClustering; }

int64_t GpuShareClusteringScore::Score(const CycleContext& ctx, model::NodeIndex node) const {
  const int64_t kind = request_.fraction.has_value() ? 0 : request_.whole;
  const gpu::GpuNodeView v = cycle_->View(node);
  const int64_t max_gpu = cycle_->max_gpu_milli();
  const int64_t used = kMaxNodeScore / 4 * std::max<int64_t>(0, max_gpu - v.IdleMilli()) / max_gpu;
  bool same = false;
  int64_t kinds_present = 0;
  for (const GpuKindCount& k : ctx.state.gpu_kinds(node)) {
    if (k.count <= 0) continue;
    ++kinds_present;
    if (k.kind == kind) same = true;
  }
  if (same) return used + (kinds_present == 1 ? kMaxNodeScore * 3 / 4 : kMaxNodeScore * 2 / 4);
  return used + (kinds_present == 0 ? kMaxNodeScore / 4 : 0);
}

}  // namespace berth::binding
