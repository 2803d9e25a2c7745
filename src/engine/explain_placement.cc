#include "engine/explain_placement.h"

#include <utility>
#include <vector>

#include "core/check.h"
#include "engine/find_by_name.h"

namespace berth::engine {

core::Result<int32_t> FindPlacement(const model::Snapshot& snapshot, const std::string& name) {
  return FindByName(snapshot.placements, name, "placement");
}

core::Result<PlacementExplanation> ExplainPlacement(model::Snapshot&& snapshot,
                                                    const std::string& name,
                                                    const PlanOptions& options) {
  BERTH_ASSIGN_OR_RETURN(int32_t index, FindPlacement(snapshot, name));
  PlacementExplanation out;
  out.placement = index;
  out.plan = RunPlan(std::move(snapshot), options);
  for (size_t i = 0; i < out.plan.placements.size(); ++i) {
    if (out.plan.placements[i].placement == index) out.run = static_cast<int32_t>(i);
  }
  // Every Placement is decided (RunFleet runs whenever there is one).
  BERTH_CHECK(out.run >= 0, "a Placement the plan did not decide");
  return out;
}

}  // namespace berth::engine
