// FairSharingIterator: the order in which one cycle's nominees are processed when fair
// sharing is on (pkg/scheduler/fair_sharing_iterator.go; ../shared/reference/kueue.md §12).
// Per cohort tree a tournament: every cohort compares the best nominee of each child by
// (FairSharingPrioritizeNonBorrowing) whether the child borrows on the FRs the nominee
// requests, the child's DRS after admitting the nominee, priority, then age; the winner at
// the root is popped. Nominees of ClusterQueues without a cohort come out directly. Trees
// are served one after another in ascending root id (upstream takes them in map order).
// Each Pop reads the tree as earlier entries left it; a nominee's DRS values are cached and
// recomputed only when UsageChanged reports a queue sharing a subtree below the root, so a
// pop costs one walk of the tree. Used by AdmissionScheduler; not thread-safe.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "queueing/admission_state.h"
#include "queueing/fair_sharing.h"

namespace berth::queueing {

class FairSharingIterator {
 public:
  struct Nominee {
    int32_t wl = -1;
    int32_t cq = -1;
    FrUsage usage;  // what admitting it would add to its ClusterQueue
  };

  FairSharingIterator(AdmissionState& state, const FairSharing& fair_sharing)
      : state_(state), fs_(fair_sharing) {}

  // Starts a cycle over `nominees` (at most one per ClusterQueue).
  void Reset(std::vector<Nominee> nominees);
  bool Empty() const { return remaining_ == 0; }
  // The index (into the Reset vector) of the next nominee, decided on the current tree.
  // Precondition: !Empty().
  size_t Pop();
  // The usage of ClusterQueue `cq` changed (admitted, reserved, victim released): cached
  // shares of nominees whose path below the root it affects are recomputed at the next Pop.
  void UsageChanged(int32_t cq);

  // Test hook: the cached share of nominee i as seen by cohort `parent` (after Pop computed it).
  const Drs* ShareAtForTest(size_t i, int32_t parent) const;

 private:
  struct Slot {
    Nominee n;
    size_t index = 0;  // into the Reset vector
    int32_t root = -1;
    bool popped = false;
    bool dirty = true;
    // (cohort on the path, share of its child on the path with the nominee admitted).
    std::vector<std::pair<int32_t, Drs>> shares;
  };

  void Compute(Slot& s);
  const Drs& ShareAt(const Slot& s, int32_t parent) const;
  bool Less(const Slot& a, const Slot& b, int32_t parent) const;
  int32_t Best(int32_t node) const;  // slot index, -1 none

  AdmissionState& state_;
  const FairSharing& fs_;
  std::vector<Slot> slots_;          // ascending (root, cq)
  std::vector<int32_t> slot_of_cq_;  // ClusterQueue -> slot, -1 none
  size_t remaining_ = 0;
  size_t cursor_ = 0;  // first slot that may not be popped yet
};

}  // namespace berth::queueing
