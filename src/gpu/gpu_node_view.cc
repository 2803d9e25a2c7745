#include "gpu/gpu_node_view.h"

#include <algorithm>

namespace berth::gpu {

int64_t GpuNodeView::IdleMilli() const {
  int64_t idle = free_whole * kMilliGpu;
  for (const SharedGpuFree& g : shared) idle += g.milli_free;
  return idle;
}

bool GpuNodeView::Fits(const SharedGpuFree& gpu, const GpuPortion& portion) const {
  if (gpu.milli_free < portion.milli) return false;
  return gpu_memory_mib <= 0 || gpu.memory_free_mib >= portion.memory_mib;
}

int64_t GpuNodeView::RequestMilli(const GpuRequest& request) const {
  if (!request.fraction.has_value()) return request.whole * kMilliGpu;
  std::optional<GpuPortion> portion = request.fraction->On(gpu_memory_mib);
  if (!portion.has_value()) return 0;
  return portion->milli * request.fraction->num_devices;
}

GpuNodeView Placed(const GpuNodeView& view, const GpuRequest& request,
                   std::span<const int32_t> choice) {
  GpuNodeView after = view;
  after.cpu_free_milli = std::max<int64_t>(0, after.cpu_free_milli - request.cpu_milli);
  if (!request.fraction.has_value()) {
    after.free_whole = std::max<int64_t>(0, after.free_whole - request.whole);
    return after;
  }
  std::optional<GpuPortion> portion = request.fraction->On(view.gpu_memory_mib);
  // The ledger chose a placement only for a portion that exists on this node.
  if (!portion.has_value()) return after;
  for (int32_t slot : choice) {
    if (slot < 0) {
      // A free whole GPU newly reserved for sharing (KAI's reservation pod).
      after.free_whole = std::max<int64_t>(0, after.free_whole - 1);
      after.shared.push_back(
          SharedGpuFree{kMilliGpu - portion->milli, view.gpu_memory_mib - portion->memory_mib});
    } else {
      SharedGpuFree& g = after.shared[static_cast<size_t>(slot)];
      g.milli_free -= portion->milli;
      g.memory_free_mib -= portion->memory_mib;
    }
  }
  return after;
}

}  // namespace berth::gpu
