// QuotaTree: Kueue's resource nodes (pkg/cache/scheduler/resource_node.go) for the
// ClusterQueues and Cohorts of one cluster, over dense (flavor, resource) ids ("FR ids").
// Holds nominal quota, borrowing/lending limits, SubtreeQuota, localQuota and usage, and
// answers available / potentialAvailable / borrowing height. Usage changes are incremental:
// AddUsage and RemoveUsage walk one path to the root, O(depth). Built by QueueSetup; owned
// by the admission run; not thread-safe. Sums saturate (model::SaturatingAdd), and a saturated
// usage stays saturated when usage is removed, so absurd quotas or requests never wrap.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "model/resources.h"

namespace berth::queueing {

class QuotaTree {
 public:
  static constexpr int32_t kNoParent = -1;

  QuotaTree() = default;
  QuotaTree(int32_t num_nodes, int32_t num_frs);

  // Structure and quota; call Finalize() once after the last of these.
  void SetParent(int32_t node, int32_t parent) { parent_[node] = parent; }
  void SetQuota(int32_t node, int32_t fr, int64_t nominal, std::optional<int64_t> borrowing_limit,
                std::optional<int64_t> lending_limit);
  // Computes heights, SubtreeQuota and localQuota bottom-up. The parent links must form a
  // forest (QueueSetup breaks cohort cycles first).
  void Finalize();

  int32_t num_nodes() const { return static_cast<int32_t>(parent_.size()); }
  int32_t num_frs() const { return num_frs_; }
  int32_t parent(int32_t node) const { return parent_[node]; }
  bool HasParent(int32_t node) const { return parent_[node] != kNoParent; }
  int32_t Root(int32_t node) const;
  // Distance to the furthest leaf below; a ClusterQueue is 0.
  int32_t Height(int32_t node) const { return height_[node]; }
  // Lowest common ancestor, or kNoParent when the nodes are in different trees.
  int32_t CommonAncestor(int32_t a, int32_t b) const;

  int64_t Nominal(int32_t node, int32_t fr) const { return nominal_[At(node, fr)]; }
  std::optional<int64_t> BorrowingLimit(int32_t node, int32_t fr) const;
  int64_t SubtreeQuota(int32_t node, int32_t fr) const { return subtree_[At(node, fr)]; }
  int64_t LocalQuota(int32_t node, int32_t fr) const { return local_[At(node, fr)]; }
  int64_t Usage(int32_t node, int32_t fr) const { return usage_[At(node, fr)]; }
  int64_t LocalAvailable(int32_t node, int32_t fr) const;

  // What the node could still take now: its local headroom plus what its parent can give,
  // capped by its borrowingLimit. May be negative after a quota shrink. O(depth).
  int64_t Available(int32_t node, int32_t fr) const;
  // The most the node could ever take, ignoring usage. O(depth).
  int64_t PotentialAvailable(int32_t node, int32_t fr) const;
  // Usage above SubtreeQuota ("borrowing"), with an extra request v.
  bool BorrowingWith(int32_t node, int32_t fr, int64_t v) const {
    return SubtreeQuota(node, fr) < model::SaturatingAdd(Usage(node, fr), v);
  }
  bool IsBorrowing(int32_t node, int32_t fr) const { return BorrowingWith(node, fr, 0); }
  // Kueue's FindHeightOfLowestSubtreeThatFits: {0, HasParent} when the request does not
  // borrow; else the height of the lowest ancestor whose subtree holds it, with .second true
  // when that ancestor is below the root (the request could be met by reclaiming inside a
  // subtree); {root height, false} when nothing holds it.
  std::pair<int32_t, bool> LowestSubtreeThatFits(int32_t node, int32_t fr, int64_t v) const;

  // Usage bubbles to the parent for the part beyond the node's local headroom.
  void AddUsage(int32_t node, int32_t fr, int64_t v);
  void RemoveUsage(int32_t node, int32_t fr, int64_t v);

 private:
  size_t At(int32_t node, int32_t fr) const {
    return static_cast<size_t>(node) * static_cast<size_t>(num_frs_) + static_cast<size_t>(fr);
  }

  int32_t num_frs_ = 0;
  std::vector<int32_t> parent_;
  std::vector<int32_t> height_;
  std::vector<int32_t> depth_;
  // Node-major [node * num_frs + fr].
  std::vector<int64_t> nominal_;
  std::vector<int64_t> borrowing_limit_;  // kUnset when none
  std::vector<int64_t> lending_limit_;    // kUnset when none
  std::vector<int64_t> subtree_;
  std::vector<int64_t> local_;
  std::vector<int64_t> usage_;
};

}  // namespace berth::queueing
