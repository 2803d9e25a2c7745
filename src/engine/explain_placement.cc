#include "engine/explain_placement.h"

#include <utility>
#include <vector>

#include "core/check.h"

namespace berth::engine {

core::Result<int32_t> FindPlacement(const model::Snapshot& snapshot, const std::string& name) {
  const bool qualified = name.find('/') != std::string::npos;
  std::vector<int32_t> matches;
  for (size_t i = 0; i < snapshot.placements.size(); ++i) {
    const model::Placement& p = snapshot.placements[i];
    const std::string key = p.meta.NamespacedName();
    if (qualified ? key == name : p.meta.name == name) matches.push_back(static_cast<int32_t>(i));
  }
  if (matches.empty()) return core::NotFound("placement \"" + name + "\" not found in the input");
  if (matches.size() > 1) {
    std::string candidates;
    for (int32_t i : matches) {
      const model::Placement& p = snapshot.placements[static_cast<size_t>(i)];
      if (!candidates.empty()) candidates += ", ";
      candidates += p.meta.namespace_ + "/" + p.meta.name;
    }
    return core::InvalidArgument("placement name \"" + name + "\" is ambiguous: " + candidates +
                                 "; name it as namespace/name");
  }
  return matches.front();
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
