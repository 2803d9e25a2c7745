// FitIndex: for one request signature (a profile and a pod's resource requests, shared by
// every pod of a template), which nodes the pod fits and how NodeResourcesFit and
// NodeResourcesBalancedAllocation score them, kept per node class:
//   - per node, the NodeResourcesFit failure bits (0 = fits);
//   - per class, how many nodes have each failure bit (the unschedulable message);
//   - per class, a max-heap of (weighted resource score, name rank) over the nodes that fit,
//     with lazy deletion: an entry is valid while its node's version is unchanged.
// Refresh() catches up with ClusterState's change log: each changed node is re-evaluated
// once and pushed again if it fits, so the valid heap entries are exactly the fitting nodes
// at their current scores (docs/binding.md has the argument). Cost: O(changes x log n) per
// refresh, O(n) for a rebuild when far behind. Not thread-safe.
// For pods with ResourceClaims the index may also require `min_free_devices`: a node with
// fewer (ClusterState::free_devices) is kept out of the heaps, as the device allocator
// would reject it, but its failure bits and counts stay NodeResourcesFit's alone.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "binding/framework/cluster_state.h"
#include "binding/framework/node_classes.h"
#include "binding/framework/pod_resources.h"
#include "binding/framework/resolved_profile.h"
#include "binding/framework/resource_table.h"
#include "binding/plugins/node_resources_fit.h"
#include "binding/plugins/resource_scorer.h"

namespace berth::binding {

class FitIndex {
 public:
  struct Entry {
    int64_t score = 0;  // weighted NodeResourcesFit + BalancedAllocation
    int32_t rank = 0;   // node name order
    int32_t node = -1;
    uint32_t version = 0;
  };

  // `check_fit`: the profile runs NodeResourcesFit's filter (else every node fits).
  // `min_free_devices`: heaps hold only nodes with at least that many free devices.
  FitIndex(const PodResources& pod, const ResolvedProfile& profile, const ResourceTable& resources,
           const NodeClasses& classes, bool check_fit, int32_t min_free_devices = 0);

  void Refresh(const ClusterState& state);

  // The best fitting node of class `c` (highest score, then first name), or nullptr when no
  // node of the class fits. Valid until the next call on this index.
  const Entry* Best(int32_t c, const ClusterState& state);

  // Probing nodes best first: sets the best entry of class `c` aside, so that Best(c) gives
  // the next one, until RestoreSetAside() puts every entry set aside back (call it before
  // the state changes; the entries are then as valid as when set aside). Precondition:
  // Best(c) returned an entry.
  void SetAsideBest(int32_t c);
  void RestoreSetAside();

  // Failure bits: bit 0 "Too many pods", bit i+1 the i-th item of request().
  const FitRequest& request() const { return request_; }
  int num_bits() const { return static_cast<int>(request_.items.size()) + 1; }
  // Nodes of class `c` whose failures include `bit`.
  int32_t FailureCount(int32_t c, int bit) const {
    return failure_counts_[static_cast<size_t>(c) * static_cast<size_t>(num_bits()) +
                           static_cast<size_t>(bit)];
  }

  // LRU bookkeeping for the owner.
  uint64_t last_use = 0;

 private:
  void Rebuild(const ClusterState& state);
  void Update(const ClusterState& state, model::NodeIndex n);
  int64_t Score(const NodeLoad& load) const;
  void Count(int32_t c, uint64_t failures, int delta);
  void Compact(int32_t c, const ClusterState& state);

  PodResources pod_;
  FitRequest request_;
  const NodeClasses& classes_;
  ResourceScorer scorer_;
  bool check_fit_;
  int32_t min_free_devices_;
  int64_t fit_weight_;
  int64_t balanced_weight_;  // 0 when the pod skips BalancedAllocation

  bool built_ = false;
  size_t log_pos_ = 0;
  uint32_t stamp_ = 0;
  std::vector<uint32_t> seen_;             // per node: stamp_ of the refresh that handled it
  std::vector<uint64_t> failures_;         // per node
  std::vector<int32_t> failure_counts_;    // per class x bit
  std::vector<std::vector<Entry>> heaps_;  // per class
  std::vector<std::pair<int32_t, Entry>> set_aside_;  // (class, entry), SetAsideBest
};

}  // namespace berth::binding
