// SchedulePlacement: decides one OCM Placement over a Snapshot with upstream's semantics
// (ocm pkg/placement/controllers/scheduling; ../shared/reference/ocm.md §1): candidate
// clusters from the cluster sets bound to the namespace, filters Predicate then
// TaintToleration, prioritizers summed as weight × score, ties by name, numberOfClusters,
// decision groups, PlacementDecisions of at most 100 entries, and the Placement's status;
// plus berth's prioritizers (ScorerRegistry::Berth()) and spreadPolicy (spread_selector.h).
// Called by the engine once per Placement; pure and thread-compatible (reads only).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/time.h"
#include "model/decision.h"
#include "model/ocm.h"
#include "model/snapshot.h"
#include "placement/addon_score_index.h"
#include "placement/cluster_scorer.h"
#include "placement/fleet_capacity.h"

namespace berth::placement {

// A prioritizer that ran (weight ≠ 0), in the order they ran.
struct PrioritizerInfo {
  std::string name;  // "Balance", "AddOn/usage/gpu", ...
  int32_t weight = 0;
};

// One prioritizer's contribution to a cluster, for explain. The prioritizer is an index
// (not its name) so that scoring thousands of clusters copies no strings.
struct ScoreTerm {
  int32_t prioritizer = 0;  // index into PlacementOutcome::prioritizers
  int64_t score = 0;
  int32_t weight = 0;
  // The prioritizer's explain detail for this cluster (DataLocality: the estimated load
  // time), an index into PlacementOutcome::score_notes; −1: none. Read with NoteOf.
  int32_t note = -1;
};

// Every candidate cluster's verdict: excluded (with the filter's rejection) or scored.
// Verdicts refer to the outcome's tables by index (STYLE: values, no pointers), so that
// deciding over thousands of clusters copies no strings: read them through
// PlacementOutcome::RejectionOf, SpreadSkipOf and ScoresOf.
struct ClusterVerdict {
  std::string cluster_name;
  bool feasible = false;
  bool selected = false;
  // Set when !feasible: why the filters excluded it (plugin Predicate, naming each
  // predicate's failing part, TaintToleration, or DataResidency, berth's residency rule). Index
  // into PlacementOutcome::rejections.
  std::optional<int32_t> rejection;
  // Set for a feasible cluster that spreadPolicy left out: plugin SpreadPolicy, reason
  // TopologyKeyMissing (no value for a DoNotSchedule key), MaxSkewExceeded (picking it
  // would break a maxSkew) or SpreadScore (a cluster in a less used topology went first).
  // Index into PlacementOutcome::rejections.
  std::optional<int32_t> spread_skipped;
  int64_t total = 0;  // Σ weight × score over the prioritizers with an entry
  // Its ScoreTerms: PlacementOutcome::score_terms[first_score, first_score + score_count).
  uint32_t first_score = 0;
  uint32_t score_count = 0;
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
  std::vector<ClusterVerdict> clusters;       // candidates, by name
  std::vector<PrioritizerInfo> prioritizers;  // what ScoreTerm::prioritizer indexes
  // The distinct rejections the verdicts name, in first-use order; count = how many
  // clusters share one.
  std::vector<model::Rejection> rejections;
  std::vector<ScoreTerm> score_terms;               // every verdict's terms, cluster after cluster
  std::vector<std::string> score_notes;             // what ScoreTerm::note indexes
  std::vector<std::string> selected;                // by total desc, then name
  int32_t unscheduled = 0;                          // numberOfClusters − selected, when set
  std::vector<model::PlacementDecision> decisions;  // <name>-decision-<k>, k from 1
  std::vector<DecisionGroupStatus> groups;
  int32_t number_of_selected_clusters = 0;
  model::Condition satisfied;                 // PlacementSatisfied
  model::Condition misconfigured;             // PlacementMisconfigured
  std::optional<core::Timestamp> requeue_at;  // earliest toleration expiry
  std::vector<std::string> warnings;          // e.g. expired AddOnPlacementScores

  // The verdict's filter rejection, or nullptr. Valid while this outcome lives.
  const model::Rejection* RejectionOf(const ClusterVerdict& v) const {
    return v.rejection ? &rejections[static_cast<size_t>(*v.rejection)] : nullptr;
  }
  // Why spreadPolicy skipped the cluster, or nullptr.
  const model::Rejection* SpreadSkipOf(const ClusterVerdict& v) const {
    return v.spread_skipped ? &rejections[static_cast<size_t>(*v.spread_skipped)] : nullptr;
  }
  // The term's note ("load 126.3 s: ..."), or nullptr. Valid while this outcome lives.
  const std::string* NoteOf(const ScoreTerm& t) const {
    return t.note >= 0 ? &score_notes[static_cast<size_t>(t.note)] : nullptr;
  }
  // The verdict's score terms, in the order the prioritizers ran.
  std::span<const ScoreTerm> ScoresOf(const ClusterVerdict& v) const {
    return std::span<const ScoreTerm>(score_terms).subspan(v.first_score, v.score_count);
  }
};

struct ScheduleOptions {
  // BuiltIn prioritizers; nullptr: ScorerRegistry::Berth().
  const ScorerRegistry* registry = nullptr;
  // The fleet's measured capacity (ResourceAllocatableGPU, DataLocality); nullptr: none.
  const FleetCapacity* capacity = nullptr;
  // snapshot.addon_placement_scores, indexed once by the caller for many placements;
  // nullptr: SchedulePlacement indexes them itself (O(scores) per call).
  const AddOnScoreIndex* addon_scores = nullptr;
  // DataLocality's load times (the engine passes data's transfer model,
  // engine/data_load_time.h); nullptr: DataLocality scores the share of bytes cached.
  const LoadTimeModel* load_time = nullptr;
};

// Decides `placement` (an element of snapshot.placements, or a copy) at time `now`.
// Misconfiguration and "nothing fits" are data in the outcome, never errors.
// O(C log C + C × (predicates + prioritizers)) for C candidate clusters, plus the spread
// step when the placement has spread constraints (spread_selector.h). Per cluster it
// allocates only for a rejection and the explain data (verdict, score terms).
PlacementOutcome SchedulePlacement(const model::Snapshot& snapshot,
                                   const model::Placement& placement, core::Timestamp now,
                                   const ScheduleOptions& options = {});

}  // namespace berth::placement
