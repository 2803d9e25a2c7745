#include "binding/plugins/gpu_share_dot_prod.h"

#include <algorithm>

#include "binding/framework/gpu_share_names.h"

namespace berth::binding {

std::string_view GpuShareDotProdScore::Name() const { return kGpuShareDotProd; }

int64_t GpuShareDotProdScore::Score(const CycleContext&, model::NodeIndex node) const {
  const gpu::GpuNodeView v = cycle_->View(node);
  const auto max_cpu = static_cast<double>(cycle_->max_cpu_milli());
  const auto max_gpu = static_cast<double>(cycle_->max_gpu_milli());
  // Each component is at most 1 (nothing exceeds the largest node), so 0 <= dot <= 2.
  const double node_cpu =
      static_cast<double>(std::min(v.cpu_free_milli, cycle_->max_cpu_milli())) / max_cpu;
  const double node_gpu = static_cast<double>(v.IdleMilli()) / max_gpu;
  const double pod_cpu =
      static_cast<double>(std::min(request_.cpu_milli, cycle_->max_cpu_milli())) / max_cpu;
  const double pod_gpu = static_cast<double>(v.RequestMilli(request_)) / max_gpu;
  double dot = 0;
  dot += node_cpu * pod_cpu;
  dot += node_gpu * pod_gpu;
  return ScoreOf(1 - dot / 2);
}

}  // namespace berth::binding
