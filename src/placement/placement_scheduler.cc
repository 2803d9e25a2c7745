// The pipeline mirrors upstream's pluginScheduler.Schedule and the controller around it, so
// that every observable result (which clusters, PlacementDecision names and contents,
// condition reasons and messages) matches. Where upstream leaves something out of its
// result (scores per prioritizer, why a cluster was filtered), berth keeps it for explain.
#include "placement/placement_scheduler.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>

#include "placement/builtin_scorers.h"
#include "placement/cluster_filter.h"
#include "placement/cluster_set_references.h"
#include "placement/decision_groups.h"
#include "placement/placement_artifacts.h"
#include "placement/residency_filter.h"
#include "placement/spread_selector.h"

namespace berth::placement {

namespace {

// From this many clusters on, predicates and prioritizers use a second thread (starting one
// costs tens of microseconds; checking this many clusters takes milliseconds).
constexpr size_t kParallelClusters = 2048;

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

// Sorts clusters by name and drops repeated names. Large fleets share a long name prefix
// ("cluster-"), which makes string comparisons slow, so the names are radix-sorted on the
// 8 bytes after the common prefix, and compared whole only where those bytes agree.
void SortByName(std::vector<const model::ManagedCluster*>* clusters) {
  auto by_name = [](const model::ManagedCluster* a, const model::ManagedCluster* b) {
    return a->meta.name < b->meta.name;
  };
  auto same_name = [](const model::ManagedCluster* a, const model::ManagedCluster* b) {
    return a->meta.name == b->meta.name;
  };
  if (std::is_sorted(clusters->begin(), clusters->end(), by_name)) {
    clusters->erase(std::unique(clusters->begin(), clusters->end(), same_name), clusters->end());
    return;
  }
  std::string_view prefix = clusters->front()->meta.name;
  for (const model::ManagedCluster* c : *clusters) {
    std::string_view name = c->meta.name;
    size_t n = 0;
    while (n < prefix.size() && n < name.size() && prefix[n] == name[n]) ++n;
    prefix = prefix.substr(0, n);
  }
  // Big-endian, zero-padded keys: integer order is byte order (std::string compares bytes
  // as unsigned char), and a shorter name sorts first, as in a string compare. One pass
  // builds the keys and every byte's histogram.
  std::vector<std::pair<uint64_t, const model::ManagedCluster*>> keyed;
  keyed.reserve(clusters->size());
  std::array<std::array<size_t, 256>, 8> histograms{};
  for (const model::ManagedCluster* c : *clusters) {
    std::array<unsigned char, 8> bytes{};
    size_t rest = c->meta.name.size() - prefix.size();
    std::memcpy(bytes.data(), c->meta.name.data() + prefix.size(), rest < 8 ? rest : 8);
    uint64_t key = 0;
    for (unsigned char byte : bytes) key = (key << 8) | byte;
    for (size_t b = 0; b < 8; ++b) ++histograms[b][(key >> (8 * b)) & 0xFF];
    keyed.emplace_back(key, c);
  }
  // LSD radix sort, one byte per pass, skipping bytes that every key shares.
  std::vector<std::pair<uint64_t, const model::ManagedCluster*>> buffer(keyed.size());
  for (size_t b = 0; b < 8; ++b) {
    std::array<size_t, 256>& counts = histograms[b];
    if (std::find(counts.begin(), counts.end(), keyed.size()) != counts.end()) continue;
    size_t sum = 0;
    for (size_t& n : counts) {
      size_t here = n;
      n = sum;
      sum += here;
    }
    for (const auto& k : keyed) buffer[counts[(k.first >> (8 * b)) & 0xFF]++] = k;
    keyed.swap(buffer);
  }
  // Equal keys: names that agree in those 8 bytes; order them by the whole name and drop
  // repeated names (different keys always mean different names).
  clusters->clear();
  for (size_t i = 0; i < keyed.size();) {
    size_t j = i + 1;
    while (j < keyed.size() && keyed[j].first == keyed[i].first) ++j;
    if (j - i > 1) {
      std::sort(keyed.begin() + static_cast<std::ptrdiff_t>(i),
                keyed.begin() + static_cast<std::ptrdiff_t>(j),
                [&by_name](const auto& x, const auto& y) { return by_name(x.second, y.second); });
    }
    for (size_t k = i; k < j; ++k) {
      if (k > i && same_name(keyed[k].second, clusters->back())) continue;
      clusters->push_back(keyed[k].second);
    }
    i = j;
  }
}

// The predicate loop visits clusters in name order, which is not their order in memory,
// and each check chases pointers from the cluster into its label tree and claims: the
// hardware cannot guess those loads. Asking for cluster i+6's object and for cluster i+3's
// first label node and claims (its object has arrived by then) overlaps that latency with
// the work on cluster i (about 5% of a 10,000-cluster Placement).
void PrefetchAhead(const std::vector<const model::ManagedCluster*>& clusters, size_t i) {
  if (i + 6 < clusters.size()) {
    const char* object = reinterpret_cast<const char*>(clusters[i + 6]);
    for (size_t offset = 0; offset < 256; offset += 64) __builtin_prefetch(object + offset);
  }
  if (i + 3 < clusters.size()) {
    const model::ManagedCluster& near = *clusters[i + 3];
    if (!near.meta.labels.empty()) __builtin_prefetch(&*near.meta.labels.begin());
    if (!near.cluster_claims.empty()) __builtin_prefetch(near.cluster_claims.data());
  }
}

// The outcome's table of distinct rejections: clusters rejected for the same reason share
// one entry (and its count), so a fleet where thousands of clusters fail the same
// predicate stores that message once and allocates nothing per cluster.
class RejectionTable {
 public:
  explicit RejectionTable(std::vector<model::Rejection>* rejections) : rejections_(rejections) {}

  int32_t Add(std::string_view plugin, std::string_view reason, std::string_view message) {
    // Few distinct reasons is the common case: scan them (sizes first) before hashing.
    if (index_.empty()) {
      for (size_t i = 0; i < rejections_->size(); ++i) {
        model::Rejection& r = (*rejections_)[i];
        if (r.message == message && r.reason == reason && r.plugin == plugin) {
          ++r.count;
          return static_cast<int32_t>(i);
        }
      }
      if (rejections_->size() < kScanLimit) return Append(plugin, reason, message);
      for (size_t i = 0; i < rejections_->size(); ++i) {
        const model::Rejection& r = (*rejections_)[i];
        index_.emplace(Key(r.plugin, r.reason, r.message), static_cast<int32_t>(i));
      }
    }
    auto it = index_.find(std::string_view(Key(plugin, reason, message)));
    if (it != index_.end()) {
      ++(*rejections_)[static_cast<size_t>(it->second)].count;
      return it->second;
    }
    int32_t at = Append(plugin, reason, message);
    index_.emplace(key_, at);
    return at;
  }
  int32_t Add(const model::Rejection& r) { return Add(r.plugin, r.reason, r.message); }

 private:
  static constexpr size_t kScanLimit = 16;

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };

  const std::string& Key(std::string_view plugin, std::string_view reason,
                         std::string_view message) {
    key_.assign(plugin);
    key_ += '\n';
    key_ += reason;
    key_ += '\n';
    key_ += message;
    return key_;
  }

  int32_t Append(std::string_view plugin, std::string_view reason, std::string_view message) {
    rejections_->push_back(
        {"placement", std::string(plugin), std::string(reason), std::string(message), 1});
    return static_cast<int32_t>(rejections_->size() - 1);
  }

  std::vector<model::Rejection>* rejections_;
  std::unordered_map<std::string, int32_t, Hash, std::equal_to<>> index_;
  std::string key_;
};

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
  const ScorerRegistry berth = options.registry ? ScorerRegistry() : ScorerRegistry::Berth();
  const ScorerRegistry& registry = options.registry ? *options.registry : berth;
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
  if (!sets.contains(kGlobalClusterSet)) sets[kGlobalClusterSet] = nullptr;
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
  std::vector<std::pair<const model::ManagedClusterSet*, const std::string*>> eligible_sets;
  bool every_cluster = false;  // the synthesized global set holds them all
  for (const std::string& s : eligible) {
    const model::ManagedClusterSet* set = sets[s];
    every_cluster = every_cluster || set == nullptr;
    eligible_sets.emplace_back(set, &s);
  }
  std::vector<const model::ManagedCluster*> candidates;
  candidates.reserve(snapshot.managed_clusters.size());
  for (const model::ManagedCluster& c : snapshot.managed_clusters) {
    if (c.deletion_timestamp.has_value()) continue;
    bool member = every_cluster;
    for (size_t i = 0; i < eligible_sets.size() && !member; ++i) {
      member = InSet(eligible_sets[i].first, *eligible_sets[i].second, c);
    }
    if (member) candidates.push_back(&c);
  }
  if (!candidates.empty()) SortByName(&candidates);

  // AddOnPlacementScores by (namespace, name), for CEL's scores() and AddOn prioritizers.
  bool wants_scores = false;
  for (const model::ClusterSelector& p : placement.predicates) {
    wants_scores = wants_scores || !p.cel_expressions.empty();
  }
  for (const model::PrioritizerConfig& c : placement.prioritizer_policy.configurations) {
    wants_scores = wants_scores || (c.score_coordinate.has_value() &&
                                    c.score_coordinate->type == model::ScoreCoordinateType::kAddOn);
  }
  std::optional<AddOnScoreIndex> own_index;
  const AddOnScoreIndex* addon_scores = options.addon_scores;
  if (addon_scores == nullptr && wants_scores) {
    addon_scores = &own_index.emplace(snapshot.addon_placement_scores);
  }

  // 2. Filters, then 3-4. weights and prioritizers. A misconfiguration stops with nothing.
  std::optional<Misconfiguration> misconfigured;
  RejectionTable rejections(&out.rejections);
  ClusterFilter filter = ClusterFilter::Compile(placement, addon_scores);
  // Predicate runs only on a non-empty list, TaintToleration only on what Predicate kept.
  std::vector<const model::ManagedCluster*> passed;
  std::vector<size_t> passed_verdict;  // index into out.clusters
  if (!candidates.empty()) misconfigured = filter.predicate_misconfiguration();
  if (!misconfigured) {
    out.clusters.reserve(candidates.size());
    passed.reserve(candidates.size());
    passed_verdict.reserve(candidates.size());
    // The predicates of each cluster are independent: over many clusters the second half
    // is checked on a second thread (its own scratch), and the verdicts are assembled in
    // name order afterwards, so the outcome does not depend on the split.
    std::vector<uint8_t> matched(candidates.size(), 0);
    std::vector<std::string> whys(candidates.size());
    auto check = [&](size_t begin, size_t end) {
      PredicateScratch scratch = filter.NewScratch();
      for (size_t ci = begin; ci < end; ++ci) {
        PrefetchAhead(candidates, ci);
        matched[ci] = filter.MatchPredicates(*candidates[ci], scratch, &whys[ci]) ? 1 : 0;
      }
    };
    if (candidates.size() >= kParallelClusters) {
      const size_t half = candidates.size() / 2;
      std::thread second(check, half, candidates.size());
      check(0, half);
      second.join();
    } else {
      check(0, candidates.size());
    }
    for (size_t ci = 0; ci < candidates.size(); ++ci) {
      const model::ManagedCluster* c = candidates[ci];
      ClusterVerdict& verdict = out.clusters.emplace_back();
      verdict.cluster_name = c->meta.name;
      if (matched[ci] != 0) {
        passed.push_back(c);
        passed_verdict.push_back(out.clusters.size() - 1);
      } else {
        verdict.rejection = rejections.Add(kPredicatePlugin, kPredicateNotMatched, whys[ci]);
      }
    }
    if (!passed.empty()) misconfigured = filter.toleration_misconfiguration();
  }
  std::vector<ActivePrioritizer> weights;
  if (!misconfigured) weights = Weights(placement.prioritizer_policy, registry, &misconfigured);
  if (misconfigured) {
    out.clusters.clear();
    out.rejections.clear();
  }

  std::vector<const model::ManagedCluster*> feasible;
  std::vector<size_t> feasible_verdict;  // index into out.clusters
  // The models and datasets the placement names, resolved once for the residency filter
  // and DataLocality.
  const PlacementArtifacts artifacts = ResolveArtifacts(snapshot, placement);
  if (!misconfigured) {
    for (const std::string& w : artifacts.warnings) out.warnings.push_back(w);
    // berth's DataResidency runs after upstream's two filters, on what they kept.
    ResidencyFilter residency(artifacts.rules);
    // The filter hands out one Rejection per distinct verdict; its table index is kept by
    // address, so thousands of rejected clusters never compare the long messages again.
    std::vector<std::pair<const model::Rejection*, int32_t>> residency_index;
    for (size_t pi = 0; pi < passed.size(); ++pi) {
      const model::ManagedCluster* c = passed[pi];
      const size_t next = passed_verdict[pi];
      ClusterVerdict& verdict = out.clusters[next];
      bool before = std::binary_search(existing.begin(), existing.end(), c->meta.name);
      FilterVerdict v = filter.CheckTaints(*c, before, now);
      if (v.feasible && !residency.empty()) {
        if (const model::Rejection* r = residency.Check(*c)) {
          v.feasible = false;
          v.toleration_expires.reset();
          auto known = std::find_if(residency_index.begin(), residency_index.end(),
                                    [r](const auto& e) { return e.first == r; });
          if (known == residency_index.end()) {
            residency_index.emplace_back(r, rejections.Add(*r));
            verdict.rejection = residency_index.back().second;
          } else {
            verdict.rejection = known->second;
            ++out.rejections[static_cast<size_t>(known->second)].count;
          }
        }
      }
      verdict.feasible = v.feasible;
      if (v.rejection) verdict.rejection = rejections.Add(*v.rejection);
      if (v.feasible) {
        feasible.push_back(c);
        feasible_verdict.push_back(next);
        if (before && v.toleration_expires &&
            (!out.requeue_at || *v.toleration_expires < *out.requeue_at)) {
          out.requeue_at = v.toleration_expires;
        }
      }
    }
    ScoreContext context{snapshot, placement, now, existing, options.capacity, addon_scores,
                         options.load_time, &artifacts};
    size_t active = 0;
    for (const ActivePrioritizer& p : weights) active += p.weight != 0 ? 1 : 0;
    // Terms go to a flat table, `active` slots per feasible cluster, compacted below.
    std::vector<ScoreTerm> terms(feasible.size() * active);
    std::vector<uint32_t> term_count(feasible.size(), 0);
    // Prioritizers are independent too: over many clusters they run on two threads, and
    // their scores are summed in the policy's order afterwards.
    std::vector<std::unique_ptr<ClusterScorer>> scorers;
    std::vector<int32_t> scorer_weights;
    for (const ActivePrioritizer& p : weights) {
      if (p.weight == 0) continue;
      scorers.push_back(p.coordinate.type == model::ScoreCoordinateType::kAddOn
                            ? MakeAddOnScorer(p.coordinate.addon_resource_name,
                                              p.coordinate.addon_score_name)
                            : registry.Make(p.key));
      scorer_weights.push_back(p.weight);
    }
    std::vector<ScoreOutput> scored(scorers.size());
    auto run = [&](size_t first, size_t step) {
      for (size_t k = first; k < scorers.size(); k += step) {
        scored[k] = scorers[k]->Score(context, feasible);
      }
    };
    if (feasible.size() >= kParallelClusters && scorers.size() > 1) {
      std::thread second(run, 1, 2);
      run(0, 2);
      second.join();
    } else {
      run(0, 1);
    }
    for (size_t k = 0; k < scorers.size(); ++k) {
      auto index = static_cast<int32_t>(out.prioritizers.size());
      const int32_t weight = scorer_weights[k];
      out.prioritizers.push_back({scorers[k]->Name(), weight});
      const auto note_base = static_cast<int32_t>(out.score_notes.size());
      const std::vector<int32_t>& note_of = scored[k].note_of;
      for (std::string& n : scored[k].notes) out.score_notes.push_back(std::move(n));
      for (size_t i = 0; i < feasible.size(); ++i) {
        if (!scored[k].scores[i].has_value()) continue;
        const int32_t note = i < note_of.size() && note_of[i] >= 0 ? note_base + note_of[i] : -1;
        terms[i * active + term_count[i]++] = {index, *scored[k].scores[i], weight, note};
        out.clusters[feasible_verdict[i]].total += static_cast<int64_t>(weight) * *scored[k].scores[i];
      }
      for (std::string& w : scored[k].warnings) out.warnings.push_back(std::move(w));
    }
    out.score_terms.reserve(terms.size());
    for (size_t i = 0; i < feasible.size(); ++i) {
      ClusterVerdict& verdict = out.clusters[feasible_verdict[i]];
      verdict.first_score = static_cast<uint32_t>(out.score_terms.size());
      verdict.score_count = term_count[i];
      out.score_terms.insert(
          out.score_terms.end(), terms.begin() + static_cast<std::ptrdiff_t>(i * active),
          terms.begin() + static_cast<std::ptrdiff_t>(i * active + term_count[i]));
    }
  }

  // 5-7. Sort by total descending, ties by name (feasible is in name order, so by index);
  // take numberOfClusters, or let spreadPolicy pick them.
  std::vector<std::pair<int64_t, size_t>> ranked_totals(feasible.size());  // (−total, index)
  for (size_t i = 0; i < feasible.size(); ++i) {
    ranked_totals[i] = {-out.clusters[feasible_verdict[i]].total, i};
  }
  std::sort(ranked_totals.begin(), ranked_totals.end());
  std::vector<size_t> order(feasible.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = ranked_totals[i].second;
  size_t want = order.size();
  if (placement.number_of_clusters.has_value()) {
    want = std::min(want, static_cast<size_t>(std::max(*placement.number_of_clusters, 0)));
  }
  std::vector<size_t> picked;  // indexes into feasible, in selection order
  if (placement.spread_constraints.empty()) {
    picked.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(want));
  } else {
    std::vector<const model::ManagedCluster*> ranked;
    std::vector<int64_t> totals;
    ranked.reserve(order.size());
    totals.reserve(order.size());
    for (size_t i : order) {
      ranked.push_back(feasible[i]);
      totals.push_back(out.clusters[feasible_verdict[i]].total);
    }
    SpreadResult spread = SelectWithSpread(placement.spread_constraints, ranked, totals, want);
    for (size_t r : spread.selected) picked.push_back(order[r]);
    for (size_t r = 0; r < order.size(); ++r) {
      if (spread.skipped[r]) {
        out.clusters[feasible_verdict[order[r]]].spread_skipped =
            rejections.Add(*spread.skipped[r]);
      }
    }
  }
  std::vector<const model::ManagedCluster*> selected;
  selected.reserve(picked.size());
  for (size_t i : picked) {
    selected.push_back(feasible[i]);
    out.clusters[feasible_verdict[i]].selected = true;
    out.selected.push_back(feasible[i]->meta.name);
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
