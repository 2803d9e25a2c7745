#include "engine/placement_stage.h"

#include <map>
#include <string>
#include <utility>

#include "engine/data_load_time.h"
#include "placement/addon_score_index.h"

namespace berth::engine {
namespace {

model::PlacementStatus StatusOf(const placement::PlacementOutcome& outcome) {
  model::PlacementStatus status;
  status.number_of_selected_clusters = outcome.number_of_selected_clusters;
  for (const placement::DecisionGroupStatus& g : outcome.groups) {
    status.decision_groups.push_back({g.index, g.name, g.decisions, g.cluster_count});
  }
  status.conditions = {outcome.satisfied, outcome.misconfigured};
  return status;
}

std::string Key(const std::string& ns, const std::string& name) { return ns + "/" + name; }

}  // namespace

std::vector<PlacementRun> RunPlacements(const model::Snapshot& snapshot, core::Timestamp now,
                                        const placement::FleetCapacity& capacity) {
  std::vector<PlacementRun> runs;
  // One index of the AddOnPlacementScores for every Placement of the cycle.
  const placement::AddOnScoreIndex scores(snapshot.addon_placement_scores);
  placement::ScheduleOptions options;
  options.capacity = &capacity;
  options.addon_scores = &scores;
  // DataLocality ranks by the data module's load-time estimates.
  const DataLoadTimeModel load_time;
  options.load_time = &load_time;
  for (size_t i = 0; i < snapshot.placements.size(); ++i) {
    runs.push_back({static_cast<int32_t>(i),
                    placement::SchedulePlacement(snapshot, snapshot.placements[i], now, options)});
  }
  return runs;
}

PlacementWrites WritePlacements(const std::vector<PlacementRun>& runs, model::Snapshot& planned) {
  PlacementWrites out;
  std::map<std::string, int32_t> given;  // namespace/name -> index of a given decision
  for (size_t i = 0; i < planned.placement_decisions.size(); ++i) {
    const model::PlacementDecision& pd = planned.placement_decisions[i];
    given.emplace(Key(pd.meta.namespace_, pd.meta.name), static_cast<int32_t>(i));
  }
  std::vector<model::PlacementDecision> created;
  std::vector<bool> kept(planned.placement_decisions.size(), false);
  for (const PlacementRun& run : runs) {
    if (run.outcome.skipped) continue;
    model::Placement& placement = planned.placements[static_cast<size_t>(run.placement)];
    placement.status = StatusOf(run.outcome);
    out.placements.push_back(run.placement);
    for (model::PlacementDecision pd : run.outcome.decisions) {
      pd.placement = placement.meta.name;
      auto it = given.find(Key(pd.meta.namespace_, pd.meta.name));
      if (it != given.end()) {
        model::PlacementDecision& existing =
            planned.placement_decisions[static_cast<size_t>(it->second)];
        for (const auto& [key, value] : pd.meta.labels) existing.meta.labels[key] = value;
        existing.decisions = std::move(pd.decisions);
        existing.placement = pd.placement;
        kept[static_cast<size_t>(it->second)] = true;
        out.decisions.push_back(it->second);
        continue;
      }
      pd.created = true;
      pd.cluster = placement.cluster;
      created.push_back(std::move(pd));
    }
    // The placement's given decisions it no longer needs: the controller deletes them.
    for (size_t i = 0; i < kept.size(); ++i) {
      const model::PlacementDecision& pd = planned.placement_decisions[i];
      auto owner = pd.meta.labels.find(model::kPlacementLabel);
      if (kept[i] || pd.meta.namespace_ != placement.meta.namespace_ ||
          owner == pd.meta.labels.end() || owner->second != placement.meta.name) {
        continue;
      }
      out.deleted.push_back({"cluster.open-cluster-management.io/v1beta1", "PlacementDecision",
                             pd.meta.namespace_, pd.meta.name,
                             "Placement " + placement.meta.name + " needs " +
                                 std::to_string(run.outcome.decisions.size()) +
                                 " PlacementDecision(s)"});
    }
  }
  for (model::PlacementDecision& pd : created) {
    out.decisions.push_back(static_cast<int32_t>(planned.placement_decisions.size()));
    planned.placement_decisions.push_back(std::move(pd));
  }
  return out;
}

}  // namespace berth::engine
