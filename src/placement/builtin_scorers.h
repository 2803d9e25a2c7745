// upstream's prioritizers (ocm pkg/placement/plugins/{balance,steady,resource,addon}) as
// ClusterScorers; formulas in ../shared/reference/ocm.md §1.4 and docs/placement.md.
// Used through ScorerRegistry::Upstream() and, for AddOn, by SchedulePlacement directly.
#pragma once

#include <memory>
#include <string>

#include "placement/cluster_scorer.h"

namespace berth::placement {

// 100 for a cluster no other placement's decision names; else
// 2 × trunc(100 × (0.5 − count/maxCount)), counting decisions in every namespace except
// this placement's own PlacementDecisions.
std::unique_ptr<ClusterScorer> MakeBalanceScorer();
// 100 for a cluster this placement already selected, else 0.
std::unique_ptr<ClusterScorer> MakeSteadyScorer();
// trunc(((alloc − min)/(max − min) − 0.5) × 200) over the clusters that report both
// allocatable and capacity of `resource` ("cpu", "memory"); 100 each when max == min;
// no entry for the others. `name` is the prioritizer's name.
std::unique_ptr<ClusterScorer> MakeResourceAllocatableScorer(std::string name,
                                                             std::string resource);
// The value of score `score_name` in the AddOnPlacementScore `resource_name` in the
// cluster's namespace; 0 when missing or expired (one warning lists the expired objects:
// "AddOnPlacementScores c1/usage c2/usage expired").
std::unique_ptr<ClusterScorer> MakeAddOnScorer(std::string resource_name, std::string score_name);

}  // namespace berth::placement
