// SelectWithSpread: berth's selection step for Placement spec.spreadPolicy, which OCM
// designed (enhancement 70, a "Selector" plugin after the prioritizers) but never
// implemented. SchedulePlacement calls it instead of "take the first numberOfClusters"
// when the placement has spread constraints. Semantics: docs/placement.md, "Spread".
// Pure function; thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/decision.h"
#include "model/ocm.h"

namespace berth::placement {

inline constexpr const char* kSpreadPolicyPlugin = "SpreadPolicy";
// The weight of the spread score against the prioritizers' total (the enhancement's
// default for its Spread score coordinate).
inline constexpr int64_t kSpreadWeight = 2;

struct SpreadResult {
  std::vector<size_t> selected;  // indexes into the candidates, in pick order
  // Parallel to the candidates: why spreading left an unselected cluster out (plugin
  // SpreadPolicy; reasons TopologyKeyMissing, MaxSkewExceeded, SpreadScore), else nullopt.
  std::vector<std::optional<model::Rejection>> skipped;
};

// Picks up to `want` of `clusters` one at a time. `totals` are the prioritizer totals,
// parallel to `clusters`, and both are in the order without spread (total descending,
// then name). Each constraint's topologies are the distinct values of its key among
// `clusters`. A step (1) leaves out every cluster whose pick would make some
// DoNotSchedule constraint's skew (selected in its topology − fewest selected in any
// topology of that key) exceed maxSkew, and those lacking a DoNotSchedule key altogether;
// (2) scores each remaining cluster's spread in [-100, 100], favouring topologies with
// fewer selected clusters, constraints compared in list order; (3) picks the highest
// total + kSpreadWeight × spread, ties by name. It stops early when every cluster left is
// blocked. O(want × (G × K + T)) for G distinct topology tuples, K constraints and T
// topologies.
SpreadResult SelectWithSpread(const std::vector<model::SpreadConstraint>& constraints,
                              const std::vector<const model::ManagedCluster*>& clusters,
                              const std::vector<int64_t>& totals, size_t want);

}  // namespace berth::placement
