// The pipeline mirrors upstream's pluginScheduler.Schedule and the controller around it, so
// that every observable result (which clusters, PlacementDecision names and contents,
// condition reasons and messages) matches. Where upstream leaves something out of its
// result (scores per prioritizer, why a cluster was filtered), berth keeps it for explain.
#include "placement/placement_scheduler.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "placement/builtin_scorers.h"
#include "placement/cluster_filter.h"
#include "placement/decision_groups.h"

namespace berth::placement {

namespace {

// The set the hub always creates (an empty label selector: every cluster).
constexpr const char* kGlobalSet = "global";

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

bool InSet(const model::ManagedClusterSet* set, const std::string& set_name,
           const model::ManagedCluster& cluster) {
  if (set == nullptr) return true;  // the synthesized global set
  if (set->selector_type == model::ClusterSetSelectorType::kLabelSelector) {
    return set->label_selector.Matches(cluster.meta.labels);
  }
  auto it = cluster.meta.labels.find(model::kClusterSetLabel);
  return it != cluster.meta.labels.end() && it->second == set_name;
}

struct ActivePrioritizer {
  std::string key;  // BuiltIn name or AddOn/<resource>/<score>
  model::ScoreCoordinate coordinate;
  int32_t weight = 0;
};

// Upstream's weight table (getWeights, getPrioritizers): Additive starts from Balance=1 and
// Steady=1 and lets configurations override or add; Exact takes only the configurations.
// Upstream keys weights by the whole ScoreCoordinate, whose addOn is a pointer, so two AddOn
// configurations never override each other while BuiltIn ones do. A prioritizer with
// weight 0 is never built, so an unknown name with weight 0 is not an error. These
// statuses carry no plugin name, hence messages such as ":incorrect builtin prioritizer: X".
std::vector<ActivePrioritizer> Weights(const model::PrioritizerPolicy& policy,
                                       const ScorerRegistry& registry,
                                       std::optional<Misconfiguration>* misconfigured) {
  std::vector<ActivePrioritizer> out;
  if (policy.mode == model::PrioritizerMode::kOther) {
    *misconfigured = Misconfiguration{"", "incorrect prioritizer policy mode: " + policy.mode_text};
    return {};
  }
  if (policy.mode == model::PrioritizerMode::kAdditive) {
    out.push_back({"Balance", {model::ScoreCoordinateType::kBuiltIn, "Balance", "", ""}, 1});
    out.push_back({"Steady", {model::ScoreCoordinateType::kBuiltIn, "Steady", "", ""}, 1});
  }
  for (const model::PrioritizerConfig& config : policy.configurations) {
    if (!config.score_coordinate.has_value()) {
      *misconfigured = Misconfiguration{"", "scoreCoordinate field is required"};
      return {};
    }
    const model::ScoreCoordinate& c = *config.score_coordinate;
    if (c.type == model::ScoreCoordinateType::kAddOn) {
      out.push_back(
          {"AddOn/" + c.addon_resource_name + "/" + c.addon_score_name, c, config.weight});
      continue;
    }
    auto same = std::find_if(out.begin(), out.end(), [&c](const ActivePrioritizer& p) {
      return p.coordinate.type == model::ScoreCoordinateType::kBuiltIn &&
             p.coordinate.built_in == c.built_in;
    });
    if (same != out.end()) {
      same->weight = config.weight;
    } else {
      out.push_back({c.built_in, c, config.weight});
    }
  }
  for (const ActivePrioritizer& p : out) {
    if (p.weight == 0) continue;
    if (p.coordinate.type == model::ScoreCoordinateType::kBuiltIn &&
        !registry.Contains(p.coordinate.built_in)) {
      *misconfigured =
          Misconfiguration{"", "incorrect builtin prioritizer: " + p.coordinate.built_in};
      return {};
    }
    // The CRD cannot tell a missing addOn from an empty one; both fields empty is taken as
    // missing.
    if (p.coordinate.type == model::ScoreCoordinateType::kAddOn &&
        p.coordinate.addon_resource_name.empty() && p.coordinate.addon_score_name.empty()) {
      *misconfigured = Misconfiguration{"", "addOn should not be empty"};
      return {};
    }
  }
  return out;
}

model::Condition MakeCondition(const char* type, bool status, std::string reason,
                               std::string message) {
  model::Condition c;
  c.type = type;
  c.status = status ? model::ConditionStatus::kTrue : model::ConditionStatus::kFalse;
  c.reason = std::move(reason);
  c.message = std::move(message);
  return c;
}

}  // namespace

PlacementOutcome SchedulePlacement(const model::Snapshot& snapshot,
                                   const model::Placement& placement, core::Timestamp now,
                                   const ScheduleOptions& options) {
  PlacementOutcome out;
  auto disabled = placement.meta.annotations.find(model::kSchedulingDisableAnnotation);
  if (disabled != placement.meta.annotations.end() && disabled->second == "true") {
    out.skipped = true;
    return out;
  }
  const ScorerRegistry upstream = options.registry ? ScorerRegistry() : ScorerRegistry::Upstream();
  const ScorerRegistry& registry = options.registry ? *options.registry : upstream;
  const std::string& ns = placement.meta.namespace_;

  // This placement's current decisions (NoSelectIfNew, Steady, requeue).
  std::vector<std::string> existing;
  for (const model::PlacementDecision& pd : snapshot.placement_decisions) {
    auto it = pd.meta.labels.find(model::kPlacementLabel);
    if (pd.meta.namespace_ != ns || it == pd.meta.labels.end() ||
        it->second != placement.meta.name) {
      continue;
    }
    for (const model::ClusterDecision& d : pd.decisions) existing.push_back(d.cluster_name);
  }
  std::sort(existing.begin(), existing.end());
  existing.erase(std::unique(existing.begin(), existing.end()), existing.end());

  // 1. Candidates: valid bindings in the namespace, ∩ spec.clusterSets, their members.
  std::map<std::string, const model::ManagedClusterSet*> sets;
  for (const model::ManagedClusterSet& s : snapshot.managed_cluster_sets) sets[s.meta.name] = &s;
  if (!sets.contains(kGlobalSet)) sets[kGlobalSet] = nullptr;
  std::set<std::string> bound;
  for (const model::ManagedClusterSetBinding& b : snapshot.managed_cluster_set_bindings) {
    if (b.meta.namespace_ == ns && sets.contains(b.cluster_set)) bound.insert(b.cluster_set);
  }
  std::vector<std::string> eligible;
  for (const std::string& s : bound) {
    bool wanted = placement.cluster_sets.empty() ||
                  std::find(placement.cluster_sets.begin(), placement.cluster_sets.end(), s) !=
                      placement.cluster_sets.end();
    if (wanted) eligible.push_back(s);
  }
  std::vector<const model::ManagedCluster*> candidates;
  for (const model::ManagedCluster& c : snapshot.managed_clusters) {
    if (c.deletion_timestamp.has_value()) continue;
    for (const std::string& s : eligible) {
      if (InSet(sets[s], s, c)) {
        candidates.push_back(&c);
        break;
      }
    }
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const auto* a, const auto* b) { return a->meta.name < b->meta.name; });
  candidates.erase(
      std::unique(candidates.begin(), candidates.end(),
                  [](const auto* a, const auto* b) { return a->meta.name == b->meta.name; }),
      candidates.end());

  // 2. Filters, then 3-4. weights and prioritizers. A misconfiguration stops with nothing.
  std::optional<Misconfiguration> misconfigured;
  ClusterFilter filter = ClusterFilter::Compile(placement);
  // Predicate runs only on a non-empty list, TaintToleration only on what Predicate kept.
  std::vector<const model::ManagedCluster*> passed;
  if (!candidates.empty()) misconfigured = filter.predicate_misconfiguration();
  if (!misconfigured) {
    out.clusters.reserve(candidates.size());
    for (const model::ManagedCluster* c : candidates) {
      ClusterVerdict& verdict = out.clusters.emplace_back();
      verdict.cluster_name = c->meta.name;
      verdict.rejection = filter.CheckPredicates(*c);
      if (!verdict.rejection) passed.push_back(c);
    }
    if (!passed.empty()) misconfigured = filter.toleration_misconfiguration();
  }
  std::vector<ActivePrioritizer> weights;
  if (!misconfigured) weights = Weights(placement.prioritizer_policy, registry, &misconfigured);
  if (misconfigured) out.clusters.clear();

  std::vector<const model::ManagedCluster*> feasible;
  std::vector<size_t> feasible_verdict;  // index into out.clusters
  if (!misconfigured) {
    size_t next = 0;
    for (const model::ManagedCluster* c : passed) {
      while (out.clusters[next].cluster_name != c->meta.name) ++next;
      ClusterVerdict& verdict = out.clusters[next];
      bool before = std::binary_search(existing.begin(), existing.end(), c->meta.name);
      FilterVerdict v = filter.CheckTaints(*c, before, now);
      verdict.feasible = v.feasible;
      verdict.rejection = std::move(v.rejection);
      if (v.feasible) {
        feasible.push_back(c);
        feasible_verdict.push_back(next);
        if (before && v.toleration_expires &&
            (!out.requeue_at || *v.toleration_expires < *out.requeue_at)) {
          out.requeue_at = v.toleration_expires;
        }
      }
    }
    ScoreContext context{snapshot, placement, now, existing};
    for (const ActivePrioritizer& p : weights) {
      if (p.weight == 0) continue;
      std::unique_ptr<ClusterScorer> scorer =
          p.coordinate.type == model::ScoreCoordinateType::kAddOn
              ? MakeAddOnScorer(p.coordinate.addon_resource_name, p.coordinate.addon_score_name)
              : registry.Make(p.key);
      ScoreOutput scored = scorer->Score(context, feasible);
      for (size_t i = 0; i < feasible.size(); ++i) {
        if (!scored.scores[i].has_value()) continue;
        ClusterVerdict& verdict = out.clusters[feasible_verdict[i]];
        verdict.scores.push_back({scorer->Name(), *scored.scores[i], p.weight});
        verdict.total += static_cast<int64_t>(p.weight) * *scored.scores[i];
      }
      for (std::string& w : scored.warnings) out.warnings.push_back(std::move(w));
    }
  }

  // 5-7. Sort by total descending, ties by name; take numberOfClusters.
  std::vector<size_t> order(feasible.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const ClusterVerdict& va = out.clusters[feasible_verdict[a]];
    const ClusterVerdict& vb = out.clusters[feasible_verdict[b]];
    if (va.total != vb.total) return va.total > vb.total;
    return va.cluster_name < vb.cluster_name;
  });
  size_t take = order.size();
  if (placement.number_of_clusters.has_value()) {
    take = std::min(take, static_cast<size_t>(*placement.number_of_clusters));
  }
  std::vector<const model::ManagedCluster*> selected;
  for (size_t i = 0; i < take; ++i) {
    selected.push_back(feasible[order[i]]);
    out.clusters[feasible_verdict[order[i]]].selected = true;
    out.selected.push_back(feasible[order[i]]->meta.name);
  }

  // A misconfigured filter or prioritizer ends the schedule with nothing (and upstream's
  // early result reports no unscheduled decisions either).
  if (placement.number_of_clusters.has_value() && !misconfigured) {
    out.unscheduled = *placement.number_of_clusters - static_cast<int32_t>(selected.size());
  }

  // Decision groups. A clustersPerDecisionGroup that is not a percent makes upstream return
  // no groups and hence no PlacementDecisions at all, while the selection still counts in
  // numberOfSelectedClusters and PlacementSatisfied.
  auto length = GroupLength(placement.group_strategy.clusters_per_decision_group,
                            static_cast<int32_t>(selected.size()));
  std::vector<ClusterGroup> groups;
  if (!length.has_value()) {
    if (!misconfigured) misconfigured = Misconfiguration{"", length.error().message()};
  } else {
    groups = GroupClusters(placement, selected, *length);
  }
  int k = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    DecisionGroupStatus status;
    status.index = static_cast<int32_t>(g);
    status.name = groups[g].name;
    status.cluster_count = static_cast<int32_t>(groups[g].clusters.size());
    const std::vector<std::string>& members = groups[g].clusters;
    size_t start = 0;
    do {
      size_t end = std::min(members.size(), start + kMaxDecisionsPerPlacementDecision);
      model::PlacementDecision pd;
      pd.meta.name = placement.meta.name + "-decision-" + std::to_string(++k);
      pd.meta.namespace_ = ns;
      pd.meta.labels[model::kPlacementLabel] = placement.meta.name;
      pd.meta.labels[model::kDecisionGroupNameLabel] = groups[g].name;
      pd.meta.labels[model::kDecisionGroupIndexLabel] = std::to_string(g);
      pd.cluster = placement.cluster;
      for (size_t i = start; i < end; ++i) pd.decisions.push_back({members[i], ""});
      status.decisions.push_back(pd.meta.name);
      out.decisions.push_back(std::move(pd));
      start = end;
    } while (start < members.size());
    out.groups.push_back(std::move(status));
  }
  out.number_of_selected_clusters = static_cast<int32_t>(selected.size());

  // Conditions: the first matching rule of upstream's newSatisfiedCondition wins.
  if (bound.empty()) {
    out.satisfied =
        MakeCondition("PlacementSatisfied", false, "NoManagedClusterSetBindings",
                      "No valid ManagedClusterSetBindings found in placement namespace");
  } else if (eligible.empty()) {
    out.satisfied = MakeCondition("PlacementSatisfied", false, "NoIntersection",
                                  "None of ManagedClusterSets [" + Join(placement.cluster_sets) +
                                      "] is bound to placement namespace");
  } else if (candidates.empty()) {
    out.satisfied = MakeCondition(
        "PlacementSatisfied", false, "AllManagedClusterSetsEmpty",
        "All ManagedClusterSets [" + Join(eligible) + "] have no member ManagedCluster");
  } else if (selected.empty()) {
    out.satisfied = MakeCondition("PlacementSatisfied", false, "NoManagedClusterMatched",
                                  "No ManagedCluster matches any of the cluster predicate");
  } else if (out.unscheduled == 0) {
    out.satisfied = MakeCondition("PlacementSatisfied", true, "AllDecisionsScheduled",
                                  "All cluster decisions scheduled");
  } else {
    out.satisfied =
        MakeCondition("PlacementSatisfied", false, "NotAllDecisionsScheduled",
                      std::to_string(out.unscheduled) + " cluster decisions unscheduled");
  }
  out.misconfigured = misconfigured
                          ? MakeCondition("PlacementMisconfigured", true, "Misconfigured",
                                          misconfigured->plugin + ":" + misconfigured->message)
                          : MakeCondition("PlacementMisconfigured", false, "Succeedconfigured",
                                          "Placement configurations check pass");
  return out;
}

}  // namespace berth::placement
