// Why it is built this way: predicates are ORed and each predicate ANDs its label, claim and
// CEL parts (upstream helpers/clusters.go, helpers/cel.go), so a verdict names, per
// predicate, the first part that failed: that is what explain shows. CEL programs are
// compiled once per placement. The per-cluster work avoids allocating: `managedCluster` is
// a lazy host map re-pointed at each cluster (ManagedClusterValue), claim selectors run on
// a reused one-entry map instead of a map of every claim (upstream builds that map, berth's
// result is the same), and the effective taints are visited in place.
#include "placement/cluster_filter.h"

#include <algorithm>
#include <utility>

#include "cel/activation.h"
#include "core/check.h"
#include "placement/cluster_cel_library.h"
#include "placement/managed_cluster_value.h"

namespace berth::placement {

namespace {

bool ClaimsMatch(const model::ClaimSelector& selector, const core::Labels& claims) {
  for (const core::SelectorRequirement& r : selector.match_expressions) {
    if (!r.Matches(claims)) return false;
  }
  return true;
}

// Upstream's isTolerated: effect and key empty or equal; Equal compares values, Exists
// matches any value.
bool TolerationMatches(const model::PlacementToleration& t, const model::ClusterTaint& taint) {
  if (t.effect.has_value() && *t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  return t.op == model::PlacementTolerationOp::kExists || t.value == taint.value;
}

std::string TaintText(const model::ClusterTaint& taint) {
  return taint.key + (taint.value.empty() ? "" : "=" + taint.value) + ":" +
         model::ClusterTaintEffectName(taint.effect);
}

}  // namespace

core::Labels ClaimMap(const model::ManagedCluster& cluster) {
  core::Labels claims;
  for (const model::NamedValue& nv : cluster.cluster_claims) claims[nv.name] = nv.value;
  return claims;
}

namespace {

// Calls visit(taint) for each effective taint (see EffectiveTaints) until it returns false,
// without copying the cluster's taints.
// ManagedCluster::FindCondition takes a std::string, which would allocate for this long
// name on every cluster.
const model::Condition* FindAvailable(const model::ManagedCluster& cluster) {
  for (const model::Condition& c : cluster.conditions) {
    if (c.type == model::kConditionClusterAvailable) return &c;
  }
  return nullptr;
}

template <typename Visit>
void ForEachEffectiveTaint(const model::ManagedCluster& cluster, Visit&& visit) {
  const model::Condition* available = FindAvailable(cluster);
  const char* wanted = nullptr;
  if (available == nullptr || available->status == model::ConditionStatus::kUnknown) {
    wanted = model::kTaintClusterUnreachable;
  } else if (available->status == model::ConditionStatus::kFalse) {
    wanted = model::kTaintClusterUnavailable;
  }
  bool have_wanted = false;
  for (const model::ClusterTaint& t : cluster.taints) {
    bool built_in =
        t.key == model::kTaintClusterUnreachable || t.key == model::kTaintClusterUnavailable;
    if (built_in && (wanted == nullptr || t.key != wanted)) continue;  // the controller removes it
    have_wanted = have_wanted || (wanted != nullptr && t.key == wanted);
    if (!visit(t)) return;
  }
  if (wanted != nullptr && !have_wanted) {
    model::ClusterTaint t{wanted, "", model::ClusterTaintEffect::kNoSelect, std::nullopt};
    if (available != nullptr) t.time_added = available->last_transition_time;
    visit(t);
  }
}

}  // namespace

std::vector<model::ClusterTaint> EffectiveTaints(const model::ManagedCluster& cluster) {
  std::vector<model::ClusterTaint> taints;
  taints.reserve(cluster.taints.size() + 1);
  ForEachEffectiveTaint(cluster, [&taints](const model::ClusterTaint& t) {
    taints.push_back(t);
    return true;
  });
  return taints;
}

bool MatchesLabelsAndClaims(const model::ClusterSelector& selector,
                            const model::ManagedCluster& cluster, const core::Labels& claims) {
  if (selector.label_selector.has_value() &&
      !selector.label_selector->Matches(cluster.meta.labels)) {
    return false;
  }
  return !selector.claim_selector.has_value() || ClaimsMatch(*selector.claim_selector, claims);
}

struct ClusterFilter::CelState {
  explicit CelState(const AddOnScoreIndex* scores) : library(scores) {}
  ClusterCelLibrary library;
  // programs[i][j]: predicate i, celExpressions[j].
  std::vector<std::vector<cel::Program>> programs;
};

// One claim requirement's one-entry map {key: value} for core's matcher, and its recent
// answers by value.
struct ClaimProbe {
  static constexpr size_t kAnswers = 8;
  core::Labels labels;
  std::vector<std::pair<std::string, bool>> answers;
};

struct PredicateScratch::Impl {
  // What the buffers were made for: the placement (probes, prefixes) and the filter's CEL
  // environment (activation); both move with the filter.
  const model::Placement* placement = nullptr;
  const void* cel = nullptr;
  std::optional<cel::Activation> activation;  // when the filter has CEL expressions
  ManagedClusterValue cluster_value;
  // probes[i][j]: claim requirement j of predicate i.
  std::vector<std::vector<ClaimProbe>> probes;
  // prefixes[i]: how predicate i's part of a rejection message starts ("; predicates[1]: ").
  std::vector<std::string> prefixes;
  const core::Labels empty{};
};

PredicateScratch::PredicateScratch() : impl_(std::make_unique<Impl>()) {}
PredicateScratch::PredicateScratch(PredicateScratch&&) noexcept = default;
PredicateScratch& PredicateScratch::operator=(PredicateScratch&&) noexcept = default;
PredicateScratch::~PredicateScratch() = default;

ClusterFilter::ClusterFilter() = default;
ClusterFilter::ClusterFilter(ClusterFilter&&) noexcept = default;
ClusterFilter& ClusterFilter::operator=(ClusterFilter&&) noexcept = default;
ClusterFilter::~ClusterFilter() = default;

ClusterFilter ClusterFilter::Compile(const model::Placement& placement,
                                     const AddOnScoreIndex* scores) {
  ClusterFilter filter;
  filter.placement_ = &placement;
  bool any_cel = false;
  for (const model::ClusterSelector& p : placement.predicates) {
    any_cel = any_cel || !p.cel_expressions.empty();
  }
  if (any_cel) {
    filter.cel_ = std::make_unique<CelState>(scores);
    for (const model::ClusterSelector& p : placement.predicates) {
      std::vector<cel::Program>& programs = filter.cel_->programs.emplace_back();
      for (const std::string& expr : p.cel_expressions) {
        auto program = cel::Compile(expr, filter.cel_->library.environment());
        if (!program.has_value()) {
          filter.predicate_misconfiguration_ =
              Misconfiguration{kPredicatePlugin, "failed to compile CEL expression \"" + expr +
                                                     "\": " + program.error().message()};
          break;
        }
        programs.push_back(std::move(*program));
      }
      if (filter.predicate_misconfiguration_) break;
    }
  }
  for (const model::PlacementToleration& t : placement.tolerations) {
    if (t.key.empty() && t.op != model::PlacementTolerationOp::kExists) {
      filter.toleration_misconfiguration_ =
          Misconfiguration{kTaintTolerationPlugin, "If the key is empty, operator must be Exists."};
      break;
    }
    if (t.op == model::PlacementTolerationOp::kExists && !t.value.empty()) {
      filter.toleration_misconfiguration_ = Misconfiguration{
          kTaintTolerationPlugin, "If the operator is Exists, the value should be empty."};
      break;
    }
  }
  return filter;
}

PredicateScratch ClusterFilter::NewScratch() const {
  PredicateScratch scratch;
  PredicateScratch::Impl& s = *scratch.impl_;
  s.placement = placement_;
  s.cel = cel_.get();
  if (cel_ != nullptr) s.activation.emplace(cel_->library.environment());
  const model::Placement& placement = *placement_;
  for (size_t i = 0; i < placement.predicates.size(); ++i) {
    s.prefixes.push_back((i > 0 ? "; predicates[" : "predicates[") + std::to_string(i) + "]: ");
    std::vector<ClaimProbe>& probes = s.probes.emplace_back();
    const model::ClusterSelector& p = placement.predicates[i];
    if (!p.claim_selector.has_value()) continue;
    for (const core::SelectorRequirement& r : p.claim_selector->match_expressions) {
      probes.push_back(ClaimProbe{core::Labels{{r.key, ""}}, {}});
    }
  }
  return scratch;
}

std::optional<model::Rejection> ClusterFilter::CheckPredicates(
    const model::ManagedCluster& cluster) const {
  PredicateScratch scratch = NewScratch();
  return CheckPredicates(cluster, scratch);
}

std::optional<model::Rejection> ClusterFilter::CheckPredicates(const model::ManagedCluster& cluster,
                                                               PredicateScratch& scratch) const {
  std::string why;
  if (MatchPredicates(cluster, scratch, &why)) return std::nullopt;
  return model::Rejection{"placement", kPredicatePlugin, kPredicateNotMatched, std::move(why)};
}

bool ClusterFilter::MatchPredicates(const model::ManagedCluster& cluster, PredicateScratch& scratch,
                                    std::string* why) const {
  const model::Placement& placement = *placement_;
  why->clear();
  // ORed over predicates; none passes every cluster.
  if (placement.predicates.empty()) return true;
  PredicateScratch::Impl& s = *scratch.impl_;
  // A scratch of another filter would bind the wrong environment or claim keys.
  BERTH_CHECK(s.placement == placement_ && s.cel == cel_.get(),
              "PredicateScratch used with a filter that did not make it");
  bool cluster_bound = false;
  // Claim selectors: each requirement sees the one claim it names, through core's matcher,
  // so the semantics are exactly those of a map of every claim.
  auto claims_match = [&](size_t i) {
    const model::ClaimSelector& selector = *placement.predicates[i].claim_selector;
    for (size_t j = 0; j < selector.match_expressions.size(); ++j) {
      const core::SelectorRequirement& r = selector.match_expressions[j];
      const std::string* value = cluster.FindClaim(r.key);
      bool ok = false;
      if (value == nullptr) {
        ok = r.Matches(s.empty);
      } else {
        // The answer depends only on the value, and fleets repeat a few values ("aws",
        // "gcp"): remember the last few answers per requirement.
        ClaimProbe& probe = s.probes[i][j];
        auto hit = std::find_if(probe.answers.begin(), probe.answers.end(),
                                [value](const auto& a) { return a.first == *value; });
        if (hit != probe.answers.end()) {
          ok = hit->second;
        } else {
          probe.labels.begin()->second.assign(*value);
          ok = r.Matches(probe.labels);
          if (probe.answers.size() < ClaimProbe::kAnswers) probe.answers.emplace_back(*value, ok);
        }
      }
      if (!ok) return false;
    }
    return true;
  };
  // The message names, per predicate, the first part that failed; it is written straight
  // into *why so that a rejected cluster costs no temporary strings.
  for (size_t i = 0; i < placement.predicates.size(); ++i) {
    const model::ClusterSelector& p = placement.predicates[i];
    const size_t start = why->size();
    *why += s.prefixes[i];
    if (p.label_selector.has_value() && !p.label_selector->Matches(cluster.meta.labels)) {
      *why += "labelSelector does not match";
      continue;
    }
    if (p.claim_selector.has_value() && !claims_match(i)) {
      *why += "claimSelector does not match";
      continue;
    }
    bool matched = true;
    for (size_t j = 0; j < p.cel_expressions.size() && matched; ++j) {
      if (!cluster_bound) {
        s.cluster_value.Reset(cluster);
        s.activation->Bind(cel_->library.cluster_slot(), s.cluster_value.value());
        cluster_bound = true;
      }
      // An evaluation error does not match, as upstream's Matches.
      auto result = cel::EvaluateBool(cel_->programs[i][j], *s.activation);
      if (result.has_value() && *result) continue;
      matched = false;
      *why += "celExpressions[";
      *why += std::to_string(j);
      if (!result.has_value()) {
        *why += "] failed: ";
        *why += result.error().message();
      } else {
        *why += "] is false";
      }
    }
    if (matched) {
      why->resize(start);
      return true;
    }
  }
  return false;
}

FilterVerdict ClusterFilter::CheckTaints(const model::ManagedCluster& cluster, bool selected_before,
                                         core::Timestamp now) const {
  FilterVerdict verdict;
  // Every taint must be tolerated; per taint, the first toleration that matches and has
  // not expired decides (an expired one lets the search go on).
  ForEachEffectiveTaint(cluster, [&](const model::ClusterTaint& taint) {
    if (taint.effect == model::ClusterTaintEffect::kPreferNoSelect) return true;
    if (taint.effect == model::ClusterTaintEffect::kNoSelectIfNew && selected_before) return true;
    bool tolerated = false;
    std::optional<core::Timestamp> expired_at;
    for (const model::PlacementToleration& t : placement_->tolerations) {
      if (!TolerationMatches(t, taint)) continue;
      if (!t.toleration_seconds.has_value()) {
        tolerated = true;
        break;
      }
      // A taint without timeAdded counts from the epoch, so a bounded toleration is spent,
      // as it is upstream (Go's zero time).
      core::Timestamp added = taint.time_added.value_or(core::Timestamp{});
      core::Timestamp expires{added.unix_s + *t.toleration_seconds};
      if (now < expires) {
        tolerated = true;
        if (!verdict.toleration_expires.has_value() || expires < *verdict.toleration_expires) {
          verdict.toleration_expires = expires;
        }
        break;
      }
      expired_at = expires;
    }
    if (tolerated) return true;
    verdict.feasible = false;
    verdict.toleration_expires.reset();
    std::string message =
        expired_at.has_value()
            ? "toleration of taint " + TaintText(taint) + " expired at " + expired_at->ToString()
            : "taint " + TaintText(taint) + " is not tolerated";
    verdict.rejection = model::Rejection{"placement", kTaintTolerationPlugin, "TaintNotTolerated",
                                         std::move(message)};
    return false;
  });
  return verdict;
}

FilterVerdict ClusterFilter::Check(const model::ManagedCluster& cluster, bool selected_before,
                                   core::Timestamp now) const {
  if (auto rejection = CheckPredicates(cluster)) {
    FilterVerdict verdict;
    verdict.feasible = false;
    verdict.rejection = std::move(rejection);
    return verdict;
  }
  return CheckTaints(cluster, selected_before, now);
}

}  // namespace berth::placement
