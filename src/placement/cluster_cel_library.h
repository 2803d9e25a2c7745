// ClusterCelLibrary: the CEL environment celSelector expressions compile in, as OCM's
// ManagedClusterLib (sdk-go pkg/cel/library/managedcluster.go): the variable
// `managedCluster` (dyn; bind a ManagedClusterValue) and the receiver function
// `managedCluster.scores("<AddOnPlacementScore name>")`, which returns the status.scores of
// that AddOnPlacementScore in the cluster's namespace as a list of {name, value} maps.
// ClusterFilter builds one per Placement. Not movable (programs point at the environment);
// const use is thread-safe.
#pragma once

#include <cstddef>
#include <span>

#include "cel/environment.h"
#include "cel/value.h"
#include "placement/addon_score_index.h"

namespace berth::placement {

// scores(): the cluster name comes from the receiver's metadata.name, as upstream. Like
// upstream it ignores status.validUntil, and a missing object is an evaluation error,
// "failed to get score: addonplacementscore.cluster.open-cluster-management.io \"<name>\"
// not found" (so `.all(...)` over it does not pass vacuously: the predicate fails).
class ScoresFunction final : public cel::HostFunction {
 public:
  // `index` is borrowed and may be null (no AddOnPlacementScores at all).
  explicit ScoresFunction(const AddOnScoreIndex* index) : index_(index) {}
  cel::Value Call(std::span<const cel::Value> args) const override;

 private:
  const AddOnScoreIndex* index_;
};

class ClusterCelLibrary {
 public:
  // `scores` (borrowed, may be null) answers scores(); it must outlive the library.
  explicit ClusterCelLibrary(const AddOnScoreIndex* scores);
  ClusterCelLibrary(const ClusterCelLibrary&) = delete;
  ClusterCelLibrary& operator=(const ClusterCelLibrary&) = delete;

  const cel::Environment& environment() const { return env_; }
  // The slot of `managedCluster` in environment().
  size_t cluster_slot() const { return cluster_slot_; }

 private:
  ScoresFunction scores_;
  cel::Environment env_;
  size_t cluster_slot_ = 0;
};

}  // namespace berth::placement
