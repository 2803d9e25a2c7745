#include "binding/plugins/gpu_share_packing.h"

#include <algorithm>

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/plugin_names.h"

namespace berth::binding {

std::string_view GpuSharePackingScore::Name() const { return kGpuSharePacking; }

int64_t GpuSharePackingScore::Score(const CycleContext&, model::NodeIndex node) const {
  const gpu::GpuNodeView v = cycle_->View(node);
  // Case 3, an idle node.
  if (v.shared.empty() && v.free_whole == v.gpus) {
    return std::max<int64_t>(kMaxNodeScore / 3 - v.free_whole, v.free_whole);
  }
  int64_t free_gpus_taken = 0;
  int64_t free_pct_on_taken = 0;
  if (request_.fraction.has_value()) {
    std::optional<std::vector<int32_t>> choice = cycle_->Choose(node, request_);
    // Only for a node GpuSharing let through with that filter disabled: nowhere to go.
    if (!choice.has_value()) return 0;
    for (int32_t slot : *choice) {
      if (slot < 0) {
        ++free_gpus_taken;
      } else {
        free_pct_on_taken += v.shared[static_cast<size_t>(slot)].milli_free * 100 / gpu::kMilliGpu;
      }
    }
  } else {
    free_gpus_taken = request_.whole;
  }
  // Case 2, breaking free GPUs on a used node: fewer is better.
  if (free_gpus_taken > 0) {
    return std::max<int64_t>(kMaxNodeScore / 2 - free_gpus_taken, kMaxNodeScore / 3);
  }
  // Case 1, partly used GPUs only: the less left on them, the higher.
  return std::max<int64_t>(kMaxNodeScore - free_pct_on_taken / 10, kMaxNodeScore / 2);
}

}  // namespace berth::binding
