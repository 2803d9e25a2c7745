// ExplainPlacement: how an OCM Placement chose its clusters: the plan is run (member
// clusters first, so capacity scores see their state) and the placement's outcome returned:
// per candidate cluster the predicate or taint that excluded it, or each prioritizer's score
// and weight, and which were selected, plus the hub workloads dispatched through it. For
// `berth explain placement/NAME`. Takes the input over (the plan is written into it, as
// RunPlan(Snapshot&&)); thread-compatible.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "engine/plan.h"

namespace berth::engine {

struct PlacementExplanation {
  int32_t placement = -1;  // index into plan.planned.placements (= the input's)
  int32_t run = -1;        // index into plan.placements
  Plan plan;
};

// Finds a Placement by "namespace/name" or "name" (unique). NotFound / InvalidArgument
// (ambiguous, listing the candidates) as FindPod.
core::Result<int32_t> FindPlacement(const model::Snapshot& snapshot, const std::string& name);

// Finds the Placement in `snapshot`, then plans it with RunPlan(Snapshot&&): the explanation
// holds the one planned snapshot. Errors: those of FindPlacement.
core::Result<PlacementExplanation> ExplainPlacement(model::Snapshot&& snapshot,
                                                    const std::string& name,
                                                    const PlanOptions& options);

}  // namespace berth::engine
