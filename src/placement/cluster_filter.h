// ClusterFilter: upstream's two filters, Predicate then TaintToleration
// (ocm pkg/placement/plugins/{predicate,tainttoleration}), compiled once per Placement and
// asked per cluster. Compile reports what upstream calls Misconfigured (a CEL expression
// that does not compile, an empty-key toleration without Exists, Exists with a value).
// Immutable after Compile; Check is const and thread-compatible.
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

namespace berth::placement {

inline constexpr const char* kPredicatePlugin = "Predicate";
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

class ClusterFilter {
 public:
  ClusterFilter(ClusterFilter&&) noexcept;
  ClusterFilter& operator=(ClusterFilter&&) noexcept;
  ~ClusterFilter();

  // Compiles the placement's predicates and validates its tolerations. The placement must
  // outlive the filter. Upstream reports each plugin's misconfiguration only when that
  // plugin receives at least one cluster, so both are kept for the caller to apply:
  // predicate_misconfiguration() when there are candidates, toleration_misconfiguration()
  // when some candidate passed the predicates.
  static ClusterFilter Compile(const model::Placement& placement);
  const std::optional<Misconfiguration>& predicate_misconfiguration() const {
    return predicate_misconfiguration_;
  }
  const std::optional<Misconfiguration>& toleration_misconfiguration() const {
    return toleration_misconfiguration_;
  }

  // Predicate: nullopt when some predicate matches, else the rejection naming each
  // predicate's first failing part. Precondition: no predicate misconfiguration.
  std::optional<model::Rejection> CheckPredicates(const model::ManagedCluster& cluster) const;
  // TaintToleration. `selected_before`: whether this placement's existing decisions hold
  // the cluster (NoSelectIfNew).
  FilterVerdict CheckTaints(const model::ManagedCluster& cluster, bool selected_before,
                            core::Timestamp now) const;
  // Both, in upstream's order.
  FilterVerdict Check(const model::ManagedCluster& cluster, bool selected_before,
                      core::Timestamp now) const;

 private:
  ClusterFilter();
  struct CelState;

  const model::Placement* placement_ = nullptr;
  bool any_claim_selector_ = false;
  std::unique_ptr<CelState> cel_;  // null when no predicate has CEL expressions
  std::optional<Misconfiguration> predicate_misconfiguration_;
  std::optional<Misconfiguration> toleration_misconfiguration_;
};

}  // namespace berth::placement
