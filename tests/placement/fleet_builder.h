// Short builders for placement tests: a hub snapshot with managed clusters, sets, bindings
// and placements. Test-only; not thread-safe.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/quantity.h"
#include "model/ocm.h"
#include "model/snapshot.h"

namespace berth::placement::testing {

inline core::Timestamp T(int64_t unix_s) { return core::Timestamp{unix_s}; }

// "<prefix><i>". Appending (rather than "c" + std::to_string(i)) also keeps GCC 12's
// -Wstringop-overflow false positive at -O3 out of the tests.
inline std::string Numbered(std::string prefix, int64_t i) {
  prefix += std::to_string(i);
  return prefix;
}

// A cluster that is Available (so no built-in taint) with the given labels.
inline model::ManagedCluster Cluster(std::string name, core::Labels labels = {}) {
  model::ManagedCluster c;
  c.meta.name = std::move(name);
  c.meta.labels = std::move(labels);
  model::Condition available;
  available.type = model::kConditionClusterAvailable;
  available.status = model::ConditionStatus::kTrue;
  c.conditions.push_back(available);
  return c;
}

inline void SetResource(model::ManagedCluster* c, const std::string& name,
                        const std::string& allocatable, const std::string& capacity) {
  if (!allocatable.empty()) c->allocatable[name] = core::Quantity::Parse(allocatable).value();
  if (!capacity.empty()) c->capacity[name] = core::Quantity::Parse(capacity).value();
}

inline model::ManagedClusterSetBinding Binding(const std::string& ns, const std::string& set) {
  model::ManagedClusterSetBinding b;
  b.meta.name = set;
  b.meta.namespace_ = ns;
  b.cluster_set = set;
  return b;
}

inline model::ManagedClusterSet LabelSet(const std::string& name, core::Labels match) {
  model::ManagedClusterSet s;
  s.meta.name = name;
  s.selector_type = model::ClusterSetSelectorType::kLabelSelector;
  s.label_selector.match_labels = std::move(match);
  return s;
}

inline model::ManagedClusterSet ExclusiveSet(const std::string& name) {
  model::ManagedClusterSet s;
  s.meta.name = name;
  return s;
}

inline model::Placement MakePlacement(const std::string& name, const std::string& ns = "ns") {
  model::Placement p;
  p.meta.name = name;
  p.meta.namespace_ = ns;
  return p;
}

inline model::PlacementDecision Decision(const std::string& placement, const std::string& ns,
                                         std::vector<std::string> clusters,
                                         const std::string& name = "") {
  model::PlacementDecision pd;
  pd.meta.name = name.empty() ? placement + "-decision-1" : name;
  pd.meta.namespace_ = ns;
  pd.meta.labels[model::kPlacementLabel] = placement;
  for (std::string& c : clusters) pd.decisions.push_back({std::move(c), ""});
  return pd;
}

inline model::PrioritizerConfig BuiltIn(const std::string& name, int32_t weight) {
  model::PrioritizerConfig c;
  c.score_coordinate = model::ScoreCoordinate{model::ScoreCoordinateType::kBuiltIn, name, "", ""};
  c.weight = weight;
  return c;
}

inline model::PrioritizerConfig AddOn(const std::string& resource, const std::string& score,
                                      int32_t weight) {
  model::PrioritizerConfig c;
  c.score_coordinate =
      model::ScoreCoordinate{model::ScoreCoordinateType::kAddOn, "", resource, score};
  c.weight = weight;
  return c;
}

inline model::AddOnPlacementScore Score(const std::string& ns, const std::string& name,
                                        std::vector<model::AddOnScore> items,
                                        std::optional<core::Timestamp> valid_until = {}) {
  model::AddOnPlacementScore s;
  s.meta.name = name;
  s.meta.namespace_ = ns;
  s.scores = std::move(items);
  s.valid_until = valid_until;
  return s;
}

inline model::ClusterSelector CelPredicate(std::vector<std::string> expressions) {
  model::ClusterSelector s;
  s.cel_expressions = std::move(expressions);
  return s;
}

// A hub where namespace "ns" is bound to the global set, holding `clusters`.
inline model::Snapshot GlobalHub(std::vector<model::ManagedCluster> clusters) {
  model::Snapshot snap;
  snap.managed_clusters = std::move(clusters);
  snap.managed_cluster_set_bindings.push_back(Binding("ns", "global"));
  return snap;
}

}  // namespace berth::placement::testing
