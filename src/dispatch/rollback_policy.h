// berth's controlled rollback: whether a rollout of a new revision keeps going, pauses, or
// goes back to the last good revision. OCM has no rollback of its own (only a proposal), so
// these are berth's rules, built on OCM's rollout result. The hub calls
// DecideRollback after each ManifestWorkReplicaSet step (replica_set_step.h) with the
// revision history of the template, the step's rollout result and the health-rule
// violations; `berth plan` prints the decision. Pure; thread-safe.
//
// The rules, first match wins (the README repeats them):
//  1. No revision recorded: Continue.
//  2. The current revision is bad when the rollout breached maxFailures (failed and
//     timed-out clusters beyond it) or a health rule is violated on a cluster that took it.
//     a. auto_rollback and an older revision is Good (not rolled back itself, reached at
//        least one cluster and succeeded on every cluster it reached; the newest such):
//        Rollback to it, naming the clusters that took the bad revision.
//     b. otherwise: Pause, saying why nothing is rolled back.
//  3. Clusters timed out past progressDeadline without a breach, and pause_on_timeout:
//     Pause (OCM would carry on; berth stops to let someone look).
//  4. Otherwise Continue; failures within maxFailures are named in the reason.
// The reason reads like "revision 3 failed on 2 of 3 clusters (maxFailures 1): us-2:
// Available=False (MinimumReplicasUnavailable); us-3: timed out after progressDeadline 5m;
// rolling back to revision 2".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dispatch/health_rule.h"
#include "dispatch/revision_history.h"
#include "dispatch/rollout_strategy.h"

namespace berth::dispatch {

enum class RollbackAction { kContinue, kPause, kRollback };
const char* RollbackActionName(RollbackAction action);  // "Continue", "Pause", "Rollback"

struct RollbackPolicy {
  // false: a bad revision pauses the rollout; rolling back is left to a person.
  bool auto_rollback = true;
  // true: a cluster past progressDeadline pauses the rollout even within maxFailures.
  bool pause_on_timeout = true;
};

struct RollbackDecision {
  RollbackAction action = RollbackAction::kContinue;
  int64_t revision = 0;  // the revision judged (the current one); 0 with no history
  // kRollback: the revision to go back to and its spec.
  std::optional<int64_t> to_revision;
  std::string to_spec_hash;
  // The clusters where the current revision failed, timed out or broke a health rule.
  std::vector<std::string> failed_clusters;
  // The clusters that took the current revision (reverted on kRollback).
  std::vector<std::string> took_revision;
  std::string reason;
};

// Decides for the current revision of `history`. `rollout` is the rollout result of that
// revision (ComputeRollout) under `strategy`; `violations` come from EvaluateHealthRules over
// the clusters that took it (Revision::TakenAt). The clusters that took it are those the
// history records plus those the rollout result holds (not ToApply); per-cluster details
// come from the history's recorded outcomes. Cluster lists are sorted by name.
RollbackDecision DecideRollback(const RevisionHistory& history, const RolloutStrategy& strategy,
                                const RolloutResult& rollout,
                                const std::vector<HealthViolation>& violations,
                                const RollbackPolicy& policy = {});

}  // namespace berth::dispatch
