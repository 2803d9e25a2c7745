// The status function follows upstream's deployReconciler.clusterRolloutStatusFunc: only a
// work whose agent has observed the current generation is judged, so a spec change is never
// judged by the conditions (and transition times) the agent wrote for the previous one: a
// stale Progressing=False would make a new revision look Succeeded, and soaked, at once.
#include "dispatch/rollout_status.h"

#include <utility>

namespace berth::dispatch {
namespace {

bool RolloutStatusIsTrue(const WorkCondition* c) {
  return c != nullptr && c->status == model::ConditionStatus::kTrue;
}

void AppendConditionText(const WorkCondition& c, std::string* out) {
  if (!out->empty()) *out += ", ";
  *out += c.type;
  *out += '=';
  *out += model::ConditionStatusName(c.status);
  if (!c.reason.empty() || !c.message.empty()) {
    *out += " (";
    *out += c.reason;
    if (!c.reason.empty() && !c.message.empty()) *out += ": ";
    *out += c.message;
    *out += ')';
  }
}

}  // namespace

const WorkCondition* FindWorkCondition(const std::vector<WorkCondition>& conditions,
                                       std::string_view type) {
  for (const WorkCondition& c : conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

bool IsConditionReady(const WorkCondition* condition, int64_t generation, bool require_true) {
  if (condition == nullptr || condition->observed_generation != generation) return false;
  return !require_true || condition->status == model::ConditionStatus::kTrue;
}

bool ShouldReturnToApply(int64_t generation, const WorkCondition* applied,
                         const WorkCondition* progressing, const WorkCondition* degraded) {
  if (!IsConditionReady(applied, generation, true)) return true;
  if (!IsConditionReady(progressing, generation, false)) return true;
  return degraded != nullptr && degraded->observed_generation != generation;
}

ClusterRolloutStatus ClusterRolloutStatusOfWork(const std::string& cluster, int64_t generation,
                                                const std::vector<WorkCondition>& conditions) {
  ClusterRolloutStatus out;
  out.cluster_name = cluster;
  out.status = RolloutStatus::kToApply;
  const WorkCondition* progressing = FindWorkCondition(conditions, kWorkProgressing);
  const WorkCondition* degraded = FindWorkCondition(conditions, kWorkDegraded);
  const WorkCondition* applied = FindWorkCondition(conditions, kWorkApplied);
  if (ShouldReturnToApply(generation, applied, progressing, degraded)) return out;
  // ShouldReturnToApply returned false, so Progressing is present.
  const WorkCondition* since = progressing;
  if (progressing->status == model::ConditionStatus::kTrue && RolloutStatusIsTrue(degraded)) {
    out.status = RolloutStatus::kFailed;
    since = degraded;
  } else if (progressing->status == model::ConditionStatus::kFalse) {
    out.status = RolloutStatus::kSucceeded;
  } else {
    out.status = RolloutStatus::kProgressing;  // True, or Unknown: still going, to be safe
  }
  out.last_transition_time_s = since->last_transition_time_s.value_or(kGoZeroTimeUnixS);
  return out;
}

void SetWorkCondition(std::vector<WorkCondition>* conditions, WorkCondition condition,
                      int64_t now_s) {
  for (WorkCondition& existing : *conditions) {
    if (existing.type != condition.type) continue;
    if (existing.status != condition.status) {
      existing.status = condition.status;
      existing.last_transition_time_s = condition.last_transition_time_s.value_or(now_s);
    }
    existing.reason = std::move(condition.reason);
    existing.message = std::move(condition.message);
    existing.observed_generation = condition.observed_generation;
    return;
  }
  if (!condition.last_transition_time_s.has_value()) condition.last_transition_time_s = now_s;
  conditions->push_back(std::move(condition));
}

std::string DescribeWorkConditions(const std::vector<WorkCondition>& conditions) {
  std::string out;
  for (const WorkCondition& c : conditions) {
    const bool want_true = c.type == kWorkApplied || c.type == kWorkAvailable;
    const bool want_not_true = c.type == kWorkProgressing || c.type == kWorkDegraded;
    const bool is_true = c.status == model::ConditionStatus::kTrue;
    if ((want_true && !is_true) || (want_not_true && is_true)) AppendConditionText(c, &out);
  }
  return out;
}

}  // namespace berth::dispatch
