// Why it is built this way: predicates are ORed and each predicate ANDs its label, claim and
// CEL parts (upstream helpers/clusters.go, helpers/cel.go), so a verdict names, per
// predicate, the first part that failed: that is what explain shows. CEL programs are
// compiled once per placement; the `managedCluster` value is built per cluster only when a
// predicate has CEL expressions, as the unstructured object upstream evaluates against.
#include "placement/cluster_filter.h"

#include <utility>

#include "cel/activation.h"

namespace berth::placement {

namespace {

const char* EffectName(model::ClusterTaintEffect effect) {
  switch (effect) {
    case model::ClusterTaintEffect::kNoSelect:
      return "NoSelect";
    case model::ClusterTaintEffect::kPreferNoSelect:
      return "PreferNoSelect";
    case model::ClusterTaintEffect::kNoSelectIfNew:
      return "NoSelectIfNew";
  }
  return "NoSelect";
}

const char* ConditionStatusName(model::ConditionStatus status) {
  switch (status) {
    case model::ConditionStatus::kTrue:
      return "True";
    case model::ConditionStatus::kFalse:
      return "False";
    case model::ConditionStatus::kUnknown:
      return "Unknown";
  }
  return "Unknown";
}

cel::Value StringMap(const core::Labels& map) {
  std::vector<std::pair<cel::Value, cel::Value>> entries;
  entries.reserve(map.size());
  for (const auto& [k, v] : map)
    entries.emplace_back(cel::Value::StringView(k), cel::Value::StringView(v));
  return cel::Value::Map(std::move(entries));
}

cel::Value QuantityMap(const std::map<std::string, core::Quantity>& map) {
  std::vector<std::pair<cel::Value, cel::Value>> entries;
  for (const auto& [k, q] : map) {
    entries.emplace_back(cel::Value::StringView(k), cel::Value::String(q.ToString()));
  }
  return cel::Value::Map(std::move(entries));
}

cel::Value Field(std::vector<std::pair<cel::Value, cel::Value>> entries) {
  return cel::Value::Map(std::move(entries));
}

// The ManagedCluster as the unstructured object upstream converts it to (the fields berth
// reads; quantities are strings, as in JSON). Strings are borrowed from the cluster, which
// outlives the evaluation, so building the value copies no text.
cel::Value ManagedClusterValue(const model::ManagedCluster& c) {
  using V = cel::Value;
  std::vector<V> taints;
  for (const model::ClusterTaint& t : c.taints) {
    std::vector<std::pair<V, V>> e{{V::StringView("key"), V::StringView(t.key)},
                                   {V::StringView("value"), V::StringView(t.value)},
                                   {V::StringView("effect"), V::StringView(EffectName(t.effect))}};
    if (t.time_added)
      e.emplace_back(V::StringView("timeAdded"), V::String(t.time_added->ToString()));
    taints.push_back(Field(std::move(e)));
  }
  std::vector<V> claims;
  for (const model::NamedValue& nv : c.cluster_claims) {
    claims.push_back(Field({{V::StringView("name"), V::StringView(nv.name)},
                            {V::StringView("value"), V::StringView(nv.value)}}));
  }
  std::vector<V> conditions;
  for (const model::Condition& cond : c.conditions) {
    conditions.push_back(
        Field({{V::StringView("type"), V::StringView(cond.type)},
               {V::StringView("status"), V::StringView(ConditionStatusName(cond.status))},
               {V::StringView("reason"), V::StringView(cond.reason)},
               {V::StringView("message"), V::StringView(cond.message)}}));
  }
  V metadata = Field({{V::StringView("name"), V::StringView(c.meta.name)},
                      {V::StringView("labels"), StringMap(c.meta.labels)},
                      {V::StringView("annotations"), StringMap(c.meta.annotations)}});
  V spec = Field({{V::StringView("hubAcceptsClient"), V::Bool(c.hub_accepts_client)},
                  {V::StringView("taints"), V::List(std::move(taints))}});
  V status = Field({{V::StringView("clusterClaims"), V::List(std::move(claims))},
                    {V::StringView("capacity"), QuantityMap(c.capacity)},
                    {V::StringView("allocatable"), QuantityMap(c.allocatable)},
                    {V::StringView("conditions"), V::List(std::move(conditions))},
                    {V::StringView("version"),
                     Field({{V::StringView("kubernetes"), V::StringView(c.kubernetes_version)}})}});
  return Field(
      {{V::StringView("apiVersion"), V::StringView("cluster.open-cluster-management.io/v1")},
       {V::StringView("kind"), V::StringView("ManagedCluster")},
       {V::StringView("metadata"), std::move(metadata)},
       {V::StringView("spec"), std::move(spec)},
       {V::StringView("status"), std::move(status)}});
}

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
         EffectName(taint.effect);
}

}  // namespace

core::Labels ClaimMap(const model::ManagedCluster& cluster) {
  core::Labels claims;
  for (const model::NamedValue& nv : cluster.cluster_claims) claims[nv.name] = nv.value;
  return claims;
}

std::vector<model::ClusterTaint> EffectiveTaints(const model::ManagedCluster& cluster) {
  const model::Condition* available = cluster.FindCondition(model::kConditionClusterAvailable);
  const char* wanted = nullptr;
  if (available == nullptr || available->status == model::ConditionStatus::kUnknown) {
    wanted = model::kTaintClusterUnreachable;
  } else if (available->status == model::ConditionStatus::kFalse) {
    wanted = model::kTaintClusterUnavailable;
  }
  std::vector<model::ClusterTaint> taints;
  taints.reserve(cluster.taints.size() + 1);
  bool have_wanted = false;
  for (const model::ClusterTaint& t : cluster.taints) {
    bool built_in =
        t.key == model::kTaintClusterUnreachable || t.key == model::kTaintClusterUnavailable;
    if (built_in && (wanted == nullptr || t.key != wanted)) continue;  // the controller removes it
    have_wanted = have_wanted || (wanted != nullptr && t.key == wanted);
    taints.push_back(t);
  }
  if (wanted != nullptr && !have_wanted) {
    model::ClusterTaint t{wanted, "", model::ClusterTaintEffect::kNoSelect, std::nullopt};
    if (available != nullptr) t.time_added = available->last_transition_time;
    taints.push_back(std::move(t));
  }
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
  cel::Environment env;
  size_t slot = 0;
  // programs[i][j]: predicate i, celExpressions[j].
  std::vector<std::vector<cel::Program>> programs;
};

ClusterFilter::ClusterFilter() = default;
ClusterFilter::ClusterFilter(ClusterFilter&&) noexcept = default;
ClusterFilter& ClusterFilter::operator=(ClusterFilter&&) noexcept = default;
ClusterFilter::~ClusterFilter() = default;

ClusterFilter ClusterFilter::Compile(const model::Placement& placement) {
  ClusterFilter filter;
  filter.placement_ = &placement;
  bool any_cel = false;
  for (const model::ClusterSelector& p : placement.predicates) {
    filter.any_claim_selector_ = filter.any_claim_selector_ || p.claim_selector.has_value();
    any_cel = any_cel || !p.cel_expressions.empty();
  }
  if (any_cel) {
    filter.cel_ = std::make_unique<CelState>();
    // "managedCluster" is a valid identifier, so AddVariable cannot fail here.
    filter.cel_->slot = filter.cel_->env.AddVariable("managedCluster").value();
    for (const model::ClusterSelector& p : placement.predicates) {
      std::vector<cel::Program>& programs = filter.cel_->programs.emplace_back();
      for (const std::string& expr : p.cel_expressions) {
        auto program = cel::Compile(expr, filter.cel_->env);
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

std::optional<model::Rejection> ClusterFilter::CheckPredicates(
    const model::ManagedCluster& cluster) const {
  const model::Placement& placement = *placement_;
  // ORed over predicates; none passes every cluster.
  if (placement.predicates.empty()) return std::nullopt;
  core::Labels claims;
  if (any_claim_selector_) claims = ClaimMap(cluster);
  std::optional<cel::Activation> activation;
  cel::Value cluster_value;
  std::string why;
  for (size_t i = 0; i < placement.predicates.size(); ++i) {
    const model::ClusterSelector& p = placement.predicates[i];
    std::string part;
    if (p.label_selector.has_value() && !p.label_selector->Matches(cluster.meta.labels)) {
      part = "labelSelector does not match";
    } else if (p.claim_selector.has_value() && !ClaimsMatch(*p.claim_selector, claims)) {
      part = "claimSelector does not match";
    } else {
      for (size_t j = 0; j < p.cel_expressions.size() && part.empty(); ++j) {
        if (!activation.has_value()) {
          activation.emplace(cel_->env);
          cluster_value = ManagedClusterValue(cluster);
          activation->Bind(cel_->slot, cluster_value);
        }
        // An evaluation error does not match, as upstream's Matches.
        auto result = cel::EvaluateBool(cel_->programs[i][j], *activation);
        if (!result.has_value()) {
          part = "celExpressions[" + std::to_string(j) + "] failed: " + result.error().message();
        } else if (!*result) {
          part = "celExpressions[" + std::to_string(j) + "] is false";
        }
      }
    }
    if (part.empty()) return std::nullopt;
    why +=
        (why.empty() ? "" : "; ") + std::string("predicates[") + std::to_string(i) + "]: " + part;
  }
  return model::Rejection{"placement", kPredicatePlugin, "PredicateNotMatched", why};
}

FilterVerdict ClusterFilter::CheckTaints(const model::ManagedCluster& cluster, bool selected_before,
                                         core::Timestamp now) const {
  FilterVerdict verdict;
  // Every taint must be tolerated; per taint, the first toleration that matches and has
  // not expired decides (an expired one lets the search go on).
  for (const model::ClusterTaint& taint : EffectiveTaints(cluster)) {
    if (taint.effect == model::ClusterTaintEffect::kPreferNoSelect) continue;
    if (taint.effect == model::ClusterTaintEffect::kNoSelectIfNew && selected_before) continue;
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
    if (tolerated) continue;
    verdict.feasible = false;
    verdict.toleration_expires.reset();
    std::string message =
        expired_at.has_value()
            ? "toleration of taint " + TaintText(taint) + " expired at " + expired_at->ToString()
            : "taint " + TaintText(taint) + " is not tolerated";
    verdict.rejection =
        model::Rejection{"placement", kTaintTolerationPlugin, "TaintNotTolerated", message};
    return verdict;
  }
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
