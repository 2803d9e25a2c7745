// ReplicaSetHistory: one ManifestWorkReplicaSet's revision history as the plan keeps it
// across cycles, in the ControllerRevisions the MWRS owns (model/controller_revision.h):
// read into a dispatch::RevisionHistory with the feedback berth recorded per cluster, kept
// up to date from the works during the step, and written back (created, changed and
// pruned revisions). Also the health observations of the works' status feedback. Internal
// to engine (engine/replica_sets.cc); a value used on one thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/time.h"
#include "dispatch/health_rule.h"
#include "dispatch/revision_history.h"
#include "dispatch/rollout_strategy.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::engine {

// Feedback values kept per cluster and name in a revision's record (the newest).
inline constexpr size_t kMaxFeedbackRecords = 8;

// "<mwrs>-<hash>", the MWRS name cut to 223 characters as StatefulSet's controller cuts its
// revisions' prefix, so the name stays a DNS subdomain.
std::string ControllerRevisionName(const std::string& mwrs_name, const std::string& hash);

class ReplicaSetHistory {
 public:
  // The revisions of `planned.controller_revisions` that `mwrs` owns (same cluster and
  // namespace, controller ownerReference kind ManifestWorkReplicaSet with its name, and uid
  // when both are known), holding a template.
  ReplicaSetHistory(const model::Snapshot& planned, const model::ManifestWorkReplicaSet& mwrs);

  dispatch::RevisionHistory& history() { return history_; }
  const dispatch::RevisionHistory& history() const { return history_; }

  // The ControllerRevision index holding `hash`, or nullopt (not stored yet).
  std::optional<int32_t> StoredRevision(const std::string& hash) const;

  // `cluster` holds the current revision: recorded as taken at `at_s` unless it already is.
  void EnsureTaken(const std::string& cluster, int64_t at_s);
  // The cluster's outcome on the current revision; the recorded time is kept while the
  // outcome stays the same. The cluster is added (taken at at_s) when missing.
  void SetOutcome(const std::string& cluster, dispatch::RolloutStatus outcome, int64_t at_s,
                  const std::string& detail);

  // The observations of feedback value `name` on `cluster` for the current revision: the
  // recorded changes, after `value` (reported now) is recorded when it differs from the last
  // one (at `first_at_s` when none was recorded yet, else `now_s`).
  std::vector<dispatch::FeedbackObservation> Observe(const std::string& cluster,
                                                     const std::string& name,
                                                     const std::string& value, int64_t first_at_s,
                                                     int64_t now_s);

  // The revision `number` was rolled back: `reason` is written on its ControllerRevision.
  void MarkRolledBack(int64_t number, const std::string& reason);

  // Writes the history into `planned.controller_revisions`: revisions not stored yet are
  // created (named ControllerRevisionName, owned by `mwrs`, the template read from
  // `template_from`, with `template_manifests`); stored ones whose number, records or
  // rolled-back reason changed are marked changed; a revision renumbered to be the current
  // one loses its rolled-back reason; stored ones the history no longer keeps are deleted
  // (appended to `deleted`).
  void Write(const model::ManifestWorkReplicaSet& mwrs, const model::WorkSpecSource& template_from,
             const std::vector<model::ManifestMeta>& template_manifests, model::Snapshot& planned,
             std::vector<model::ObjectDeletion>* deleted);

 private:
  using ClusterKey = std::pair<std::string, std::string>;  // (hash, cluster)

  dispatch::RevisionHistory history_;
  std::map<std::string, int32_t> stored_;  // hash -> index into planned.controller_revisions
  std::vector<int32_t> owned_;             // every owned revision, hash or not kept
  std::map<ClusterKey, std::vector<model::FeedbackRecord>> feedback_;
  std::map<std::string, std::string> rolled_back_;  // template hash -> reason
};

}  // namespace berth::engine
