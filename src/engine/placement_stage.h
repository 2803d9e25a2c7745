// PlacementStage: decides every OCM Placement of the hub (placement::SchedulePlacement) with
// the fleet's measured capacity, and writes the result where OCM's placement controller
// writes it: Placement status, PlacementDecisions (given ones updated, new ones created,
// ones no longer needed deleted). Internal to engine; pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "core/time.h"
#include "model/decision.h"
#include "model/snapshot.h"
#include "placement/fleet_capacity.h"
#include "placement/placement_scheduler.h"

namespace berth::engine {

struct PlacementRun {
  int32_t placement = -1;  // index into snapshot.placements
  placement::PlacementOutcome outcome;
};

// Every Placement, in snapshot order. O(placements x SchedulePlacement).
std::vector<PlacementRun> RunPlacements(const model::Snapshot& snapshot, core::Timestamp now,
                                        const placement::FleetCapacity& capacity);

// What WritePlacements changed, for the writer: indices into planned.placements and
// planned.placement_decisions (given ones updated, then created ones), and the given
// PlacementDecisions of a decided Placement that its new decisions no longer name.
struct PlacementWrites {
  std::vector<int32_t> placements;
  std::vector<int32_t> decisions;
  std::vector<model::ObjectDeletion> deleted;
};

PlacementWrites WritePlacements(const std::vector<PlacementRun>& runs, model::Snapshot& planned);

}  // namespace berth::engine
