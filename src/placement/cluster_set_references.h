// References to ManagedClusterSets that are not in the snapshot: a Placement's
// spec.clusterSets entry and a ManagedClusterSetBinding's spec.clusterSet. OCM decides such a
// Placement all the same (the set is not bound, so PlacementSatisfied=False with
// NoIntersection or NoManagedClusterSetBindings, SchedulePlacement's outcome) and marks such a
// binding Bound=False; berth also reports each one as an error on the referring object, so a
// typo in a set's name never passes with exit 0. Called by engine's fleet cycle once per plan;
// pure function of the snapshot; thread-compatible.
#pragma once

#include "core/diagnostics.h"
#include "model/snapshot.h"

namespace berth::placement {

// The set the hub always has (OCM creates it with an empty selector), present in the
// snapshot or not.
inline constexpr const char* kGlobalClusterSet = "global";

// Reports to `diags`, in input order, an error per reference to a missing ManagedClusterSet:
// object Placement/NS/NAME, field spec.clusterSets[i]; or ManagedClusterSetBinding/NS/NAME,
// field spec.clusterSet. O(sets + references).
void ReportMissingClusterSets(const model::Snapshot& snapshot, core::Diagnostics& diags);

}  // namespace berth::placement
