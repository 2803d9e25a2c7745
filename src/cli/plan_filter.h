// FilterPlanItems: what `berth plan -n/-A/-l` prints: the plan's items (io::PlanItems) whose
// namespace and labels pass an ObjectFilter. Only the printing is narrowed: the plan itself
// was made over every object. Used by plan; pure.
#pragma once

#include <vector>

#include "cli/object_filter.h"
#include "io/writer.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::cli {

// `items` (as PlanItemsOf gives them) narrowed to the objects `filter` matches, each list in
// its order: pods, deleted pods, claims, Workloads (with their cycles), Placements,
// PlacementDecisions, ManifestWorks, ManifestWorkReplicaSets, ControllerRevisions,
// FederatedLearnings and deleted objects (their labels read from `planned` when it still holds
// them, else none). The kept pod decisions are copied into *pods, which the result points at
// and which must outlive it.
io::PlanItems FilterPlanItems(const model::Snapshot& planned, const io::PlanItems& items,
                              const ObjectFilter& filter, std::vector<model::PodDecision>* pods);

}  // namespace berth::cli
