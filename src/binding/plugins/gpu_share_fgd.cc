#include "binding/plugins/gpu_share_fgd.h"

#include <cmath>

#include "binding/framework/gpu_share_names.h"
#include "binding/framework/plugin_names.h"

namespace berth::binding {

int64_t FgdScoreOfDelta(double delta_milli) {
  const double sigmoid = 1.0 / (1.0 + std::exp(-delta_milli / 1000));
  return ScoreOf(sigmoid);
}

std::string_view GpuShareFgdScore::Name() const { return kGpuShareFgd; }

int64_t GpuShareFgdScore::Score(const CycleContext&, model::NodeIndex node) const {
  if (std::optional<int64_t> memo = cycle_->FgdMemo(node, request_)) return *memo;
  std::optional<std::vector<int32_t>> choice = cycle_->Choose(node, request_);
  // Only for a node GpuSharing let through with that filter disabled: nowhere to go.
  if (!choice.has_value()) return 0;
  const double before = cycle_->NodeFragmentMilli(node);
  const gpu::GpuNodeView after = gpu::Placed(cycle_->View(node), request_, *choice);
  const int64_t score = FgdScoreOfDelta(before - cycle_->fragmentation().FragmentMilli(after));
  cycle_->StoreFgdMemo(node, request_, score);
  return score;
}

}  // namespace berth::binding
