// SchedulePlacement: decides one OCM Placement over a Snapshot with upstream's semantics
// (ocm pkg/placement/controllers/scheduling; ../shared/reference/ocm.md §1): candidate
// clusters from the cluster sets bound to the namespace, filters Predicate then
// TaintToleration, prioritizers summed as weight × score, ties by name, numberOfClusters,
// decision groups, PlacementDecisions of at most 100 entries, and the Placement's status.
// Called by the engine once per Placement; pure and thread-compatible (reads only).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/time.h"
#include "model/decision.h"
#include "model/ocm.h"
#include "model/snapshot.h"
#include "placement/cluster_scorer.h"

namespace berth::placement {

// One prioritizer's contribution to a cluster, for explain.
struct ScoreTerm {
  std::string prioritizer;  // "Balance", "AddOn/usage/gpu", ...
  int64_t score = 0;
  int32_t weight = 0;
};

// Every candidate cluster's verdict: excluded (with the filter's rejection) or scored.
struct ClusterVerdict {
  std::string cluster_name;
  bool feasible = false;
  std::optional<model::Rejection> rejection;  // set when !feasible
  std::vector<ScoreTerm> scores;              // per active prioritizer with an entry
  int64_t total = 0;
  bool selected = false;
};

struct DecisionGroupStatus {
  int32_t index = 0;
  std::string name;
  std::vector<std::string> decisions;  // PlacementDecision names
  int32_t cluster_count = 0;
};

struct PlacementOutcome {
  // The placement carries the experimental-scheduling-disable annotation: nothing else set.
  bool skipped = false;
  std::vector<ClusterVerdict> clusters;             // candidates, by name
  std::vector<std::string> selected;                // by total desc, then name
  int32_t unscheduled = 0;                          // numberOfClusters − selected, when set
  std::vector<model::PlacementDecision> decisions;  // <name>-decision-<k>, k from 1
  std::vector<DecisionGroupStatus> groups;
  int32_t number_of_selected_clusters = 0;
  model::Condition satisfied;                 // PlacementSatisfied
  model::Condition misconfigured;             // PlacementMisconfigured
  std::optional<core::Timestamp> requeue_at;  // earliest toleration expiry
  std::vector<std::string> warnings;          // e.g. expired AddOnPlacementScores
};

struct ScheduleOptions {
  // BuiltIn prioritizers; nullptr: ScorerRegistry::Upstream().
  const ScorerRegistry* registry = nullptr;
};

// Decides `placement` (an element of snapshot.placements, or a copy) at time `now`.
// Misconfiguration and "nothing fits" are data in the outcome, never errors.
// O(C log C + C × (predicates + prioritizers)) for C candidate clusters.
PlacementOutcome SchedulePlacement(const model::Snapshot& snapshot,
                                   const model::Placement& placement, core::Timestamp now,
                                   const ScheduleOptions& options = {});

}  // namespace berth::placement
