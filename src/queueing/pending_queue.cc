#include "queueing/pending_queue.h"

#include <algorithm>

namespace berth::queueing {

bool PendingQueue::Before(int32_t a, int32_t b) const {
  const WorkloadInfo& ia = state_->info(a);
  const WorkloadInfo& ib = state_->info(b);
  if (ia.priority != ib.priority) return ia.priority > ib.priority;
  if (ia.queue_timestamp != ib.queue_timestamp) return ia.queue_timestamp < ib.queue_timestamp;
  const std::string& ua = state_->workload(a).meta.uid;
  const std::string& ub = state_->workload(b).meta.uid;
  if (ua != ub) return ua < ub;
  return a < b;
}

bool PendingQueue::GroupOrder::operator()(int32_t a, int32_t b) const {
  // AFS: lower LocalQueue usage first (queueOrderingFunc), before priority and age.
  const double ua = q->groups_[static_cast<size_t>(a)].usage;
  const double ub = q->groups_[static_cast<size_t>(b)].usage;
  if (ua != ub) return ua < ub;
  const int32_t ta = q->Top(a);
  const int32_t tb = q->Top(b);
  if (ta == tb) return a < b;
  return q->Before(ta, tb);
}

int32_t PendingQueue::GroupOf(int32_t wl) {
  if (afs_ == nullptr) {
    auto [it, inserted] =
        group_by_key_.emplace(state_->info(wl).equivalence, static_cast<int32_t>(groups_.size()));
    if (inserted) groups_.emplace_back();
    return it->second;
  }
  // One LocalQueue per group, so every member shares the group's usage key and a usage change
  // never reorders a group's heap.
  const int32_t lq = afs_->LocalQueueOf(wl);
  auto [it, inserted] =
      group_by_key_.emplace(state_->info(wl).equivalence + '\x1f' + std::to_string(lq),
                            static_cast<int32_t>(groups_.size()));
  if (inserted) {
    groups_.emplace_back();
    groups_.back().usage = lq < 0 ? 0.0 : afs_->Usage(lq);
    groups_by_lq_[lq].push_back(it->second);
  }
  return it->second;
}

void PendingQueue::UsageChanged(int32_t lq) {
  if (afs_ == nullptr || lq < 0) return;
  auto it = groups_by_lq_.find(lq);
  if (it == groups_by_lq_.end()) return;
  const double usage = afs_->Usage(lq);
  for (int32_t g : it->second) {
    Group& group = groups_[static_cast<size_t>(g)];
    // Leave the set under the old key, re-enter under the new one.
    const bool listed = !group.parked && !group.heap.empty();
    if (listed) active_.erase(g);
    group.usage = usage;
    if (listed) active_.insert(g);
  }
}

void PendingQueue::Push(int32_t wl) {
  const int32_t g = GroupOf(wl);
  Group& group = groups_[static_cast<size_t>(g)];
  // The set orders groups by their head, so a group leaves the set while its head changes.
  const bool listed = !group.parked && !group.heap.empty();
  if (listed) active_.erase(g);
  group.heap.push_back(wl);
  std::push_heap(group.heap.begin(), group.heap.end(),
                 [this](int32_t a, int32_t b) { return Before(b, a); });
  ++size_;
  if (!group.parked) active_.insert(g);
}

std::optional<int32_t> PendingQueue::Pop() {
  if (sticky_) {
    const int32_t wl = *sticky_;
    sticky_.reset();
    return wl;
  }
  if (active_.empty()) return std::nullopt;
  const int32_t g = *active_.begin();
  active_.erase(active_.begin());
  Group& group = groups_[static_cast<size_t>(g)];
  std::pop_heap(group.heap.begin(), group.heap.end(),
                [this](int32_t a, int32_t b) { return Before(b, a); });
  const int32_t wl = group.heap.back();
  group.heap.pop_back();
  --size_;
  if (!group.heap.empty()) active_.insert(g);
  return wl;
}

void PendingQueue::Park(int32_t wl) {
  const int32_t g = GroupOf(wl);
  Group& group = groups_[static_cast<size_t>(g)];
  if (!group.parked && !group.heap.empty()) active_.erase(g);
  group.heap.push_back(wl);
  std::push_heap(group.heap.begin(), group.heap.end(),
                 [this](int32_t a, int32_t b) { return Before(b, a); });
  ++size_;
  if (!group.parked) {
    group.parked = true;
    parked_.push_back(g);
  }
}

size_t PendingQueue::Reactivate() {
  const size_t n = parked_.size();
  for (int32_t g : parked_) {
    groups_[static_cast<size_t>(g)].parked = false;
    if (!groups_[static_cast<size_t>(g)].heap.empty()) active_.insert(g);
  }
  parked_.clear();
  return n;
}

}  // namespace berth::queueing
