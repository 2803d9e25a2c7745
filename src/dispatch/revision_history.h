// RevisionHistory: the numbered revisions of one work spec (a ManifestWorkReplicaSet's
// template, or any spec berth rolls out across clusters), which clusters took each one, and
// how it went there. It answers what `kubectl rollout history` and `kubectl rollout undo`
// ask of a Deployment's ReplicaSets: list, find by number, the previous one, the last good
// one, bounded by a revisionHistoryLimit. The hub keeps one per rolled-out spec and feeds it
// from the works' statuses; the rollback policy (rollback_policy.h) reads it. A plain value;
// thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "dispatch/rollout_strategy.h"

namespace berth::dispatch {

// Deployment's default spec.revisionHistoryLimit: old revisions kept besides the current.
inline constexpr size_t kDefaultRevisionHistoryLimit = 10;

// One cluster a revision reached.
struct RevisionCluster {
  std::string cluster;
  int64_t taken_at_s = 0;  // when the cluster's work got this revision's spec
  // The last outcome recorded: Progressing when taken, then Succeeded, Failed or TimeOut.
  RolloutStatus outcome = RolloutStatus::kProgressing;
  int64_t outcome_at_s = 0;
  std::string detail;  // what was wrong, for people (DescribeWorkConditions)
};

struct Revision {
  int64_t number = 0;  // 1, 2, ...; a spec rolled out again gets a new number
  std::string spec_hash;
  int64_t created_at_s = 0;
  std::string change_cause;               // shown by history, like kubernetes.io/change-cause
  std::vector<RevisionCluster> clusters;  // in the order they took it
  // berth rolled it back (a health rule or maxFailures found it bad): never Good, whatever
  // its clusters' works reported (a work is Available while its Deployment crash-loops).
  bool rolled_back = false;

  // It was not rolled back, reached at least one cluster and succeeded on every cluster it
  // reached.
  bool Good() const;
  // The cluster's entry, or nullptr; borrows from this revision. O(1): a rollout over
  // thousands of clusters looks every cluster up each step.
  const RevisionCluster* FindCluster(std::string_view cluster) const;
  RevisionCluster* FindCluster(std::string_view cluster);
  // cluster -> taken_at_s, for EvaluateHealthRules.
  std::map<std::string, int64_t> TakenAt() const;

 private:
  // cluster -> position in `clusters` (each cluster appears once), kept by FindCluster:
  // entries are only appended (indexed when next looked up), reset in place, or all
  // replaced at once (a copied revision brings its index; a list found shorter or not
  // matching the index is indexed anew).
  mutable std::unordered_map<std::string, size_t> cluster_index_;
};

class RevisionHistory {
 public:
  // Keeps at most `limit` revisions besides the current one.
  explicit RevisionHistory(size_t limit = kDefaultRevisionHistoryLimit) : limit_(limit) {}

  // Makes `spec_hash` the current revision and returns its number. The current revision
  // already holding it: unchanged (a non-empty change_cause replaces its cause). An older
  // revision holding it (an undo, or a spec set back by hand): it becomes current under the
  // next number, as Deployment renumbers the ReplicaSet it rolls back to, with its cluster
  // records cleared (the rollout starts over) and its cause kept unless one is given.
  // Otherwise a new revision numbered one past the highest ever given. Then the oldest
  // revisions beyond the limit are dropped.
  int64_t Record(const std::string& spec_hash, int64_t now_s, std::string change_cause = "");

  // A revision kept across plans (read back from a ControllerRevision), its number, hash and
  // cluster records as stored: inserted in number order; the numbers Record gives next
  // continue after the highest loaded. A revision of a number or hash already held replaces
  // that one (the later of two with one hash wins). Then pruned to the limit.
  void Load(Revision revision);

  // `cluster` took revision `number` at `at_s`: added with outcome Progressing, or (taken
  // again) its entry reset. NotFound when the revision is not in the history.
  core::Status RecordTaken(int64_t number, const std::string& cluster, int64_t at_s);
  // The outcome of `cluster` on revision `number`; the cluster is added (taken at `at_s`)
  // when missing. NotFound when the revision is not in the history.
  core::Status RecordOutcome(int64_t number, const std::string& cluster, RolloutStatus outcome,
                             int64_t at_s, std::string detail = "");
  // Revision `number` was rolled back (Revision::rolled_back); recording it again as the
  // current revision (Record) clears that. NotFound when the revision is not in the history.
  core::Status RecordRolledBack(int64_t number);

  // Oldest first, the current one last (kubectl rollout history). Borrowed; valid until the
  // next Record.
  const std::vector<Revision>& List() const { return revisions_; }
  const Revision* Find(int64_t number) const;
  const Revision* Current() const;
  // The newest revision before the current one (undo's default target), or nullptr.
  const Revision* Previous() const;
  // The newest Good revision before the current one, or nullptr.
  const Revision* LastGood() const;
  // kubectl rollout undo --to-revision: 0 means Previous. NotFound when there is none
  // ("no revision before revision 3 in history") or `to_revision` is not kept ("revision 7
  // is not in history (kept: 4, 5, 6)"); FailedPrecondition when it is the current one.
  core::Result<const Revision*> UndoTarget(int64_t to_revision) const;

  size_t limit() const { return limit_; }

 private:
  Revision* MutableFind(int64_t number);
  void Prune();

  size_t limit_;
  int64_t last_number_ = 0;
  std::vector<Revision> revisions_;  // ascending number
};

}  // namespace berth::dispatch
