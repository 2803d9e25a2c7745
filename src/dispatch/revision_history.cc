// Numbering follows Deployment's (kubernetes pkg/controller/deployment/sync.go and
// rollback.go): a revision number is never reused, and rolling back to an old template gives
// that template the next number instead of resurrecting the old one, so "the current
// revision" is always the highest number and history reads in the order things happened.
#include "dispatch/revision_history.h"

#include <algorithm>
#include <utility>

namespace berth::dispatch {

bool Revision::Good() const {
  if (rolled_back || clusters.empty()) return false;
  return std::all_of(clusters.begin(), clusters.end(), [](const RevisionCluster& c) {
    return c.outcome == RolloutStatus::kSucceeded;
  });
}

const RevisionCluster* Revision::FindCluster(std::string_view cluster) const {
  // Appended entries are indexed as they are met; a shorter list (replaced) is indexed anew.
  if (cluster_index_.size() > clusters.size()) cluster_index_.clear();
  for (size_t i = cluster_index_.size(); i < clusters.size(); ++i) {
    cluster_index_.emplace(clusters[i].cluster, i);
  }
  auto it = cluster_index_.find(std::string(cluster));
  if (it == cluster_index_.end()) return nullptr;
  if (it->second < clusters.size() && clusters[it->second].cluster == cluster) return &clusters[it->second];
  // The list was replaced by one as long or longer: index it anew.
  cluster_index_.clear();
  for (size_t i = 0; i < clusters.size(); ++i) cluster_index_.emplace(clusters[i].cluster, i);
  it = cluster_index_.find(std::string(cluster));
  return it == cluster_index_.end() ? nullptr : &clusters[it->second];
}

RevisionCluster* Revision::FindCluster(std::string_view cluster) {
  return const_cast<RevisionCluster*>(std::as_const(*this).FindCluster(cluster));
}

std::map<std::string, int64_t> Revision::TakenAt() const {
  std::map<std::string, int64_t> out;
  for (const RevisionCluster& c : clusters) out[c.cluster] = c.taken_at_s;
  return out;
}

int64_t RevisionHistory::Record(const std::string& spec_hash, int64_t now_s,
                                std::string change_cause) {
  if (!revisions_.empty() && revisions_.back().spec_hash == spec_hash) {
    if (!change_cause.empty()) revisions_.back().change_cause = std::move(change_cause);
    return revisions_.back().number;
  }
  Revision next;
  auto old = std::find_if(revisions_.begin(), revisions_.end(),
                          [&](const Revision& r) { return r.spec_hash == spec_hash; });
  if (old != revisions_.end()) {
    next.change_cause = std::move(old->change_cause);
    revisions_.erase(old);
  }
  next.number = ++last_number_;
  next.spec_hash = spec_hash;
  next.created_at_s = now_s;
  if (!change_cause.empty()) next.change_cause = std::move(change_cause);
  revisions_.push_back(std::move(next));
  Prune();
  return revisions_.back().number;
}

void RevisionHistory::Load(Revision revision) {
  // One revision per hash: of two stored revisions of one template (a write that raced a
  // renumbering), the higher number is the one the template was last rolled out as.
  for (const Revision& r : revisions_) {
    if (r.spec_hash == revision.spec_hash && r.number > revision.number) return;
  }
  std::erase_if(revisions_, [&](const Revision& r) {
    return r.number == revision.number || r.spec_hash == revision.spec_hash;
  });
  last_number_ = std::max(last_number_, revision.number);
  auto at = std::upper_bound(revisions_.begin(), revisions_.end(), revision.number,
                             [](int64_t n, const Revision& r) { return n < r.number; });
  revisions_.insert(at, std::move(revision));
  Prune();
}

void RevisionHistory::Prune() {
  // The current revision is not counted against the limit.
  while (revisions_.size() > limit_ + 1) revisions_.erase(revisions_.begin());
}

Revision* RevisionHistory::MutableFind(int64_t number) {
  for (Revision& r : revisions_) {
    if (r.number == number) return &r;
  }
  return nullptr;
}

core::Status RevisionHistory::RecordTaken(int64_t number, const std::string& cluster,
                                          int64_t at_s) {
  Revision* r = MutableFind(number);
  if (r == nullptr)
    return core::NotFound("revision " + std::to_string(number) + " is not in history");
  RevisionCluster entry{cluster, at_s, RolloutStatus::kProgressing, at_s, ""};
  if (RevisionCluster* c = r->FindCluster(cluster)) {
    *c = std::move(entry);
    return core::OkStatus();
  }
  r->clusters.push_back(std::move(entry));
  return core::OkStatus();
}

core::Status RevisionHistory::RecordOutcome(int64_t number, const std::string& cluster,
                                            RolloutStatus outcome, int64_t at_s,
                                            std::string detail) {
  Revision* r = MutableFind(number);
  if (r == nullptr)
    return core::NotFound("revision " + std::to_string(number) + " is not in history");
  if (RevisionCluster* c = r->FindCluster(cluster)) {
    c->outcome = outcome;
    c->outcome_at_s = at_s;
    c->detail = std::move(detail);
    return core::OkStatus();
  }
  r->clusters.push_back(RevisionCluster{cluster, at_s, outcome, at_s, std::move(detail)});
  return core::OkStatus();
}

core::Status RevisionHistory::RecordRolledBack(int64_t number) {
  Revision* r = MutableFind(number);
  if (r == nullptr)
    return core::NotFound("revision " + std::to_string(number) + " is not in history");
  r->rolled_back = true;
  return core::OkStatus();
}

const Revision* RevisionHistory::Find(int64_t number) const {
  for (const Revision& r : revisions_) {
    if (r.number == number) return &r;
  }
  return nullptr;
}

const Revision* RevisionHistory::Current() const {
  return revisions_.empty() ? nullptr : &revisions_.back();
}

const Revision* RevisionHistory::Previous() const {
  return revisions_.size() < 2 ? nullptr : &revisions_[revisions_.size() - 2];
}

const Revision* RevisionHistory::LastGood() const {
  for (size_t i = revisions_.size(); i-- > 1;) {
    if (revisions_[i - 1].Good()) return &revisions_[i - 1];
  }
  return nullptr;
}

core::Result<const Revision*> RevisionHistory::UndoTarget(int64_t to_revision) const {
  const Revision* current = Current();
  if (current == nullptr) return core::NotFound("no rollout history found");
  if (to_revision == 0) {
    const Revision* previous = Previous();
    if (previous == nullptr) {
      return core::NotFound("no revision before revision " + std::to_string(current->number) +
                            " in history");
    }
    return previous;
  }
  if (to_revision == current->number) {
    return core::FailedPrecondition("revision " + std::to_string(to_revision) +
                                    " is the current revision");
  }
  if (const Revision* r = Find(to_revision)) return r;
  std::string kept;
  for (const Revision& r : revisions_) {
    if (!kept.empty()) kept += ", ";
    kept += std::to_string(r.number);
  }
  return core::NotFound("revision " + std::to_string(to_revision) +
                        " is not in history (kept: " + kept + ")");
}

}  // namespace berth::dispatch
