// FairSharing: Kueue's dominant resource share (pkg/cache/scheduler/fair_sharing.go;
// ../shared/reference/kueue.md §12) for the ClusterQueues and Cohorts of a QuotaTree, plus
// the tree's child lists that the tournament and the fair-sharing preemptor walk. Weights
// and lendable capacity (potentialAvailable of the parent, which ignores usage) are computed
// once per run; a share reads the node's current usage, O(FRs). Built by the admission run
// when snapshot.kueue_config->fair_sharing is set; read-only afterwards; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/snapshot.h"
#include "queueing/admission_state.h"
#include "queueing/quota_tree.h"

namespace berth::queueing {

// The dominant resource share of one node. Compare with CompareDrs: a lower share is
// admitted first, a higher one is preempted first.
struct Drs {
  double ratio = 0;         // unweighted: borrowed × 1000 / lendable of the dominant resource
  double weight = 1;        // fairSharing.weight
  bool borrowing = false;   // usage above SubtreeQuota on some FR
  int32_t dominant = -1;    // dense resource index (FairSharing::ResourceName), -1 none
  std::vector<int32_t> borrowed_frs;  // FRs above SubtreeQuota, ascending

  bool ZeroWeightBorrows() const { return weight == 0 && borrowing; }
  // ratio / weight; +inf when a zero weight borrows; 0 when the ratio is 0.
  double Weighted() const;
  // status.fairSharing.weightedShare: ceil(Weighted()), INT64_MAX when infinite.
  int64_t Rounded() const;
  // True when it borrows on an FR the usage requests (amount > 0).
  bool BorrowingOn(const FrUsage& requested) const;
};

// -1, 0, 1 like Kueue's CompareDRS: two infinite shares compare by their unweighted ratio.
int CompareDrs(const Drs& a, const Drs& b);

class FairSharing {
 public:
  FairSharing(const model::Snapshot& snapshot, const QueueSetup& setup);

  // Share of `node` with its current usage plus `request` added to its own usage (not
  // bubbled up). Roots have share 0. O(FRs + resources).
  Drs Share(const QuotaTree& tree, int32_t node, const FrUsage& request = {}) const;
  // The same share of the current usage without borrowed_frs (left empty): what ordering
  // and the preemption strategies compare. Allocation-free, for the preemptor's hot loops.
  Drs ShareValue(const QuotaTree& tree, int32_t node) const;

  double weight(int32_t node) const { return weights_[static_cast<size_t>(node)]; }
  // Child ClusterQueues and Cohorts of a node, ascending node id.
  const std::vector<int32_t>& children(int32_t node) const {
    return children_[static_cast<size_t>(node)];
  }
  bool IsClusterQueue(int32_t node) const { return node < num_cqs_; }
  const std::string& ResourceName(int32_t r) const { return resource_names_[static_cast<size_t>(r)]; }

 private:
  int32_t num_cqs_ = 0;
  int32_t num_resources_ = 0;
  std::vector<double> weights_;                // per tree node
  std::vector<std::vector<int32_t>> children_;  // per tree node
  std::vector<int32_t> fr_resource_;           // FR id -> dense resource index
  std::vector<std::vector<int32_t>> resource_frs_;  // dense resource index -> FR ids
  std::vector<std::string> resource_names_;    // dense resource index -> name
  // Per tree node with children: Σ over its FRs of PotentialAvailable(node, fr), per resource.
  std::vector<int64_t> lendable_;  // [node * num_resources + r]

  // Picks the dominant resource from the per-resource borrowed amounts `borrowed(r)`.
  template <typename Borrowed>
  void Dominate(const QuotaTree& tree, int32_t node, Borrowed borrowed, Drs* drs) const;
};

}  // namespace berth::queueing
