// ClusterFilter: upstream's two filters, Predicate then TaintToleration
// (ocm pkg/placement/plugins/{predicate,tainttoleration}), compiled once per Placement and
// asked per cluster. Compile reports what upstream calls Misconfigured (a CEL expression
// that does not compile, an empty-key toleration without Exists, Exists with a value).
// Immutable after Compile; the checks are const and thread-compatible. A caller checking
// many clusters passes a PredicateScratch (one per thread) so that nothing is allocated per
// cluster except the rejection of a cluster that fails.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cel/environment.h"
#include "cel/program.h"
#include "core/time.h"
#include "model/decision.h"
#include "model/ocm.h"
#include "placement/addon_score_index.h"

namespace berth::placement {

inline constexpr const char* kPredicatePlugin = "Predicate";
inline constexpr const char* kPredicateNotMatched = "PredicateNotMatched";  // its reason
inline constexpr const char* kTaintTolerationPlugin = "TaintToleration";

// The claims of a cluster (status.clusterClaims) as a name → value map.
core::Labels ClaimMap(const model::ManagedCluster& cluster);

// The taints upstream's hub taint controller would leave on the cluster, from condition
// ManagedClusterConditionAvailable: missing/Unknown → unreachable, False → unavailable,
// True → neither (both NoSelect, empty value). A built-in taint already in spec.taints is
// kept with its timeAdded; one added here takes the condition's lastTransitionTime.
std::vector<model::ClusterTaint> EffectiveTaints(const model::ManagedCluster& cluster);

// Label and claim selectors of one ClusterSelector (decision groups use only these).
bool MatchesLabelsAndClaims(const model::ClusterSelector& selector,
                            const model::ManagedCluster& cluster, const core::Labels& claims);

struct FilterVerdict {
  bool feasible = true;
  std::optional<model::Rejection> rejection;  // set when !feasible
  // When the cluster is kept only by a toleration with tolerationSeconds: when it expires.
  std::optional<core::Timestamp> toleration_expires;
};

struct Misconfiguration {
  std::string plugin;
  std::string message;
};

class ClusterFilter;

// Buffers MatchPredicates reuses across clusters: the CEL activation, the lazy
// `managedCluster` value, one-entry claim maps for the claim selectors and the message
// prefixes. Made by ClusterFilter::NewScratch for that filter only (which must outlive it;
// moving the filter is fine); not thread-safe: one per thread.
class PredicateScratch {
 public:
  PredicateScratch(PredicateScratch&&) noexcept;
  PredicateScratch& operator=(PredicateScratch&&) noexcept;
  ~PredicateScratch();

 private:
  friend class ClusterFilter;
  struct Impl;
  PredicateScratch();
  std::unique_ptr<Impl> impl_;
};

class ClusterFilter {
 public:
  ClusterFilter(ClusterFilter&&) noexcept;
  ClusterFilter& operator=(ClusterFilter&&) noexcept;
  ~ClusterFilter();

  // Compiles the placement's predicates and validates its tolerations. The placement must
  // outlive the filter, and so must `scores` (borrowed, may be null), the
  // AddOnPlacementScores that CEL's managedCluster.scores() reads. Upstream reports each plugin's
  // misconfiguration only when that plugin receives at least one cluster, so both are kept for the
  // caller to apply: predicate_misconfiguration() when there are candidates,
  // toleration_misconfiguration() when some candidate passed the predicates.
  static ClusterFilter Compile(const model::Placement& placement,
                               const AddOnScoreIndex* scores = nullptr);
  const std::optional<Misconfiguration>& predicate_misconfiguration() const {
    return predicate_misconfiguration_;
  }
  const std::optional<Misconfiguration>& toleration_misconfiguration() const {
    return toleration_misconfiguration_;
  }

  // Predicate: nullopt when some predicate matches, else the rejection naming each
  // predicate's first failing part. Precondition: no predicate misconfiguration.
  std::optional<model::Rejection> CheckPredicates(const model::ManagedCluster& cluster) const;
  // Buffers for the two calls below; `scratch` must come from this filter.
  PredicateScratch NewScratch() const;
  // The same with the caller's buffers: no allocation unless the cluster is rejected or an
  // expression builds values.
  std::optional<model::Rejection> CheckPredicates(const model::ManagedCluster& cluster,
                                                  PredicateScratch& scratch) const;
  // The same without building a Rejection, for callers that check many clusters: true when
  // some predicate matches; otherwise false with *why set to the message CheckPredicates
  // would put in the rejection (overwritten; its capacity is reused, so a loop over
  // clusters allocates nothing per cluster once the buffers have grown).
  bool MatchPredicates(const model::ManagedCluster& cluster, PredicateScratch& scratch,
                       std::string* why) const;
  // TaintToleration. `selected_before`: whether this placement's existing decisions hold
  // the cluster (NoSelectIfNew). Allocates only for a rejection (and for a built-in taint
  // the cluster does not list).
  FilterVerdict CheckTaints(const model::ManagedCluster& cluster, bool selected_before,
                            core::Timestamp now) const;
  // Both, in upstream's order.
  FilterVerdict Check(const model::ManagedCluster& cluster, bool selected_before,
                      core::Timestamp now) const;

 private:
  ClusterFilter();
  struct CelState;

  const model::Placement* placement_ = nullptr;
  std::unique_ptr<CelState> cel_;  // null when no predicate has CEL expressions
  std::optional<Misconfiguration> predicate_misconfiguration_;
  std::optional<Misconfiguration> toleration_misconfiguration_;
};

}  // namespace berth::placement
