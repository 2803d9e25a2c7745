#include "binding/plugins/balanced_allocation.h"

#include "binding/framework/plugin_names.h"

namespace berth::binding {

std::string_view BalancedAllocationScore::Name() const { return kNodeResourcesBalancedAllocation; }

bool BalancedAllocationScore::PreScore(const CycleContext& ctx, std::span<const model::NodeIndex>) {
  return !scorer_.BalancedSkipped(ctx.info.resources);
}

int64_t BalancedAllocationScore::Score(const CycleContext& ctx, model::NodeIndex node) const {
  return scorer_.BalancedScore(ctx.state.load(node), ctx.info.resources);
}

}  // namespace berth::binding
