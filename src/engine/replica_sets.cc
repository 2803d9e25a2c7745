// One MWRS step is OCM's reconcile (dispatch::StepManifestWorkReplicaSet) wrapped in berth's
// rollback policy, in this order:
//  1. the template to roll out: the MWRS's, or, while a rollback berth recorded still holds
//     (the template has not changed since), the revision it restored;
//  2. the revision history (ControllerRevisions) brought up to date from the works that hold
//     that template: who took it, and how it went there;
//  3. OCM's step (nothing new applied while paused by the annotation);
//  4. health rules over the works' status feedback, and DecideRollback per placementRef;
//  5. a Rollback restores the last good revision at once on every cluster that holds a work
//     (OCM's step with strategy All over those clusters only), a Pause applies nothing new
//     (OCM's step over the clusters that already hold the revision);
//  6. works, status, annotations and revisions written into the plan.
// Steps 3 and 5 reuse OCM's step rather than patching its result, so the status (summaries,
// PlacementRolledOut) always describes what the plan actually applies.
#include "engine/replica_sets.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "dispatch/health_rule.h"
#include "dispatch/health_rule_text.h"
#include "dispatch/replica_set_step.h"
#include "dispatch/rollback_policy.h"
#include "dispatch/rollout_text.h"
#include "dispatch/work_feedback.h"
#include "engine/replica_set_history.h"

namespace berth::engine {
namespace {

constexpr const char* kMwrsWorkApiVersion = "work.open-cluster-management.io/v1";
constexpr const char* kMwrsKind = "ManifestWorkReplicaSet";
// berth's condition reasons on the MWRS (model/work_replica_set.h names the types).
constexpr const char* kReasonBadRevision = "BadRevision";
constexpr const char* kReasonTemplateChanged = "TemplateChanged";
constexpr const char* kReasonPausedByUser = "PausedByUser";
constexpr const char* kReasonDeadlineExceeded = "ProgressDeadlineExceeded";
constexpr const char* kReasonResumed = "Resumed";

dispatch::WorkCondition MwrsWorkCondition(const model::Condition& c) {
  dispatch::WorkCondition w;
  w.type = c.type;
  w.status = c.status;
  w.reason = c.reason;
  w.message = c.message;
  w.observed_generation = c.observed_generation;
  if (c.last_transition_time.has_value()) w.last_transition_time_s = c.last_transition_time->unix_s;
  return w;
}

model::Condition MwrsModelCondition(const dispatch::WorkCondition& w) {
  model::Condition c;
  c.type = w.type;
  c.status = w.status;
  c.reason = w.reason;
  c.message = w.message;
  c.observed_generation = w.observed_generation;
  if (w.last_transition_time_s.has_value()) {
    c.last_transition_time = core::Timestamp{*w.last_transition_time_s};
  }
  return c;
}

dispatch::MwrsSummary MwrsStepSummary(const model::MwrsSummary& s) {
  return {s.total, s.progressing, s.available, s.degraded, s.applied, s.desired_total, s.updated};
}

model::MwrsSummary MwrsModelSummary(const dispatch::MwrsSummary& s) {
  return {s.total, s.progressing, s.available, s.degraded, s.applied, s.desired_total, s.updated};
}

dispatch::MwrsStatus MwrsStepStatus(const model::ManifestWorkReplicaSetStatus& s) {
  dispatch::MwrsStatus out;
  for (const model::Condition& c : s.conditions) out.conditions.push_back(MwrsWorkCondition(c));
  out.summary = MwrsStepSummary(s.summary);
  for (const model::MwrsPlacementSummary& p : s.placement_summary) {
    out.placement_summary.push_back(
        {p.name, p.available_decision_groups, MwrsStepSummary(p.summary)});
  }
  return out;
}

model::ManifestWorkReplicaSetStatus MwrsModelStatus(const dispatch::MwrsStatus& s) {
  model::ManifestWorkReplicaSetStatus out;
  for (const dispatch::WorkCondition& c : s.conditions) {
    out.conditions.push_back(MwrsModelCondition(c));
  }
  out.summary = MwrsModelSummary(s.summary);
  for (const dispatch::MwrsPlacementSummary& p : s.placement_summary) {
    out.placement_summary.push_back(
        {p.name, p.available_decision_groups, MwrsModelSummary(p.summary)});
  }
  return out;
}

const char* RolloutSubObject(model::MwrsRolloutType type) {
  switch (type) {
    case model::MwrsRolloutType::kAll:
      return "all";
    case model::MwrsRolloutType::kProgressive:
      return "progressive";
    case model::MwrsRolloutType::kProgressivePerGroup:
      return "progressivePerGroup";
  }
  return "all";
}

core::Result<dispatch::RolloutStrategy> MwrsStepStrategy(const model::MwrsRolloutStrategy& s,
                                                         size_t ref) {
  dispatch::RolloutStrategy out;
  switch (s.type) {
    case model::MwrsRolloutType::kAll:
      out.type = dispatch::RolloutType::kAll;
      break;
    case model::MwrsRolloutType::kProgressive:
      out.type = dispatch::RolloutType::kProgressive;
      break;
    case model::MwrsRolloutType::kProgressivePerGroup:
      out.type = dispatch::RolloutType::kProgressivePerGroup;
      break;
  }
  const std::string field = "spec.placementRefs[" + std::to_string(ref) + "].rolloutStrategy." +
                            RolloutSubObject(s.type) + ".minSuccessTime";
  BERTH_ASSIGN_OR_RETURN(out.min_success_time_s,
                         dispatch::ParseGoDurationSeconds(
                             s.min_success_time.empty() ? "0" : s.min_success_time, field));
  out.progress_deadline = s.progress_deadline;
  out.max_failures = s.max_failures;
  out.max_concurrency = s.max_concurrency;
  for (const model::MwrsMandatoryGroup& g : s.mandatory_decision_groups) {
    out.mandatory_decision_groups.push_back({g.group_name, g.group_index});
  }
  return out;
}

int32_t MwrsGroupIndex(const core::Labels& labels) {
  auto it = labels.find(model::kDecisionGroupIndexLabel);
  if (it == labels.end()) return 0;
  int32_t value = 0;
  const char* end = it->second.data() + it->second.size();
  auto [ptr, ec] = std::from_chars(it->second.data(), end, value);
  return ec == std::errc() && ptr == end ? value : 0;
}

// The MWRS's Placements as this plan decided them: selected clusters, decision groups and
// each chosen cluster's group (PlacementDecision labels), the decisions it deletes left out.
std::vector<dispatch::MwrsPlacement> MwrsPlacementsOf(
    const model::Snapshot& planned, const model::ManifestWorkReplicaSet& mwrs,
    const std::set<std::pair<std::string, std::string>>& deleted_decisions) {
  std::vector<dispatch::MwrsPlacement> out;
  std::set<std::string> seen_refs;
  for (const model::MwrsPlacementRef& ref : mwrs.placement_refs) {
    if (!seen_refs.insert(ref.name).second) continue;
    const model::Placement* placement = nullptr;
    for (const model::Placement& p : planned.placements) {
      if (p.cluster == mwrs.cluster && p.meta.namespace_ == mwrs.meta.namespace_ &&
          p.meta.name == ref.name) {
        placement = &p;
      }
    }
    if (placement == nullptr) continue;  // the step says PlacementDecisionNotFound
    dispatch::MwrsPlacement mp;
    mp.name = ref.name;
    std::set<std::string> clusters;
    std::set<int32_t> groups;
    for (const model::PlacementDecision& pd : planned.placement_decisions) {
      if (pd.cluster != mwrs.cluster || pd.meta.namespace_ != mwrs.meta.namespace_ ||
          pd.placement != ref.name ||
          deleted_decisions.count({pd.meta.namespace_, pd.meta.name}) > 0) {
        continue;
      }
      const int32_t index = MwrsGroupIndex(pd.meta.labels);
      std::string group_name;
      if (auto it = pd.meta.labels.find(model::kDecisionGroupNameLabel);
          it != pd.meta.labels.end()) {
        group_name = it->second;
      }
      for (const model::ClusterDecision& d : pd.decisions) {
        if (!clusters.insert(d.cluster_name).second) continue;
        mp.decisions.push_back({d.cluster_name, index, group_name});
        groups.insert(index);
      }
    }
    if (placement->status.has_value()) {
      mp.number_of_selected_clusters = placement->status->number_of_selected_clusters;
      mp.decision_group_count = static_cast<int32_t>(placement->status->decision_groups.size());
    } else {  // not decided by this plan (scheduling disabled): its decisions as read
      mp.number_of_selected_clusters = static_cast<int32_t>(mp.decisions.size());
      mp.decision_group_count = static_cast<int32_t>(groups.size());
    }
    out.push_back(std::move(mp));
  }
  return out;
}

// The placements with only the decisions of `keep`: a step over them applies nothing to any
// other cluster, and still removes the works of clusters that left a placement.
std::vector<dispatch::MwrsPlacement> RestrictPlacements(std::vector<dispatch::MwrsPlacement> all,
                                                        const std::set<std::string>& keep) {
  for (dispatch::MwrsPlacement& p : all) {
    std::vector<dispatch::DecisionCluster> kept;
    for (dispatch::DecisionCluster& d : p.decisions) {
      if (keep.count(d.cluster) > 0) kept.push_back(std::move(d));
    }
    p.decisions = std::move(kept);
  }
  return all;
}

// When a work got the spec it holds, as far as its status tells: the Applied condition's
// transition at the work's generation, else now.
int64_t MwrsTakenAt(const model::ManifestWork& work, int64_t now_s) {
  for (const model::Condition& c : work.conditions) {
    if (c.type == dispatch::kWorkApplied && c.observed_generation == work.generation &&
        c.last_transition_time.has_value()) {
      return std::min(c.last_transition_time->unix_s, now_s);
    }
  }
  return now_s;
}

// The first manifest status reporting feedback value `name`: the value and when its
// feedback last started (or stopped) syncing, or nullopt. A value no manifest reports reads
// as "0" from the first manifest whose feedback rules ask for it (dispatch::FeedbackRulesRead)
// and whose StatusFeedbackSynced is True: Kubernetes leaves zero counts out of status (a
// Deployment with no available pod has no status.availableReplicas) and OCM's agent then
// reports nothing for the rule, so a broken revision would otherwise never break one. A name
// no rule asks for (a typo, a rule on another manifest) stays unknown: it never rolls back.
std::optional<std::pair<std::string, std::optional<int64_t>>> MwrsFeedback(
    const model::ManifestWork& work, const std::string& name) {
  auto synced_at = [](const model::ManifestStatus& s) -> std::optional<int64_t> {
    const model::Condition* c = s.FindCondition("StatusFeedbackSynced");
    if (c == nullptr || !c->last_transition_time.has_value()) return std::nullopt;
    return c->last_transition_time->unix_s;
  };
  for (const model::ManifestStatus& s : work.manifest_statuses) {
    const std::string* value = s.Feedback(name);
    if (value == nullptr) continue;
    return std::make_pair(*value, synced_at(s));
  }
  for (const model::ManifestStatus& s : work.manifest_statuses) {
    const model::Condition* c = s.FindCondition("StatusFeedbackSynced");
    if (c == nullptr || c->status != model::ConditionStatus::kTrue ||
        !dispatch::FeedbackRulesRead(work, s, name)) {
      continue;
    }
    return std::make_pair(std::string("0"), synced_at(s));
  }
  return std::nullopt;
}

// A work name for a cluster that has none of this MWRS: upstream lets the API server add a
// random suffix to the MWRS's name (generateName); berth uses the name itself, or, when that
// name is taken in the cluster's namespace, the name and a suffix fixed by the MWRS's key.
std::string MwrsNewWorkName(const model::Snapshot& planned,
                            const model::ManifestWorkReplicaSet& mwrs,
                            const std::string& cluster_ns) {
  auto taken = [&](const std::string& name) {
    for (const model::ManifestWork& w : planned.manifest_works) {
      if (w.cluster == mwrs.cluster && w.meta.namespace_ == cluster_ns && w.meta.name == name) {
        return true;
      }
    }
    return false;
  };
  if (!taken(mwrs.meta.name)) return mwrs.meta.name;
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c :
       dispatch::ManifestWorkReplicaSetKey(mwrs.meta.namespace_, mwrs.meta.name)) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string suffix(5, 'b');
  for (char& ch : suffix) {
    ch = kAlphabet[hash % kAlphabet.size()];
    hash /= kAlphabet.size();
  }
  return mwrs.meta.name.substr(0, 247) + "-" + suffix;
}

void SetMwrsCondition(dispatch::MwrsStatus* status, const char* type, bool is_true,
                      const char* reason, const std::string& message, int64_t now_s) {
  dispatch::WorkCondition c;
  c.type = type;
  c.status = is_true ? model::ConditionStatus::kTrue : model::ConditionStatus::kFalse;
  c.reason = reason;
  c.message = message;
  dispatch::SetWorkCondition(&status->conditions, std::move(c), now_s);
}

bool MwrsConditionIsTrue(const dispatch::MwrsStatus& status, const char* type) {
  const dispatch::WorkCondition* c = dispatch::FindWorkCondition(status.conditions, type);
  return c != nullptr && c->status == model::ConditionStatus::kTrue;
}

// One MWRS's step; see the file comment for the order.
class MwrsStage {
 public:
  MwrsStage(size_t index, core::Timestamp now, Plan& plan,
            const std::set<std::pair<std::string, std::string>>& deleted_decisions)
      : plan_(plan),
        planned_(plan.planned),
        mwrs_(plan.planned.manifest_work_replica_sets[index]),
        now_(now.unix_s),
        deleted_decisions_(deleted_decisions),
        key_(dispatch::ManifestWorkReplicaSetKey(mwrs_.meta.namespace_, mwrs_.meta.name)),
        object_(std::string(kMwrsKind) + "/" + mwrs_.meta.namespace_ + "/" + mwrs_.meta.name) {}

  void Run();

 private:
  void Report(core::Error error) {
    error.WithObject(object_);
    plan_.diagnostics.Report(std::move(error));
  }
  // Records, for the current revision, every work that holds `hash`.
  void RecordWorks(ReplicaSetHistory& history, const std::string& hash);
  // When `cluster` took the current revision (now when it has not).
  int64_t TakenAt(const ReplicaSetHistory& history, const std::string& cluster) const;
  // The rollout conditions of `work` (RolloutConditionsOfWork) as the step reads them: for
  // a work holding `hash`, a transition time from before its cluster took the revision is
  // replaced by the outcome time RecordWorks recorded, so a soak (minSuccessTime) or a
  // progressDeadline counts from this revision, not from the previous generation's status.
  std::vector<dispatch::WorkCondition> ConditionsOf(const ReplicaSetHistory& history,
                                                    const model::ManifestWork& work,
                                                    const std::string& hash) const;
  std::vector<dispatch::HealthViolation> Violations(ReplicaSetHistory& history,
                                                    const std::vector<dispatch::HealthRule>& rules,
                                                    const std::string& hash);
  void WriteWorks(const dispatch::MwrsStep& step, const std::string& hash,
                  const model::WorkSpecSource& source,
                  const std::vector<model::ManifestMeta>& manifests);

  Plan& plan_;
  model::Snapshot& planned_;
  model::ManifestWorkReplicaSet& mwrs_;
  const int64_t now_;
  const std::set<std::pair<std::string, std::string>>& deleted_decisions_;
  const std::string key_;
  const std::string object_;
  std::vector<int32_t> works_;  // indices into planned_.manifest_works
};

void MwrsStage::RecordWorks(ReplicaSetHistory& history, const std::string& hash) {
  for (int32_t index : works_) {
    const model::ManifestWork& work = planned_.manifest_works[static_cast<size_t>(index)];
    if (work.spec_hash != hash || work.deletion_timestamp.has_value()) continue;
    const std::string& cluster = work.meta.namespace_;
    history.EnsureTaken(cluster, MwrsTakenAt(work, now_));
    const dispatch::ClusterRolloutStatus status = dispatch::ClusterRolloutStatusOfWork(
        cluster, work.generation, RolloutConditionsOfWork(work));
    if (status.status == dispatch::RolloutStatus::kToApply) continue;
    std::vector<dispatch::WorkCondition> agent;
    for (const model::Condition& c : work.conditions) agent.push_back(MwrsWorkCondition(c));
    // A transition from before the cluster took this revision was the previous spec's (the
    // agent moves a condition's time only when its status changes, and Available often
    // stays True across a new generation): the outcome is this revision's from now, when
    // berth first sees it at the work's generation, and SetOutcome keeps that time after.
    int64_t since = status.last_transition_time_s.value_or(now_);
    if (since < TakenAt(history, cluster)) since = now_;
    history.SetOutcome(cluster, status.status, since, dispatch::DescribeWorkConditions(agent));
  }
}

int64_t MwrsStage::TakenAt(const ReplicaSetHistory& history, const std::string& cluster) const {
  const dispatch::Revision* current = history.history().Current();
  const dispatch::RevisionCluster* c = current != nullptr ? current->FindCluster(cluster) : nullptr;
  return c != nullptr ? c->taken_at_s : now_;
}

std::vector<dispatch::WorkCondition> MwrsStage::ConditionsOf(const ReplicaSetHistory& history,
                                                             const model::ManifestWork& work,
                                                             const std::string& hash) const {
  std::vector<dispatch::WorkCondition> out = RolloutConditionsOfWork(work);
  if (work.spec_hash != hash) return out;
  const dispatch::Revision* current = history.history().Current();
  const dispatch::RevisionCluster* c =
      current != nullptr ? current->FindCluster(work.meta.namespace_) : nullptr;
  if (c == nullptr) return out;
  for (dispatch::WorkCondition& condition : out) {
    if (condition.observed_generation == work.generation &&
        condition.last_transition_time_s.value_or(dispatch::kGoZeroTimeUnixS) < c->taken_at_s) {
      condition.last_transition_time_s = std::max(c->outcome_at_s, c->taken_at_s);
    }
  }
  return out;
}

std::vector<dispatch::HealthViolation> MwrsStage::Violations(
    ReplicaSetHistory& history, const std::vector<dispatch::HealthRule>& rules,
    const std::string& hash) {
  const dispatch::Revision* current = history.history().Current();
  if (rules.empty() || current == nullptr) return {};
  const std::map<std::string, int64_t> taken = current->TakenAt();
  std::set<std::string> names;
  for (const dispatch::HealthRule& r : rules) names.insert(r.feedback_name);
  std::vector<dispatch::FeedbackObservation> observations;
  for (int32_t index : works_) {
    const model::ManifestWork& work = planned_.manifest_works[static_cast<size_t>(index)];
    if (work.spec_hash != hash || work.deletion_timestamp.has_value()) continue;
    const std::string& cluster = work.meta.namespace_;
    auto took = taken.find(cluster);
    if (took == taken.end()) continue;
    // Until its agent has applied the work's generation, the feedback is the previous
    // spec's (a restored revision would be judged by the bad one's pods).
    if (dispatch::ClusterRolloutStatusOfWork(cluster, work.generation,
                                             RolloutConditionsOfWork(work))
            .status == dispatch::RolloutStatus::kToApply) {
      continue;
    }
    for (const std::string& name : names) {
      auto feedback = MwrsFeedback(work, name);
      if (!feedback.has_value()) continue;
      // The value reported now has stood since the feedback last started syncing when that
      // was after the cluster took this revision; a sync that began before it (the
      // condition keeps its time across generations) tells nothing about this revision,
      // so the value stands from now, when berth first sees it at this generation.
      const int64_t synced = feedback->second.value_or(now_);
      const int64_t first_at = synced >= took->second ? synced : now_;
      for (dispatch::FeedbackObservation& o :
           history.Observe(cluster, name, feedback->first, std::min(first_at, now_), now_)) {
        observations.push_back(std::move(o));
      }
    }
  }
  return dispatch::EvaluateHealthRules(rules, observations, taken, now_);
}

void MwrsStage::WriteWorks(const dispatch::MwrsStep& step, const std::string& hash,
                           const model::WorkSpecSource& source,
                           const std::vector<model::ManifestMeta>& manifests) {
  for (const dispatch::MwrsWorkApply& apply : step.apply) {
    core::Labels labels = mwrs_.meta.labels;
    labels[model::kMwrsOwnerLabel] = key_;
    labels[model::kMwrsPlacementLabel] = apply.placement;
    std::optional<int32_t> existing;
    for (int32_t index : works_) {
      const model::ManifestWork& w = planned_.manifest_works[static_cast<size_t>(index)];
      if (w.meta.namespace_ == apply.cluster && w.meta.name == apply.name) existing = index;
    }
    if (existing.has_value()) {
      model::ManifestWork& w = planned_.manifest_works[static_cast<size_t>(*existing)];
      bool same = w.spec_hash == hash;
      for (const auto& [k, v] : labels) {
        auto it = w.meta.labels.find(k);
        same = same && it != w.meta.labels.end() && it->second == v;
      }
      // Applied again only because its agent has not caught up: nothing to write.
      if (same) continue;
      for (const auto& [k, v] : labels) w.meta.labels[k] = v;
      w.spec_from = source;
      w.spec_hash = hash;
      w.read_manifests = manifests;
      w.manifest_configs.clear();
      plan_.manifest_work_items.push_back(*existing);
      continue;
    }
    model::ManifestWork w;
    w.meta.name = apply.name.empty() ? MwrsNewWorkName(planned_, mwrs_, apply.cluster) : apply.name;
    w.meta.namespace_ = apply.cluster;
    w.meta.labels = std::move(labels);
    w.spec_from = source;
    w.spec_hash = hash;
    w.read_manifests = manifests;
    w.created = true;
    w.cluster = mwrs_.cluster;
    plan_.manifest_work_items.push_back(static_cast<int32_t>(planned_.manifest_works.size()));
    planned_.manifest_works.push_back(std::move(w));
  }
  const std::string subject =
      std::string(kMwrsKind) + " " + mwrs_.meta.namespace_ + "/" + mwrs_.meta.name + ": ";
  for (const dispatch::MwrsWorkDelete& remove : step.remove) {
    plan_.deleted_objects.push_back({kMwrsWorkApiVersion, "ManifestWork", remove.cluster,
                                     remove.name, subject + remove.reason});
  }
}

void MwrsStage::Run() {
  for (size_t i = 0; i < planned_.manifest_works.size(); ++i) {
    const model::ManifestWork& w = planned_.manifest_works[i];
    auto owner = w.meta.labels.find(model::kMwrsOwnerLabel);
    if (w.cluster == mwrs_.cluster && owner != w.meta.labels.end() && owner->second == key_) {
      works_.push_back(static_cast<int32_t>(i));
    }
  }
  if (mwrs_.deletion_timestamp.has_value()) {
    // The finalizer's reconcile: the works go, then the MWRS.
    for (int32_t index : works_) {
      const model::ManifestWork& w = planned_.manifest_works[static_cast<size_t>(index)];
      plan_.deleted_objects.push_back({kMwrsWorkApiVersion, "ManifestWork", w.meta.namespace_,
                                       w.meta.name,
                                       std::string(kMwrsKind) + " " + mwrs_.meta.namespace_ + "/" +
                                           mwrs_.meta.name + " is being deleted"});
    }
    return;
  }

  // What OCM's controller decodes: a strategy it cannot read leaves the MWRS untouched.
  dispatch::ManifestWorkReplicaSetView view;
  view.namespace_ = mwrs_.meta.namespace_;
  view.name = mwrs_.meta.name;
  for (size_t i = 0; i < mwrs_.placement_refs.size(); ++i) {
    auto strategy = MwrsStepStrategy(mwrs_.placement_refs[i].rollout_strategy, i);
    if (!strategy.has_value()) {
      Report(std::move(strategy).error());
      return;
    }
    view.placement_refs.push_back({mwrs_.placement_refs[i].name, std::move(*strategy)});
  }
  view.status = MwrsStepStatus(mwrs_.status);
  std::vector<dispatch::HealthRule> rules;
  if (!mwrs_.health.empty()) {
    auto parsed = dispatch::ParseHealthRules(
        mwrs_.health, "metadata.annotations[" + std::string(model::kRolloutHealthAnnotation) + "]");
    if (parsed.has_value()) {
      rules = std::move(*parsed);
    } else {
      Report(std::move(parsed).error());
    }
  }

  // 1. The template to roll out.
  ReplicaSetHistory history(planned_, mwrs_);
  const model::WorkSpecSource template_source{mwrs_.source, {"spec", "manifestWorkTemplate"}};
  std::string hash = mwrs_.template_hash;
  model::WorkSpecSource source = template_source;
  std::vector<model::ManifestMeta> manifests = mwrs_.template_manifests;
  std::optional<model::MwrsRollback> rolled_back = mwrs_.rolled_back;
  bool released = false;
  auto use_revision = [&](int32_t stored) {
    const model::ControllerRevision& r = planned_.controller_revisions[static_cast<size_t>(stored)];
    hash = r.template_hash;
    source = {r.source, {"data", "spec", "manifestWorkTemplate"}};
    manifests = r.template_manifests;
  };
  if (rolled_back.has_value()) {
    auto stored = history.StoredRevision(rolled_back->to_template_hash);
    if (rolled_back->template_hash == mwrs_.template_hash && stored.has_value()) {
      use_revision(*stored);
    } else {
      rolled_back.reset();
      released = true;
    }
  }
  std::string cause;
  if (auto it = mwrs_.meta.annotations.find(model::kChangeCauseAnnotation);
      it != mwrs_.meta.annotations.end() && !rolled_back.has_value()) {
    cause = it->second;
  }
  history.history().Record(hash, now_, cause);
  view.template_hash = hash;

  // 2. Who holds it, and how it went.
  RecordWorks(history, hash);

  // 3. OCM's step.
  std::vector<dispatch::ReplicaWork> works;
  std::set<std::string> holding_current;
  std::set<std::string> holding_any;
  for (int32_t index : works_) {
    const model::ManifestWork& w = planned_.manifest_works[static_cast<size_t>(index)];
    dispatch::ReplicaWork rw;
    rw.cluster = w.meta.namespace_;
    rw.name = w.meta.name;
    if (auto p = w.meta.labels.find(model::kMwrsPlacementLabel); p != w.meta.labels.end()) {
      rw.placement = p->second;
    }
    rw.spec_hash = w.spec_hash;
    rw.generation = w.generation;
    rw.deleting = w.deletion_timestamp.has_value();
    rw.conditions = ConditionsOf(history, w, hash);
    if (!rw.deleting) {
      holding_any.insert(rw.cluster);
      if (rw.spec_hash == hash) holding_current.insert(rw.cluster);
    }
    works.push_back(std::move(rw));
  }
  const std::vector<dispatch::MwrsPlacement> placements =
      MwrsPlacementsOf(planned_, mwrs_, deleted_decisions_);
  dispatch::MwrsStep step = dispatch::StepManifestWorkReplicaSet(
      view, mwrs_.paused ? RestrictPlacements(placements, holding_current) : placements, works,
      now_);
  for (core::Error& e : step.errors) Report(std::move(e));
  for (const dispatch::MwrsPlacementRollout& r : step.rollouts) {
    for (const dispatch::ClusterRolloutStatus& t : r.result.clusters_timeout) {
      const dispatch::Revision* current = history.history().Current();
      const dispatch::RevisionCluster* c =
          current != nullptr ? current->FindCluster(t.cluster_name) : nullptr;
      history.SetOutcome(t.cluster_name, dispatch::RolloutStatus::kTimeOut, now_,
                         c != nullptr ? c->detail : std::string());
    }
  }

  // 4. Health and the rollback policy, per placementRef; a rollback wins over a pause.
  const std::vector<dispatch::HealthViolation> violations = Violations(history, rules, hash);
  dispatch::RollbackDecision decision;
  bool decided = false;
  if (!mwrs_.paused && !step.stopped) {
    dispatch::RollbackPolicy policy;
    policy.auto_rollback = mwrs_.auto_rollback;
    for (const dispatch::MwrsPlacementRollout& r : step.rollouts) {
      const dispatch::RolloutStrategy* strategy = nullptr;
      for (const dispatch::MwrsPlacementRef& ref : view.placement_refs) {
        if (ref.name == r.placement && strategy == nullptr) strategy = &ref.rollout_strategy;
      }
      if (strategy == nullptr) continue;
      dispatch::RollbackDecision d =
          dispatch::DecideRollback(history.history(), *strategy, r.result, violations, policy);
      const auto rank = [](dispatch::RollbackAction a) {
        return a == dispatch::RollbackAction::kRollback ? 2
               : a == dispatch::RollbackAction::kPause  ? 1
                                                        : 0;
      };
      if (!decided || rank(d.action) > rank(decision.action)) decision = std::move(d);
      decided = true;
    }
  }

  // 5. Act on it.
  std::string state;
  std::string message;
  dispatch::MwrsStep final_step;
  bool replaced = false;
  bool paused = mwrs_.paused;
  const char* pause_reason = kReasonPausedByUser;
  std::string pause_message = std::string(model::kRolloutPausedAnnotation) +
                              " is \"true\": no cluster gets a revision it does not hold";
  std::optional<int32_t> target;
  if (decision.action == dispatch::RollbackAction::kRollback) {
    target = history.StoredRevision(decision.to_spec_hash);
  }
  if (target.has_value()) {
    history.MarkRolledBack(decision.revision, decision.reason);
    use_revision(*target);
    const int64_t restored = history.history().Record(hash, now_);
    rolled_back = model::MwrsRollback{decision.revision, mwrs_.template_hash,  restored, hash,
                                      decision.reason,   core::Timestamp{now_}};
    released = false;
    RecordWorks(history, hash);
    dispatch::ManifestWorkReplicaSetView restore = view;
    restore.template_hash = hash;
    for (dispatch::MwrsPlacementRef& ref : restore.placement_refs) {
      ref.rollout_strategy = dispatch::RolloutStrategy{};  // All: every such cluster at once
    }
    final_step = dispatch::StepManifestWorkReplicaSet(
        restore, RestrictPlacements(placements, holding_any), works, now_);
    replaced = true;
  } else if (decision.action != dispatch::RollbackAction::kContinue) {
    paused = true;
    bool breach = false;
    for (const dispatch::MwrsPlacementRollout& r : step.rollouts) {
      breach = breach || r.result.max_failure_breach;
    }
    for (const dispatch::HealthViolation& v : violations) {
      for (const std::string& c : decision.took_revision) breach = breach || c == v.cluster;
    }
    pause_reason = breach || decision.action == dispatch::RollbackAction::kRollback
                       ? kReasonBadRevision
                       : kReasonDeadlineExceeded;
    pause_message = decision.reason;
    if (decision.action == dispatch::RollbackAction::kRollback) {
      pause_message += "; pausing: revision " + std::to_string(*decision.to_revision) +
                       " has no ControllerRevision to restore";
    }
    final_step = dispatch::StepManifestWorkReplicaSet(
        view, RestrictPlacements(placements, holding_current), works, now_);
    replaced = true;
  }
  if (!replaced) final_step = std::move(step);
  for (const dispatch::MwrsWorkApply& apply : final_step.apply)
    history.EnsureTaken(apply.cluster, now_);

  // 6. Conditions, works, revisions, status.
  dispatch::MwrsStatus status = std::move(final_step.status);
  if (rolled_back.has_value()) {
    SetMwrsCondition(&status, model::kMwrsConditionRolledBack, true, kReasonBadRevision,
                     rolled_back->reason, now_);
  } else if (released && dispatch::FindWorkCondition(status.conditions,
                                                     model::kMwrsConditionRolledBack) != nullptr) {
    SetMwrsCondition(&status, model::kMwrsConditionRolledBack, false, kReasonTemplateChanged,
                     "the template changed after the rollback; it is rolled out as revision " +
                         std::to_string(history.history().Current()->number),
                     now_);
  }
  if (paused) {
    SetMwrsCondition(&status, model::kMwrsConditionRolloutPaused, true, pause_reason, pause_message,
                     now_);
  } else if (MwrsConditionIsTrue(status, model::kMwrsConditionRolloutPaused)) {
    SetMwrsCondition(&status, model::kMwrsConditionRolloutPaused, false, kReasonResumed, "", now_);
  }
  WriteWorks(final_step, hash, source, manifests);
  history.Write(mwrs_, template_source, mwrs_.template_manifests, planned_, &plan_.deleted_objects);

  model::MwrsRolloutSummary& summary = mwrs_.rollout;
  summary.revision = history.history().Current()->number;
  summary.applied = status.summary.total;
  for (const dispatch::MwrsPlacement& p : placements) {
    summary.selected += p.number_of_selected_clusters;
  }
  if (rolled_back.has_value()) {
    state = "RolledBack";
    message = rolled_back->reason;
  } else if (paused) {
    state = "Paused";
    message = pause_message;
  } else {
    const dispatch::WorkCondition* rolled_out =
        dispatch::FindWorkCondition(status.conditions, dispatch::kMwrsPlacementRolledOut);
    state = rolled_out != nullptr && rolled_out->reason == dispatch::kMwrsReasonComplete
                ? "Complete"
                : "Progressing";
    const dispatch::WorkCondition* verified =
        dispatch::FindWorkCondition(status.conditions, dispatch::kMwrsPlacementVerified);
    const dispatch::WorkCondition* applied =
        dispatch::FindWorkCondition(status.conditions, dispatch::kMwrsManifestworkApplied);
    if (applied != nullptr && applied->reason == dispatch::kMwrsReasonInvalidManifestWorkName) {
      message = applied->message;
    } else if (verified != nullptr &&
               verified->reason == dispatch::kMwrsReasonPlacementDecisionNotFound) {
      for (const model::MwrsPlacementRef& ref : mwrs_.placement_refs) {
        bool found = false;
        for (const dispatch::MwrsPlacement& p : placements) found = found || p.name == ref.name;
        if (!found && message.empty()) message = "Placement " + ref.name + " not found";
      }
    } else if (verified != nullptr && verified->reason == dispatch::kMwrsReasonNotAsExpected) {
      message = "a rollout strategy is invalid";
    } else if (decided && !decision.failed_clusters.empty()) {
      message = decision.reason;
    }
  }
  summary.state = std::move(state);
  summary.message = std::move(message);
  mwrs_.status = MwrsModelStatus(status);
  mwrs_.rolled_back = std::move(rolled_back);
  mwrs_.stepped = true;
}

}  // namespace

std::vector<dispatch::WorkCondition> RolloutConditionsOfWork(const model::ManifestWork& work) {
  std::vector<dispatch::WorkCondition> out;
  const model::Condition* available = nullptr;
  bool progressing = false;
  for (const model::Condition& c : work.conditions) {
    out.push_back(MwrsWorkCondition(c));
    if (c.type == dispatch::kWorkAvailable) available = &c;
    if (c.type == dispatch::kWorkProgressing) progressing = true;
  }
  if (progressing || available == nullptr || available->observed_generation != work.generation) {
    return out;
  }
  dispatch::WorkCondition p = MwrsWorkCondition(*available);
  p.type = dispatch::kWorkProgressing;
  p.status = available->status == model::ConditionStatus::kTrue ? model::ConditionStatus::kFalse
                                                                : model::ConditionStatus::kTrue;
  out.push_back(p);
  if (available->status == model::ConditionStatus::kFalse) {
    dispatch::WorkCondition d = MwrsWorkCondition(*available);
    d.type = dispatch::kWorkDegraded;
    d.status = model::ConditionStatus::kTrue;
    out.push_back(d);
  }
  return out;
}

void RunReplicaSets(core::Timestamp now, Plan& plan) {
  std::set<std::pair<std::string, std::string>> deleted_decisions;
  for (const model::ObjectDeletion& d : plan.deleted_objects) {
    if (d.kind == "PlacementDecision") deleted_decisions.emplace(d.namespace_, d.name);
  }
  for (size_t i = 0; i < plan.planned.manifest_work_replica_sets.size(); ++i) {
    MwrsStage(i, now, plan, deleted_decisions).Run();
  }
}

}  // namespace berth::engine
