// PlacementPrinter: the text `berth explain placement/NAME` prints (how the Placement chose
// its clusters: per candidate the filter that excluded it or each prioritizer's score x
// weight, the selection, decision groups, PlacementDecisions, conditions, and the hub
// workloads dispatched through it), and the fleet section of `explain workload` (which
// clusters were candidates, which fit, which won and why). Pure functions of their inputs.
#pragma once

#include <ostream>

#include "engine/explain_placement.h"
#include "engine/plan.h"

namespace berth::cli {

void PrintPlacementExplanation(const engine::PlacementExplanation& explanation, std::ostream& out);

// The dispatch of hub workload `workload` (an index into plan.planned.kueue_workloads), or
// nothing when it was not dispatched through a fleet check.
void PrintDispatch(const engine::Plan& plan, int32_t workload, std::ostream& out);

}  // namespace berth::cli
