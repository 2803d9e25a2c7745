#include "queueing/fair_sharing_iterator.h"

#include <algorithm>

#include "core/check.h"

namespace berth::queueing {

void FairSharingIterator::Reset(std::vector<Nominee> nominees) {
  const QuotaTree& tree = state_.tree();
  slots_.clear();
  slots_.reserve(nominees.size());
  for (size_t i = 0; i < nominees.size(); ++i) {
    Slot s;
    s.root = tree.Root(nominees[i].cq);
    s.n = std::move(nominees[i]);
    s.index = i;
    slots_.push_back(std::move(s));
  }
  std::sort(slots_.begin(), slots_.end(), [](const Slot& a, const Slot& b) {
    if (a.root != b.root) return a.root < b.root;
    return a.n.cq < b.n.cq;
  });
  slot_of_cq_.assign(state_.setup().cqs.size(), -1);
  for (size_t i = 0; i < slots_.size(); ++i) {
    // One head per ClusterQueue per cycle (Kueue's heads()).
    BERTH_CHECK(slot_of_cq_[static_cast<size_t>(slots_[i].n.cq)] < 0,
                "two nominees of one ClusterQueue in a cycle");
    slot_of_cq_[static_cast<size_t>(slots_[i].n.cq)] = static_cast<int32_t>(i);
  }
  remaining_ = slots_.size();
  cursor_ = 0;
}

void FairSharingIterator::Compute(Slot& s) {
  // Kueue simulates the admission (usage bubbles up through local quota), reads the share of
  // the queue and of every cohort below the root, and reverts.
  const QuotaTree& tree = state_.tree();
  s.shares.clear();
  state_.AddUsage(s.n.cq, s.n.usage);
  Drs d = fs_.Share(tree, s.n.cq);
  for (int32_t p = tree.parent(s.n.cq); p != QuotaTree::kNoParent; p = tree.parent(p)) {
    s.shares.emplace_back(p, d);
    if (tree.HasParent(p)) d = fs_.Share(tree, p);
  }
  state_.RemoveUsage(s.n.cq, s.n.usage);
  s.dirty = false;
}

const Drs& FairSharingIterator::ShareAt(const Slot& s, int32_t parent) const {
  for (const auto& [p, d] : s.shares) {
    if (p == parent) return d;
  }
  BERTH_CHECK(false, "tournament compares a nominee outside its cohort path");
  return s.shares.front().second;
}

bool FairSharingIterator::Less(const Slot& a, const Slot& b, int32_t parent) const {
  const Drs& da = ShareAt(a, parent);
  const Drs& db = ShareAt(b, parent);
  // FairSharingPrioritizeNonBorrowing (beta, on).
  const bool ba = da.BorrowingOn(a.n.usage);
  const bool bb = db.BorrowingOn(b.n.usage);
  if (ba != bb) return !ba;
  if (const int c = CompareDrs(da, db); c != 0) return c < 0;
  const WorkloadInfo& ia = state_.info(a.n.wl);
  const WorkloadInfo& ib = state_.info(b.n.wl);
  if (ia.priority != ib.priority) return ia.priority > ib.priority;
  if (ia.queue_timestamp != ib.queue_timestamp) return ia.queue_timestamp < ib.queue_timestamp;
  // Upstream leaves full ties to map order; berth breaks them by UID then index.
  const std::string& ua = state_.workload(a.n.wl).meta.uid;
  const std::string& ub = state_.workload(b.n.wl).meta.uid;
  if (ua != ub) return ua < ub;
  return a.n.wl < b.n.wl;
}

int32_t FairSharingIterator::Best(int32_t node) const {
  if (fs_.IsClusterQueue(node)) {
    const int32_t s = slot_of_cq_[static_cast<size_t>(node)];
    return (s >= 0 && !slots_[static_cast<size_t>(s)].popped) ? s : -1;
  }
  int32_t best = -1;
  for (int32_t child : fs_.children(node)) {
    const int32_t c = Best(child);
    if (c < 0) continue;
    if (best < 0 || Less(slots_[static_cast<size_t>(c)], slots_[static_cast<size_t>(best)], node)) {
      best = c;
    }
  }
  return best;
}

size_t FairSharingIterator::Pop() {
  BERTH_CHECK(remaining_ > 0, "Pop on an empty FairSharingIterator");
  while (slots_[cursor_].popped) ++cursor_;
  Slot& first = slots_[cursor_];
  int32_t chosen = static_cast<int32_t>(cursor_);
  if (state_.tree().HasParent(first.n.cq)) {
    const int32_t root = first.root;
    for (size_t i = cursor_; i < slots_.size() && slots_[i].root == root; ++i) {
      if (!slots_[i].popped && slots_[i].dirty) Compute(slots_[i]);
    }
    chosen = Best(root);
  }
  Slot& s = slots_[static_cast<size_t>(chosen)];
  s.popped = true;
  --remaining_;
  return s.index;
}

void FairSharingIterator::UsageChanged(int32_t cq) {
  const QuotaTree& tree = state_.tree();
  if (!tree.HasParent(cq)) return;
  const int32_t root = tree.Root(cq);
  auto it = std::lower_bound(slots_.begin(), slots_.end(), root,
                             [](const Slot& s, int32_t r) { return s.root < r; });
  for (; it != slots_.end() && it->root == root; ++it) {
    if (it->popped || it->dirty) continue;
    // A nominee's cached shares read the usage of the nodes on its path below the root;
    // those change only if `cq` lies under one of them.
    const int32_t lca = tree.CommonAncestor(it->n.cq, cq);
    if (lca != QuotaTree::kNoParent && lca != root) it->dirty = true;
  }
}

const Drs* FairSharingIterator::ShareAtForTest(size_t i, int32_t parent) const {
  for (const Slot& s : slots_) {
    if (s.index != i || s.dirty) continue;
    for (const auto& [p, d] : s.shares) {
      if (p == parent) return &d;
    }
  }
  return nullptr;
}

}  // namespace berth::queueing
