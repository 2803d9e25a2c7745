// PlanItemsOf: what a plan prints (io::PlanItems), taken from engine::Plan in the plan
// contract's order: pods, claims, Workloads, Placements, PlacementDecisions, ManifestWorks,
// and the deletions tables list. Used by plan and demo; pure.
#pragma once

#include "engine/plan.h"
#include "io/writer.h"

namespace berth::cli {

// `plan` must outlive the result (it points at plan.pod_decisions).
io::PlanItems PlanItemsOf(const engine::Plan& plan);

}  // namespace berth::cli
