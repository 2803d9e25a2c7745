// The deploy and status reconcilers of OCM's ManifestWorkReplicaSet controller
// (open-cluster-management-io/ocm pkg/work/hub/controllers/manifestworkreplicasetcontroller/)
// run back to back on one copy of the status, as its sync loop does; the finalizer
// reconcilers (deletion) are the caller's. Go map iteration (works by cluster) is replaced
// by cluster name order so the output is deterministic.
#include "dispatch/replica_set_step.h"

#include <map>
#include <set>
#include <string>
#include <utility>

#include "core/labels.h"

namespace berth::dispatch {
namespace {

// The controller's resync period: a rollout recheck later than this is left to the resync.
constexpr int64_t kMwrsMaxRequeueS = int64_t{30} * 60;

WorkCondition MwrsCondition(const char* type, bool is_true, const char* reason,
                            std::string message = "") {
  WorkCondition c;
  c.type = type;
  c.status = is_true ? model::ConditionStatus::kTrue : model::ConditionStatus::kFalse;
  c.reason = reason;
  c.message = std::move(message);
  return c;
}

// getPlacementDecisionVerified / getPlacementRollOut / getManifestworkApplied: True only
// for the good reason.
void SetMwrsCondition(MwrsStatus* status, const char* type, const char* reason, int64_t now_s,
                      std::string message = "") {
  const bool is_true =
      std::string(reason) == kMwrsReasonAsExpected || std::string(reason) == kMwrsReasonComplete;
  SetWorkCondition(&status->conditions, MwrsCondition(type, is_true, reason, std::move(message)),
                   now_s);
}

std::string AvailableDecisionGroups(int32_t groups, size_t clusters, int32_t selected) {
  return std::to_string(groups) + " (" + std::to_string(clusters) + " / " +
         std::to_string(selected) + " clusters applied)";
}

const MwrsPlacement* FindMwrsPlacement(const std::vector<MwrsPlacement>& placements,
                                       const std::string& name) {
  for (const MwrsPlacement& p : placements) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

bool MwrsConditionTrue(const ReplicaWork& work, const char* type) {
  const WorkCondition* c = FindWorkCondition(work.conditions, type);
  return c != nullptr && c->status == model::ConditionStatus::kTrue;
}

}  // namespace

std::string ManifestWorkReplicaSetKey(const std::string& ns, const std::string& name) {
  return ns + "." + name;
}

void CountManifestWorkReplicaSetStatus(const std::string& template_hash,
                                       const std::vector<ReplicaWork>& works, int64_t now_s,
                                       MwrsStatus* status) {
  if (status->summary.total == 0) {
    const WorkCondition* verified = FindWorkCondition(status->conditions, kMwrsPlacementVerified);
    const bool empty = verified != nullptr && verified->reason == kMwrsReasonPlacementDecisionEmpty;
    SetMwrsCondition(status, kMwrsManifestworkApplied,
                     empty ? kMwrsReasonPlacementDecisionEmpty : kMwrsReasonNotAsExpected, now_s);
    return;
  }
  MwrsSummary sum = status->summary;
  sum.applied = sum.available = sum.progressing = sum.degraded = 0;
  for (MwrsPlacementSummary& placement : status->placement_summary) {
    MwrsSummary& s = placement.summary;
    s.applied = s.available = s.progressing = s.degraded = 0;
    for (const ReplicaWork& work : works) {
      if (work.placement.empty() || work.placement != placement.name) continue;
      if (work.deleting || work.spec_hash != template_hash) continue;
      s.applied += MwrsConditionTrue(work, kWorkApplied) ? 1 : 0;
      s.progressing += MwrsConditionTrue(work, kWorkProgressing) ? 1 : 0;
      s.available += MwrsConditionTrue(work, kWorkAvailable) ? 1 : 0;
      s.degraded += MwrsConditionTrue(work, kWorkDegraded) ? 1 : 0;
    }
    sum.applied += s.applied;
    sum.progressing += s.progressing;
    sum.available += s.available;
    sum.degraded += s.degraded;
  }
  status->summary = sum;
  const char* reason = kMwrsReasonNotAsExpected;
  if (sum.available == sum.total && sum.progressing == 0 && sum.degraded == 0) {
    reason = kMwrsReasonAsExpected;
  } else if (sum.progressing > 0 && sum.degraded == 0) {
    reason = kMwrsReasonProcessing;
  }
  SetMwrsCondition(status, kMwrsManifestworkApplied, reason, now_s);
}

MwrsStep DeployManifestWorkReplicaSet(const ManifestWorkReplicaSetView& mwrs,
                                      const std::vector<MwrsPlacement>& placements,
                                      const std::vector<ReplicaWork>& works, int64_t now_s) {
  MwrsStep step;
  step.status = mwrs.status;

  const std::string owner = ManifestWorkReplicaSetKey(mwrs.namespace_, mwrs.name);
  if (std::string problem = core::LabelValueProblem(owner); !problem.empty()) {
    SetMwrsCondition(&step.status, kMwrsManifestworkApplied, kMwrsReasonInvalidManifestWorkName,
                     now_s,
                     "ManifestWork owner label value \"" + owner +
                         "\" (namespace.name) is not a valid label value: " + problem +
                         "; namespace and name together must fit in 63 characters");
    step.stopped = true;
    return step;
  }

  // getManifestWorkInReplicaSet: one work per cluster namespace (the last listed), and the
  // works of each placement label in list order.
  std::map<std::string, const ReplicaWork*> by_cluster;
  std::map<std::string, std::vector<const ReplicaWork*>> by_placement;
  for (const ReplicaWork& work : works) {
    by_cluster[work.cluster] = &work;
    if (!work.placement.empty()) by_placement[work.placement].push_back(&work);
  }

  std::set<std::string> referenced;
  for (const MwrsPlacementRef& ref : mwrs.placement_refs) referenced.insert(ref.name);
  for (const auto& [cluster, work] : by_cluster) {
    if (work->placement.empty() || referenced.count(work->placement) == 0) {
      step.remove.push_back({work->cluster, work->name,
                             work->placement.empty()
                                 ? std::string("the work names no placement")
                                 : "placement " + work->placement + " is no longer referenced"});
    }
  }

  int32_t current_total = 0;    // clusters holding a current work, over all placements
  int64_t selected_total = 0;   // numberOfSelectedClusters summed
  int64_t succeeded_total = 0;  // current works whose rollout status is Succeeded
  std::optional<int64_t> requeue;
  std::vector<MwrsPlacementSummary> summaries;
  const std::vector<const ReplicaWork*> no_works;

  for (size_t i = 0; i < mwrs.placement_refs.size(); ++i) {
    const MwrsPlacementRef& ref = mwrs.placement_refs[i];
    const MwrsPlacement* placement = FindMwrsPlacement(placements, ref.name);
    if (placement == nullptr) {
      // reconcileStop: the status reconciler does not run; summaries stay as stored.
      SetMwrsCondition(&step.status, kMwrsPlacementVerified, kMwrsReasonPlacementDecisionNotFound,
                       now_s);
      step.stopped = true;
      return step;
    }
    auto placed = by_placement.find(ref.name);
    const std::vector<const ReplicaWork*>& placed_works =
        placed == by_placement.end() ? no_works : placed->second;

    std::vector<ClusterRolloutStatus> existing;
    std::set<std::string> holding;    // existingClusterNames
    std::set<std::string> succeeded;  // succeededClusterNames
    for (const ReplicaWork* work : placed_works) {
      if (work->spec_hash != mwrs.template_hash) continue;  // to be updated: ToApply below
      holding.insert(work->cluster);
      existing.push_back(
          ClusterRolloutStatusOfWork(work->cluster, work->generation, work->conditions));
      if (existing.back().status == RolloutStatus::kSucceeded) succeeded.insert(work->cluster);
    }

    auto result = ComputeRollout(ref.rollout_strategy, placement->decisions, existing, now_s);
    if (!result.has_value()) {
      core::Error error = std::move(result).error();
      error.WithFieldPrefix("spec.placementRefs[" + std::to_string(i) + "].rolloutStrategy");
      step.errors.push_back(std::move(error));
      SetMwrsCondition(&step.status, kMwrsPlacementVerified, kMwrsReasonNotAsExpected, now_s);
      continue;
    }
    if (result->recheck_after_s.has_value() && *result->recheck_after_s < kMwrsMaxRequeueS &&
        (!requeue.has_value() || *result->recheck_after_s < *requeue)) {
      requeue = result->recheck_after_s;
    }

    for (const ClusterRolloutStatus& s : result->clusters_to_rollout) {
      if (s.status != RolloutStatus::kToApply) continue;
      MwrsWorkApply apply{s.cluster_name, ref.name, "", ""};
      auto it = by_cluster.find(s.cluster_name);
      if (it != by_cluster.end() && it->second->placement == ref.name) {
        apply.name = it->second->name;
      } else {
        apply.generate_name = mwrs.name;
      }
      step.apply.push_back(std::move(apply));
      holding.insert(s.cluster_name);
    }
    for (const ClusterRolloutStatus& s : result->clusters_removed) {
      for (const ReplicaWork* work : placed_works) {
        if (work->cluster != s.cluster_name) continue;
        step.remove.push_back({work->cluster, work->name,
                               "cluster " + work->cluster + " left placement " + ref.name});
        holding.erase(s.cluster_name);
      }
    }

    selected_total += placement->number_of_selected_clusters;
    MwrsPlacementSummary summary;
    summary.name = ref.name;
    summary.available_decision_groups = AvailableDecisionGroups(
        placement->decision_group_count, holding.size(), placement->number_of_selected_clusters);
    summary.summary.total = static_cast<int32_t>(holding.size());
    summaries.push_back(std::move(summary));
    current_total += static_cast<int32_t>(holding.size());
    succeeded_total += static_cast<int64_t>(succeeded.size());
    step.rollouts.push_back({ref.name, std::move(*result)});
  }

  step.status.placement_summary = std::move(summaries);
  step.status.summary.total = current_total;
  if (current_total == 0) {
    step.status.summary.applied = step.status.summary.available = 0;
    step.status.summary.degraded = step.status.summary.progressing = 0;
    SetMwrsCondition(&step.status, kMwrsPlacementVerified, kMwrsReasonPlacementDecisionEmpty,
                     now_s);
  } else {
    SetMwrsCondition(&step.status, kMwrsPlacementVerified, kMwrsReasonAsExpected, now_s);
  }
  SetMwrsCondition(&step.status, kMwrsPlacementRolledOut,
                   selected_total == succeeded_total ? kMwrsReasonComplete : kMwrsReasonProgressing,
                   now_s);
  if (step.errors.empty()) step.requeue_after_s = requeue;
  return step;
}

MwrsStep StepManifestWorkReplicaSet(const ManifestWorkReplicaSetView& mwrs,
                                    const std::vector<MwrsPlacement>& placements,
                                    const std::vector<ReplicaWork>& works, int64_t now_s) {
  MwrsStep step = DeployManifestWorkReplicaSet(mwrs, placements, works, now_s);
  if (!step.stopped) {
    CountManifestWorkReplicaSetStatus(mwrs.template_hash, works, now_s, &step.status);
  }
  return step;
}

}  // namespace berth::dispatch
