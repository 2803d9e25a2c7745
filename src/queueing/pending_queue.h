// PendingQueue: one ClusterQueue's pending workloads (pkg/cache/queue/cluster_queue.go).
// Workloads are grouped by scheduling-equivalence key (WorkloadInfo::equivalence); each
// group is a heap ordered by effective priority (higher first), queue-order timestamp (older
// first), then UID and index for determinism, and the queue pops the best head over its
// active groups. Parking a workload (BestEffortFIFO's inadmissible set) parks its whole group,
// as Kueue's SchedulingEquivalenceHashing bulk-moves equivalent workloads; Reactivate brings
// every group back. A "sticky" slot holds a preemptor whose victims are being evicted.
// With Admission Fair Sharing (admission_fair_sharing.h) the queue orders by the usage of the
// workload's LocalQueue first (lower first): groups then never span LocalQueues, each group
// carries its LocalQueue's usage as its key, and UsageChanged re-keys only that LocalQueue's
// groups. Push/Pop O(log n), Park O(log g), Reactivate O(g log g) for g groups,
// UsageChanged O(g_lq log g). Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "queueing/admission_fair_sharing.h"
#include "queueing/admission_state.h"

namespace berth::queueing {

class PendingQueue {
 public:
  // `afs` non-null: this ClusterQueue orders by LocalQueue usage (it must outlive the queue).
  explicit PendingQueue(const AdmissionState* state, const AdmissionFairSharing* afs = nullptr)
      : state_(state), afs_(afs), active_(GroupOrder{this}) {}
  PendingQueue(const PendingQueue&) = delete;
  PendingQueue& operator=(const PendingQueue&) = delete;
  PendingQueue(PendingQueue&&) = delete;

  void Push(int32_t wl);
  // The preemptor comes back first next cycle (Kueue makes it sticky).
  void PushSticky(int32_t wl) { sticky_ = wl; }
  // The best head over the active groups (the sticky one first); nullopt when none.
  std::optional<int32_t> Pop();
  // Returns `wl` to its group and parks the group until Reactivate.
  void Park(int32_t wl);
  // Every parked group becomes active again; returns how many groups moved.
  size_t Reactivate();
  size_t size() const { return size_ + (sticky_ ? 1 : 0); }
  // LocalQueue `lq`'s usage changed (an entry penalty): its groups move to their new place.
  void UsageChanged(int32_t lq);

 private:
  struct Group {
    std::vector<int32_t> heap;  // std heap with Before() as "less important"
    bool parked = false;
    double usage = 0;  // the LocalQueue's AFS usage (0 without AFS), as last re-keyed
  };
  struct GroupOrder {
    const PendingQueue* q;
    bool operator()(int32_t a, int32_t b) const;
  };
  // True when workload a comes out before b.
  bool Before(int32_t a, int32_t b) const;
  int32_t Top(int32_t group) const { return groups_[static_cast<size_t>(group)].heap.front(); }
  int32_t GroupOf(int32_t wl);

  const AdmissionState* state_;
  const AdmissionFairSharing* afs_;
  std::vector<Group> groups_;
  std::unordered_map<std::string, int32_t> group_by_key_;
  std::set<int32_t, GroupOrder> active_;  // non-empty, not parked groups, best head first
  std::vector<int32_t> parked_;
  std::unordered_map<int32_t, std::vector<int32_t>> groups_by_lq_;  // AFS only
  std::optional<int32_t> sticky_;
  size_t size_ = 0;
};

}  // namespace berth::queueing
