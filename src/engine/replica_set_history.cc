// The history lives in the ControllerRevisions so that the hub (which plans from the store
// every cycle, keeping nothing in memory) and `berth plan` (one step from files) decide the
// same: which revision was good, which clusters took which one, and since when a feedback
// value has been what it is. Numbers and records are those dispatch::RevisionHistory keeps;
// this file only reads them from, and writes them to, the objects.
#include "engine/replica_set_history.h"

#include <algorithm>
#include <utility>

#include "dispatch/replica_set_step.h"

namespace berth::engine {
namespace {

constexpr size_t kRevisionNamePrefixMax = 223;

const char* OutcomeName(dispatch::RolloutStatus status) {
  switch (status) {
    case dispatch::RolloutStatus::kSucceeded:
      return "Succeeded";
    case dispatch::RolloutStatus::kFailed:
      return "Failed";
    case dispatch::RolloutStatus::kTimeOut:
      return "TimeOut";
    default:
      return "Progressing";
  }
}

dispatch::RolloutStatus OutcomeOf(const std::string& name) {
  if (name == "Succeeded") return dispatch::RolloutStatus::kSucceeded;
  if (name == "Failed") return dispatch::RolloutStatus::kFailed;
  if (name == "TimeOut") return dispatch::RolloutStatus::kTimeOut;
  return dispatch::RolloutStatus::kProgressing;
}

bool OwnedBy(const model::ControllerRevision& r, const model::ManifestWorkReplicaSet& mwrs) {
  if (r.cluster != mwrs.cluster || r.meta.namespace_ != mwrs.meta.namespace_) return false;
  if (r.owner_kind != "ManifestWorkReplicaSet" || r.owner_name != mwrs.meta.name) return false;
  // A revision left by an earlier MWRS of the same name (deleted, then made again) is not
  // this one's history.
  return r.owner_uid.empty() || mwrs.meta.uid.empty() || r.owner_uid == mwrs.meta.uid;
}

bool SameFeedback(const std::vector<model::FeedbackRecord>& a,
                  const std::vector<model::FeedbackRecord>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const model::FeedbackRecord& x, const model::FeedbackRecord& y) {
                      return x.name == y.name && x.value == y.value && x.at == y.at;
                    });
}

bool SameRecords(const std::vector<model::RevisionClusterRecord>& a,
                 const std::vector<model::RevisionClusterRecord>& b) {
  return std::equal(
      a.begin(), a.end(), b.begin(), b.end(),
      [](const model::RevisionClusterRecord& x, const model::RevisionClusterRecord& y) {
        return x.cluster == y.cluster && x.taken_at == y.taken_at && x.outcome == y.outcome &&
               x.outcome_at == y.outcome_at && x.detail == y.detail &&
               SameFeedback(x.feedback, y.feedback);
      });
}

}  // namespace

std::string ControllerRevisionName(const std::string& mwrs_name, const std::string& hash) {
  return mwrs_name.substr(0, kRevisionNamePrefixMax) + "-" + hash;
}

ReplicaSetHistory::ReplicaSetHistory(const model::Snapshot& planned,
                                     const model::ManifestWorkReplicaSet& mwrs) {
  for (size_t i = 0; i < planned.controller_revisions.size(); ++i) {
    const model::ControllerRevision& r = planned.controller_revisions[i];
    if (!OwnedBy(r, mwrs) || r.template_hash.empty()) continue;
    owned_.push_back(static_cast<int32_t>(i));
    dispatch::Revision revision;
    revision.number = r.revision;
    revision.spec_hash = r.template_hash;
    revision.created_at_s = r.meta.creation_timestamp.unix_s;
    if (auto cause = r.meta.annotations.find(model::kChangeCauseAnnotation);
        cause != r.meta.annotations.end()) {
      revision.change_cause = cause->second;
    }
    for (const model::RevisionClusterRecord& c : r.clusters) {
      revision.clusters.push_back(
          {c.cluster, c.taken_at.unix_s, OutcomeOf(c.outcome), c.outcome_at.unix_s, c.detail});
      feedback_[{r.template_hash, c.cluster}] = c.feedback;
    }
    if (!r.rolled_back_reason.empty()) {
      rolled_back_[r.template_hash] = r.rolled_back_reason;
      revision.rolled_back = true;
    }
    // Of two revisions of one template, the higher number wins (RevisionHistory::Load).
    auto kept = stored_.find(r.template_hash);
    if (kept == stored_.end() ||
        planned.controller_revisions[static_cast<size_t>(kept->second)].revision < r.revision) {
      stored_[r.template_hash] = static_cast<int32_t>(i);
    }
    history_.Load(std::move(revision));
  }
}

std::optional<int32_t> ReplicaSetHistory::StoredRevision(const std::string& hash) const {
  auto it = stored_.find(hash);
  if (it == stored_.end()) return std::nullopt;
  return it->second;
}

void ReplicaSetHistory::EnsureTaken(const std::string& cluster, int64_t at_s) {
  const dispatch::Revision* current = history_.Current();
  if (current == nullptr || current->FindCluster(cluster) != nullptr) return;
  // A fresh take starts a fresh feedback record: values seen under an earlier rollout of
  // the same template are not this one's.
  feedback_.erase({current->spec_hash, cluster});
  (void)history_.RecordTaken(current->number, cluster, at_s);
}

void ReplicaSetHistory::SetOutcome(const std::string& cluster, dispatch::RolloutStatus outcome,
                                   int64_t at_s, const std::string& detail) {
  const dispatch::Revision* current = history_.Current();
  if (current == nullptr) return;
  EnsureTaken(cluster, at_s);
  const dispatch::RevisionCluster* recorded = current->FindCluster(cluster);
  if (recorded != nullptr && recorded->outcome == outcome) {
    if (recorded->detail == detail) return;
    at_s = recorded->outcome_at_s;
  }
  (void)history_.RecordOutcome(current->number, cluster, outcome, at_s, detail);
}

std::vector<dispatch::FeedbackObservation> ReplicaSetHistory::Observe(const std::string& cluster,
                                                                      const std::string& name,
                                                                      const std::string& value,
                                                                      int64_t first_at_s,
                                                                      int64_t now_s) {
  std::vector<dispatch::FeedbackObservation> out;
  const dispatch::Revision* current = history_.Current();
  if (current == nullptr) return out;
  std::vector<model::FeedbackRecord>& records = feedback_[{current->spec_hash, cluster}];
  const model::FeedbackRecord* last = nullptr;
  size_t of_name = 0;
  for (const model::FeedbackRecord& r : records) {
    if (r.name != name) continue;
    last = &r;
    ++of_name;
  }
  if (last == nullptr || last->value != value) {
    records.push_back({name, value, core::Timestamp{last == nullptr ? first_at_s : now_s}});
    ++of_name;
  }
  // Only the newest few changes per name are kept: an older start of a run is forgotten,
  // which can only delay a rollback, never cause one.
  for (auto it = records.begin(); of_name > kMaxFeedbackRecords && it != records.end();) {
    if (it->name == name) {
      it = records.erase(it);
      --of_name;
    } else {
      ++it;
    }
  }
  for (const model::FeedbackRecord& r : records) {
    if (r.name == name) out.push_back({cluster, name, r.value, r.at.unix_s});
  }
  // The value stands now too: a run lasts at least until the latest sample.
  out.push_back({cluster, name, value, now_s});
  return out;
}

void ReplicaSetHistory::MarkRolledBack(int64_t number, const std::string& reason) {
  if (const dispatch::Revision* r = history_.Find(number)) {
    rolled_back_[r->spec_hash] = reason;
    (void)history_.RecordRolledBack(number);
  }
}

void ReplicaSetHistory::Write(const model::ManifestWorkReplicaSet& mwrs,
                              const model::WorkSpecSource& template_from,
                              const std::vector<model::ManifestMeta>& template_manifests,
                              model::Snapshot& planned,
                              std::vector<model::ObjectDeletion>* deleted) {
  const dispatch::Revision* current = history_.Current();
  std::map<std::string, bool> kept;
  for (const dispatch::Revision& revision : history_.List()) {
    kept[revision.spec_hash] = true;
    std::vector<model::RevisionClusterRecord> records;
    for (const dispatch::RevisionCluster& c : revision.clusters) {
      model::RevisionClusterRecord record;
      record.cluster = c.cluster;
      record.taken_at = core::Timestamp{c.taken_at_s};
      record.outcome = OutcomeName(c.outcome);
      record.outcome_at = core::Timestamp{c.outcome_at_s};
      record.detail = c.detail;
      if (auto f = feedback_.find({revision.spec_hash, c.cluster}); f != feedback_.end()) {
        record.feedback = f->second;
      }
      records.push_back(std::move(record));
    }
    std::string reason;
    if (auto r = rolled_back_.find(revision.spec_hash); r != rolled_back_.end()) reason = r->second;
    auto stored = stored_.find(revision.spec_hash);
    if (stored == stored_.end()) {
      model::ControllerRevision created;
      created.meta.name = ControllerRevisionName(mwrs.meta.name, revision.spec_hash);
      created.meta.namespace_ = mwrs.meta.namespace_;
      created.meta.labels[model::kControllerRevisionHashLabel] = revision.spec_hash;
      created.meta.labels[model::kMwrsOwnerLabel] =
          dispatch::ManifestWorkReplicaSetKey(mwrs.meta.namespace_, mwrs.meta.name);
      if (!revision.change_cause.empty()) {
        created.meta.annotations[model::kChangeCauseAnnotation] = revision.change_cause;
      }
      created.revision = revision.number;
      created.owner_kind = "ManifestWorkReplicaSet";
      created.owner_name = mwrs.meta.name;
      created.owner_uid = mwrs.meta.uid;
      created.template_hash = revision.spec_hash;
      created.template_manifests = template_manifests;
      created.clusters = std::move(records);
      created.rolled_back_reason = std::move(reason);
      created.created = true;
      created.template_from = template_from;
      created.cluster = mwrs.cluster;
      stored_[revision.spec_hash] = static_cast<int32_t>(planned.controller_revisions.size());
      planned.controller_revisions.push_back(std::move(created));
      continue;
    }
    model::ControllerRevision& r =
        planned.controller_revisions[static_cast<size_t>(stored->second)];
    // Renumbered to be the current revision again: a new rollout of it, whatever happened
    // to it before.
    if (current != nullptr && revision.number == current->number && r.revision != revision.number) {
      reason.clear();
    }
    if (r.revision == revision.number && SameRecords(r.clusters, records) &&
        r.rolled_back_reason == reason) {
      continue;
    }
    r.revision = revision.number;
    r.clusters = std::move(records);
    r.rolled_back_reason = std::move(reason);
    r.changed = true;
  }
  for (int32_t index : owned_) {
    const model::ControllerRevision& r = planned.controller_revisions[static_cast<size_t>(index)];
    const bool is_kept = kept.count(r.template_hash) > 0 && stored_.at(r.template_hash) == index;
    if (is_kept) continue;
    deleted->push_back({"apps/v1", "ControllerRevision", r.meta.namespace_, r.meta.name,
                        "ManifestWorkReplicaSet " + mwrs.meta.namespace_ + "/" + mwrs.meta.name +
                            " keeps " + std::to_string(history_.limit()) +
                            " old revisions (revision " + std::to_string(r.revision) + ")"});
  }
}

}  // namespace berth::engine
