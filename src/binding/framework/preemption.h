// DefaultPreemption's decision rules (upstream pkg/scheduler/framework/plugins/
// defaultpreemption and pkg/scheduler/framework/preemption), as pure functions over pods:
// which pods a PodDisruptionBudget protects, which victims a node keeps (SelectVictimsOnNode's
// reprieve order), and which candidate node wins (pickOneNodeForPreemption). The Scheduler
// runs them over its cluster state (scheduler.cc); tests run upstream's tables on them.
// Values only; thread-compatible.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/selector.h"
#include "core/time.h"
#include "model/pod.h"
#include "model/snapshot.h"

namespace berth::binding {

// Upstream's status texts, byte for byte.
inline constexpr std::string_view kDefaultPreemption = "DefaultPreemption";
inline constexpr std::string_view kReasonNoVictims = "No preemption victims found for incoming pod";
inline constexpr std::string_view kReasonPreemptionNotHelpful =
    "Preemption is not helpful for scheduling";
inline constexpr std::string_view kPreemptionNever = "not eligible due to preemptionPolicy=Never.";
// The DisruptionTarget condition's reason on a victim; its message is
// "<schedulerName>: preempting to accommodate a higher priority pod".
inline constexpr std::string_view kReasonPreemptionByScheduler = "PreemptionByScheduler";
std::string DisruptionTargetMessage(std::string_view scheduler_name);

// One PodDisruptionBudget as preemption reads it: disruptions it still allows
// (status.disruptionsAllowed, or computed by ComputeDisruptionsAllowed when absent).
struct PdbBudget {
  std::string namespace_;
  const core::LabelSelector* selector = nullptr;  // null or empty: matches no pod (upstream)
  int32_t allowed = 0;
  const std::vector<std::string>* disrupted_pods = nullptr;  // status.disruptedPods, or null
};

// What the disruption controller would write as status.disruptionsAllowed: healthy pods
// (bound, not terminal, not being deleted, among `pods` matching the selector in the PDB's
// namespace) minus the desired healthy count (minAvailable, or the matching count minus
// maxUnavailable; percentages of the matching count rounded up), never below 0. A PDB with
// neither field allows every healthy pod to go. O(pods).
int32_t ComputeDisruptionsAllowed(const model::PodDisruptionBudget& pdb,
                                  const std::vector<model::Pod>& pods);

// The cluster's budgets (`cluster`'s PDBs; status.disruptionsAllowed when read, else
// computed). Borrows the snapshot's selectors.
std::vector<PdbBudget> ResolvePdbBudgets(const model::Snapshot& snapshot, std::string_view cluster);

// upstream util.MoreImportantPod: higher priority first, then the earlier start time (a pod
// without status.startTime counts as started last); ties keep the given order.
bool MoreImportantPod(const model::Pod& a, const model::Pod& b);

// filterPodsWithPDBViolation: splits `pods` (kept in order) by whether preempting them in
// this order would take a matching budget below zero. Each pod that matches a budget, and is
// not in its disruptedPods, uses one disruption of it. Returns the positions of violating
// and non-violating pods.
struct PdbSplit {
  std::vector<size_t> violating;
  std::vector<size_t> non_violating;
};
// `matches`, when given, lists for each pod the budgets (positions in `budgets`, ascending)
// whose namespace and selector match it, computed once by the caller; otherwise they are
// matched here.
PdbSplit SplitByPdbViolation(const std::vector<const model::Pod*>& pods,
                             const std::vector<PdbBudget>& budgets,
                             const std::vector<const std::vector<int32_t>*>* matches = nullptr);

// The budgets (positions in `budgets`) whose namespace and selector match `pod`.
std::vector<int32_t> MatchingBudgets(const model::Pod& pod, const std::vector<PdbBudget>& budgets);

// SelectVictimsOnNode's reprieve: `pods` are the node's potential victims in decreasing
// importance; `fits(kept)` says whether the preemptor fits with only the pods whose
// kept[i] is true left of them. First every potential victim is removed: if the pod still
// does not fit, nullopt. Then the PDB-violating pods, then the others, each most important
// first, are put back one by one and kept when the pod still fits. Victims come out in
// decreasing importance, with how many of them violate a budget.
struct NodeVictims {
  std::vector<size_t> victims;  // positions in `pods`
  int32_t pdb_violations = 0;
};
std::optional<NodeVictims> SelectVictims(
    const std::vector<const model::Pod*>& pods, const std::vector<PdbBudget>& budgets,
    const std::function<bool(const std::vector<bool>&)>& fits,
    const std::vector<const std::vector<int32_t>*>* matches = nullptr);

// One node where preemption lets the pod fit, with its victims (decreasing importance).
struct PreemptionCandidate {
  std::string node_name;
  std::vector<const model::Pod*> victims;
  int32_t pdb_violations = 0;
};

// pickOneNodeForPreemption: the position of the winner among `candidates` (non-empty):
// fewest PDB violations, then the lowest highest-victim priority, the smallest sum of
// victim priorities (each shifted by 2^31 so negative priorities add up sensibly), the
// fewest victims, the latest start time among the highest-priority victims' earliest, then
// the first. `criterion`, when given, gets the name of the rule that settled it
// ("fewest PDB violations", ..., "first candidate").
size_t PickOneNodeForPreemption(const std::vector<PreemptionCandidate>& candidates,
                                std::string* criterion = nullptr);

// calculateNumCandidates with upstream's defaults (minCandidateNodesPercentage 10,
// minCandidateNodesAbsolute 100): how many candidates the dry run gathers before it stops.
int32_t NumPreemptionCandidates(int32_t potential_nodes);

}  // namespace berth::binding
