// A breach or a health violation is proof the revision is bad, so it is undone where a good
// revision exists; a timeout alone is not proof (the cluster may be slow), so it only
// pauses. Rolling back needs a revision known to work everywhere it went: one that never
// reached a cluster proves nothing, and one that failed somewhere is not "good" even if the
// failure was tolerated then.
#include "dispatch/rollback_policy.h"

#include <map>
#include <set>
#include <string>
#include <utility>

#include "dispatch/rollout_text.h"

namespace berth::dispatch {
namespace {

void AddRollbackDetail(std::map<std::string, std::vector<std::string>>* failed,
                       const std::string& cluster, std::string text) {
  std::vector<std::string>& parts = (*failed)[cluster];
  for (const std::string& p : parts) {
    if (p == text) return;
  }
  parts.push_back(std::move(text));
}

std::string RecordedDetail(const Revision& revision, const std::string& cluster) {
  const RevisionCluster* c = revision.FindCluster(cluster);
  return c == nullptr ? std::string() : c->detail;
}

std::string MaxFailuresText(const RolloutStrategy& strategy) {
  switch (strategy.type) {
    case RolloutType::kAll:
      return "";
    case RolloutType::kProgressive:
      return "maxFailures " + IntOrPercentText(strategy.max_failures);
    case RolloutType::kProgressivePerGroup:
      return "maxFailures " + IntOrPercentText(strategy.max_failures) + " per group";
  }
  return "";
}

// "1 cluster", "3 clusters".
std::string ClusterCount(size_t n) {
  return std::to_string(n) + (n == 1 ? " cluster" : " clusters");
}

std::string DeadlineText(const RolloutStrategy& strategy) {
  return strategy.progress_deadline.empty() ? std::string("None") : strategy.progress_deadline;
}

}  // namespace

const char* RollbackActionName(RollbackAction action) {
  switch (action) {
    case RollbackAction::kContinue:
      return "Continue";
    case RollbackAction::kPause:
      return "Pause";
    case RollbackAction::kRollback:
      return "Rollback";
  }
  return "Continue";
}

RollbackDecision DecideRollback(const RevisionHistory& history, const RolloutStrategy& strategy,
                                const RolloutResult& rollout,
                                const std::vector<HealthViolation>& violations,
                                const RollbackPolicy& policy) {
  RollbackDecision decision;
  const Revision* current = history.Current();
  if (current == nullptr) {
    decision.reason = "no revision recorded; continuing";
    return decision;
  }
  decision.revision = current->number;
  const std::string subject = "revision " + std::to_string(current->number);

  std::set<std::string> took;
  for (const RevisionCluster& c : current->clusters) took.insert(c.cluster);
  for (const ClusterRolloutStatus& s : rollout.clusters_to_rollout) {
    if (s.status != RolloutStatus::kToApply) took.insert(s.cluster_name);
  }
  for (const ClusterRolloutStatus& s : rollout.clusters_timeout) took.insert(s.cluster_name);

  // cluster -> what went wrong there, in a stable order: the work's own failure first.
  std::map<std::string, std::vector<std::string>> failed;
  for (const ClusterRolloutStatus& s : rollout.clusters_timeout) {
    std::string text = "timed out after progressDeadline " + DeadlineText(strategy);
    if (std::string detail = RecordedDetail(*current, s.cluster_name); !detail.empty()) {
      text += " (" + detail + ")";
    }
    AddRollbackDetail(&failed, s.cluster_name, std::move(text));
  }
  for (const ClusterRolloutStatus& s : rollout.clusters_to_rollout) {
    if (s.status != RolloutStatus::kFailed) continue;
    std::string detail = RecordedDetail(*current, s.cluster_name);
    AddRollbackDetail(&failed, s.cluster_name, detail.empty() ? "Failed" : std::move(detail));
  }
  for (const RevisionCluster& c : current->clusters) {
    if (failed.count(c.cluster) > 0) continue;
    if (c.outcome == RolloutStatus::kFailed || c.outcome == RolloutStatus::kTimeOut) {
      AddRollbackDetail(&failed, c.cluster,
                        c.detail.empty() ? RolloutStatusName(c.outcome) : c.detail);
    }
  }
  bool violated = false;
  for (const HealthViolation& v : violations) {
    if (took.count(v.cluster) == 0) continue;  // not on this revision
    violated = true;
    AddRollbackDetail(&failed, v.cluster, v.Text());
  }

  decision.took_revision.assign(took.begin(), took.end());
  for (const auto& [cluster, parts] : failed) decision.failed_clusters.push_back(cluster);

  if (failed.empty()) {
    decision.reason =
        subject + ": no failure on the " + ClusterCount(took.size()) + " it reached; continuing";
    return decision;
  }

  std::string summary =
      subject + " failed on " + std::to_string(failed.size()) + " of " + ClusterCount(took.size());
  const std::string max_failures = MaxFailuresText(strategy);
  if (rollout.max_failure_breach && !max_failures.empty()) summary += " (" + max_failures + ")";
  summary += ": ";
  bool first = true;
  for (const auto& [cluster, parts] : failed) {
    if (!first) summary += "; ";
    first = false;
    summary += cluster + ": ";
    for (size_t i = 0; i < parts.size(); ++i) summary += (i > 0 ? ", " : "") + parts[i];
  }

  if (rollout.max_failure_breach || violated) {
    const Revision* good = history.LastGood();
    if (policy.auto_rollback && good != nullptr) {
      decision.action = RollbackAction::kRollback;
      decision.to_revision = good->number;
      decision.to_spec_hash = good->spec_hash;
      decision.reason = summary + "; rolling back to revision " + std::to_string(good->number);
    } else {
      decision.action = RollbackAction::kPause;
      decision.reason =
          summary + (policy.auto_rollback ? "; pausing: no earlier revision succeeded on every "
                                            "cluster it reached"
                                          : "; pausing: automatic rollback is off");
    }
    return decision;
  }
  if (!rollout.clusters_timeout.empty() && policy.pause_on_timeout) {
    decision.action = RollbackAction::kPause;
    decision.reason = summary + "; pausing on the timed-out clusters" +
                      (max_failures.empty() ? "" : " (within " + max_failures + ")");
    return decision;
  }
  decision.reason =
      summary + "; continuing" + (max_failures.empty() ? "" : " within " + max_failures);
  return decision;
}

}  // namespace berth::dispatch
