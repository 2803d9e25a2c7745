// Decision groups and PlacementDecision objects (ocm scheduling_controller.go): groups the
// selected clusters by decisionGroups[] then the rest, chunks each group by
// clustersPerDecisionGroup, and splits every group into PlacementDecisions of at most 100
// clusters. Used by SchedulePlacement; pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "model/ocm.h"

namespace berth::placement {

inline constexpr size_t kMaxDecisionsPerPlacementDecision = 100;

// The group length for `selected` clusters: an int as is, "P%" (P a decimal number) as
// ceil(P/100 × selected); ≤ 0 or > selected becomes selected. A string that is not a
// percent: InvalidArgument with upstream's message ("<text> invalid type: string is not a
// percentage").
core::Result<int32_t> GroupLength(const model::IntOrPercent& clusters_per_group, int32_t selected);

struct ClusterGroup {
  std::string name;
  std::vector<std::string> clusters;  // by name
};

// The groups in creation order (their index is their position); at least one.
std::vector<ClusterGroup> GroupClusters(const model::Placement& placement,
                                        const std::vector<const model::ManagedCluster*>& selected,
                                        int32_t group_length);

}  // namespace berth::placement
