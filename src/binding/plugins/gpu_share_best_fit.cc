#include "binding/plugins/gpu_share_best_fit.h"

#include <algorithm>
#include <array>

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/plugin_names.h"

namespace berth::binding {

std::string_view GpuShareBestFitScore::Name() const { return kGpuShareBestFit; }

int64_t GpuShareBestFitScore::Score(const CycleContext&, model::NodeIndex node) const {
  const gpu::GpuNodeView v = cycle_->View(node);
  const std::array<int64_t, 2> free = {v.cpu_free_milli, v.IdleMilli()};
  const std::array<int64_t, 2> request = {request_.cpu_milli, v.RequestMilli(request_)};
  const std::array<int64_t, 2> max_spec = {cycle_->max_cpu_milli(), cycle_->max_gpu_milli()};
  double left = 0;
  for (size_t i = 0; i < 2; ++i) {
    // A feasible node has room for the request; max(0, ...) only guards inconsistent input.
    const int64_t slack = std::max<int64_t>(0, free[i] - request[i]);
    left += static_cast<double>(slack) / static_cast<double>(max_spec[i]) * 0.5;
  }
  return ScoreOf(1.0 - left);
}

void GpuShareBestFitScore::NormalizeScore(const CycleContext&, std::span<const model::NodeIndex>,
                                          std::span<int64_t> scores) const {
  MinMaxNormalize(scores);
}

void MinMaxNormalize(std::span<int64_t> scores) {
  if (scores.empty()) return;
  const auto [lo, hi] = std::minmax_element(scores.begin(), scores.end());
  const int64_t lowest = *lo;
  const int64_t range = *hi - lowest;
  for (int64_t& s : scores) s = range == 0 ? 0 : (s - lowest) * kMaxNodeScore / range;
}

}  // namespace berth::binding
