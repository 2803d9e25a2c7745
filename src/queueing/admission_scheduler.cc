#include "queueing/admission_scheduler.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/check.h"

namespace berth::queueing {
namespace {

const char* PreemptionText(const std::string& reason) {
  if (reason == "InClusterQueue") return "prioritization in the ClusterQueue";
  if (reason == "InCohortReclaimWhileBorrowing") {
    return "reclamation within the cohort while borrowing";
  }
  if (reason == "InCohortFairSharing") return "Fair Sharing within the cohort";
  return "reclamation within the cohort";
}

std::string Or(const std::string& value, const char* fallback) {
  return value.empty() ? fallback : value;
}

// workload.ValidateResources: every container whose request exceeds its limit, as the
// aggregated field error Kueue reports ("" when none). A limit berth reads as 0 counts as unset.
std::string RequestsOverLimits(const model::Workload& wl, const model::ResourceCatalog& catalog) {
  std::vector<std::string> errors;
  // The field path is spelled only for a container in error: every pending workload passes
  // here, and building paths for the valid ones was most of the cost of classifying them.
  auto check = [&](const model::Container& c, size_t pod_set, const char* field, size_t index) {
    std::vector<std::string> names;
    for (size_t r = 0; r < c.requests.size(); ++r) {
      const model::ResourceId id{static_cast<uint16_t>(r)};
      const int64_t limit = c.limits.Get(id);
      if (limit > 0 && c.requests.Get(id) > limit) names.push_back(catalog.Name(id));
    }
    if (names.empty()) return;
    std::sort(names.begin(), names.end());
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "\"" : ",\"") + n + "\"";
    errors.push_back("spec.podSets[" + std::to_string(pod_set) + "].template.spec." + field +
                     "[" + std::to_string(index) + "]: Invalid value: [" + list +
                     "]: requests must not exceed its limits");
  };
  for (size_t i = 0; i < wl.pod_sets.size(); ++i) {
    const model::Pod& t = wl.pod_sets[i].pod_template;
    for (size_t c = 0; c < t.init_containers.size(); ++c) {
      check(t.init_containers[c], i, "initContainers", c);
    }
    for (size_t c = 0; c < t.containers.size(); ++c) check(t.containers[c], i, "containers", c);
  }
  if (errors.empty()) return "";
  if (errors.size() == 1) return errors[0];
  std::string joined;
  for (const auto& e : errors) joined += (joined.empty() ? "" : ", ") + e;
  return "[" + joined + "]";
}

std::string JobUid(const model::Workload& wl) {
  auto it = wl.meta.labels.find("kueue.x-k8s.io/job-uid");
  return it == wl.meta.labels.end() ? "UNKNOWN" : Or(it->second, "UNKNOWN");
}

}  // namespace

AdmissionScheduler::AdmissionScheduler(const model::Snapshot& snapshot,
                                       const AdmissionOptions& options, PlacementOracle* oracle,
                                       core::Diagnostics& diags)
    : snapshot_(snapshot),
      options_(options),
      oracle_(oracle),
      state_(snapshot, BuildQueueSetup(snapshot, options.cluster, diags)),
      preemptor_(state_),
      assigner_(state_, &preemptor_),
      dra_(snapshot, options.cluster),
      decisions_(snapshot.kueue_workloads.size()),
      in_cluster_(snapshot.kueue_workloads.size(), false),
      finished_(snapshot.kueue_workloads.size(), false),
      queued_(snapshot.kueue_workloads.size(), false) {
  if (snapshot.kueue_config && snapshot.kueue_config->admission_fair_sharing) {
    afs_ = std::make_unique<AdmissionFairSharing>(
        snapshot, state_.setup(), *snapshot.kueue_config->admission_fair_sharing,
        options.cluster, options.now);
    preemptor_.UseAdmissionFairSharing(afs_.get());
  }
  for (size_t q = 0; q < state_.setup().cqs.size(); ++q) {
    const bool afs_on = afs_ != nullptr && afs_->Enabled(static_cast<int32_t>(q));
    queues_.emplace_back(&state_, afs_on ? afs_.get() : nullptr);
  }
  if (snapshot.kueue_config && snapshot.kueue_config->fair_sharing) {
    fair_sharing_ = std::make_unique<FairSharing>(snapshot, state_.setup());
    fair_preemptor_ = std::make_unique<FairSharingPreemptor>(
        state_, *fair_sharing_, snapshot.kueue_config->fair_sharing->preemption_strategies);
    fair_order_ = std::make_unique<FairSharingIterator>(state_, *fair_sharing_);
    preemptor_.UseFairSharing(fair_preemptor_.get());
  }
}

std::vector<model::CheckState> AdmissionScheduler::CheckStates(
    int32_t wl, int32_t cq, const model::Admission& admission) const {
  std::vector<model::CheckState> out;
  const model::Workload& w = state_.workload(wl);
  for (const auto& rule : state_.cq_spec(cq).admission_checks) {
    bool applies = rule.on_flavors.empty();
    for (const auto& psa : admission.pod_set_assignments) {
      for (const auto& [res, flavor] : psa.flavors) {
        applies = applies || std::find(rule.on_flavors.begin(), rule.on_flavors.end(), flavor) !=
                                 rule.on_flavors.end();
      }
    }
    if (!applies) continue;
    model::CheckState st = model::CheckState::kPending;
    for (const auto& s : w.admission_checks) {
      if (s.name == rule.name) st = s.state;
    }
    out.push_back(st);
  }
  return out;
}

void AdmissionScheduler::ClassifyHolder(int32_t i, WorkloadDecision& d) {
  const model::Workload& wl = state_.workload(i);
  d.admission = wl.admission;
  auto cq_it = state_.setup().cq_by_name.find(wl.admission->cluster_queue);
  auto evict = [&](WorkloadOutcome outcome, const char* eviction, std::string message) {
    d.outcome = outcome;
    d.eviction.Ensure().reason = eviction;
    d.reason = outcome == WorkloadOutcome::kInactive ? "Inadmissible" : "Pending";
    d.message = std::move(message);
    d.admission.reset();
    if (oracle_ != nullptr) oracle_->Release(i);
  };
  if (!wl.active) {
    evict(WorkloadOutcome::kInactive, "Deactivated", "The workload is deactivated");
    return;
  }
  if (cq_it == state_.setup().cq_by_name.end()) {
    // Its ClusterQueue is gone: Kueue leaves it running and accounts it nowhere.
    d.outcome = WorkloadOutcome::kAlreadyAdmitted;
    return;
  }
  const int32_t q = cq_it->second;
  state_.info(i).cq = q;
  // Its held usage comes from its admission; the devices count again if it is preempted and
  // requeued (a claim Kueue could not count would not have been admitted: ignored here).
  (void)dra_.AddRequests(wl, state_.info(i));
  const std::vector<model::CheckState> checks = CheckStates(i, q, *wl.admission);
  const auto has = [&](model::CheckState s) {
    return std::find(checks.begin(), checks.end(), s) != checks.end();
  };
  if (has(model::CheckState::kRejected)) {
    d.deactivate = true;
    evict(WorkloadOutcome::kInactive, "AdmissionCheck",
          "The workload is deactivated due to a rejected AdmissionCheck");
    return;
  }
  if (has(model::CheckState::kRetry)) {
    evict(WorkloadOutcome::kPending, "AdmissionCheck", "At least one admission check is false");
    return;
  }
  if (state_.cq_spec(q).stop_policy == model::StopPolicy::kHoldAndDrain) {
    evict(WorkloadOutcome::kPending, "ClusterQueueStopped", "The ClusterQueue is stopped");
    return;
  }
  HeldQuota held;
  held.cq = q;
  held.admission = *wl.admission;
  const model::WorkloadCondition* reserved = wl.FindCondition("QuotaReserved");
  held.reserved_at = reserved->last_transition_time;
  held.usage = AdmissionUsage(state_.setup(), snapshot_.resources, *wl.admission);
  state_.Hold(i, std::move(held));
  const bool all_ready = !has(model::CheckState::kPending);
  if (all_ready) {
    d.outcome = ConditionTrue(wl, "Admitted") ? WorkloadOutcome::kAlreadyAdmitted
                                              : WorkloadOutcome::kAdmitted;
  } else {
    d.outcome = WorkloadOutcome::kQuotaReserved;
  }
}

void AdmissionScheduler::ClassifyPending(int32_t i, WorkloadDecision& d) {
  const model::Workload& wl = state_.workload(i);
  d.outcome = WorkloadOutcome::kInadmissible;
  if (!wl.active) {
    d.outcome = WorkloadOutcome::kInactive;
    return;
  }
  // Kueue's workload controller counts the DRA devices before the workload is queued
  // (handleDRA); one it cannot count is Misconfigured and never reaches a ClusterQueue.
  if (std::string dra_error = dra_.AddRequests(wl, state_.info(i)); !dra_error.empty()) {
    d.reason = "Misconfigured";
    d.message = std::move(dra_error);
    return;
  }
  QueueResolution queue = ResolveQueue(state_.setup(), snapshot_, wl);
  // The ClusterQueue is recorded even when it cannot admit: its status counts the workload.
  if (queue.cq >= 0) state_.info(i).cq = queue.cq;
  if (!queue.ok()) {
    d.reason = std::move(queue.reason);
    d.message = std::move(queue.message);
    return;
  }
  const int32_t q = queue.cq;
  for (const auto& s : wl.admission_checks) {
    if (s.state == model::CheckState::kRejected) {
      d.outcome = WorkloadOutcome::kInactive;
      d.deactivate = true;
      d.reason = "Inadmissible";
      d.message = "The workload is deactivated due to a rejected AdmissionCheck";
      return;
    }
  }
  // scheduler.go nominate -> ValidateAdmissibility: requests above limits are Misconfigured.
  if (std::string invalid = RequestsOverLimits(wl, snapshot_.resources); !invalid.empty()) {
    d.reason = "Misconfigured";
    d.message = "resources validation failed: " + invalid;
    return;
  }
  d.outcome = WorkloadOutcome::kPending;
  queues_[static_cast<size_t>(q)].Push(i);
  queued_[static_cast<size_t>(i)] = true;
}

void AdmissionScheduler::Classify(bool holders_only) {
  // Holders first, so every pending workload sees the quota already taken.
  std::vector<int32_t> pending;
  for (size_t i = 0; i < snapshot_.kueue_workloads.size(); ++i) {
    const model::Workload& wl = snapshot_.kueue_workloads[i];
    if (wl.cluster != options_.cluster) continue;
    const bool holder =
        wl.admission && ConditionTrue(wl, "QuotaReserved") && !ConditionTrue(wl, "Evicted");
    if (holders_only && !holder) continue;
    in_cluster_[i] = true;
    const int32_t idx = static_cast<int32_t>(i);
    state_.info(idx) = BuildWorkloadInfo(wl, idx);
    WorkloadDecision& d = decisions_[i];
    d.workload = idx;
    if (ConditionTrue(wl, "Finished")) {
      d.outcome = WorkloadOutcome::kFinished;
      d.admission = wl.admission;
      continue;
    }
    if (holder) {
      ClassifyHolder(idx, d);
    } else {
      pending.push_back(idx);
    }
  }
  for (int32_t i : pending) ClassifyPending(i, decisions_[static_cast<size_t>(i)]);
}

AdmissionScheduler::Entry AdmissionScheduler::Nominate(int32_t wl) {
  Entry e;
  e.wl = wl;
  const WorkloadInfo& info = state_.info(wl);
  for (const auto& ps : info.pod_sets) e.counts.push_back(ps.count);
  auto attempt = [&](const std::vector<int32_t>& counts, Entry& out) {
    out.assignment = assigner_.Assign(info, counts, options_.explain);
    out.preemption = {};
    if (out.assignment.mode == Assignment::Mode::kPreempt) {
      out.preemption = preemptor_.GetTargets(info, info.cq, out.assignment.usage,
                                             out.assignment.contested, options_.explain);
      // TAS: victims for the placement too, or NoFit if none would make it fit.
      assigner_.CompleteTopologyTargets(info, out.assignment, out.preemption);
    }
    return out.assignment.mode == Assignment::Mode::kFit ||
           (out.assignment.mode == Assignment::Mode::kPreempt && !out.preemption.targets.empty());
  };
  if (attempt(e.counts, e)) return e;
  // Partial admission: the smallest reduction whose counts fit or preempt with targets.
  std::optional<Entry> best =
      SearchPartialAdmission<Entry>(info, [&](std::vector<int32_t> counts) -> std::optional<Entry> {
        Entry trial;
        trial.wl = wl;
        trial.counts = std::move(counts);
        if (!attempt(trial.counts, trial)) return std::nullopt;
        return trial;
      });
  if (best) return std::move(*best);
  return e;
}

bool AdmissionScheduler::QuotaFits(int32_t cq, const FrUsage& usage) const {
  for (const auto& [fr, v] : usage) {
    if (v > state_.tree().Available(cq, fr)) return false;
  }
  return true;
}

std::string AdmissionScheduler::CqPath(int32_t cq) const {
  // preemption.go buildCQPath: "/root/.../cohort/cq".
  const QueueSetup& setup = state_.setup();
  const int32_t num_cqs = static_cast<int32_t>(setup.cqs.size());
  std::vector<const std::string*> parts{&setup.cqs[static_cast<size_t>(cq)].name};
  for (int32_t v = setup.tree.parent(cq); v != QuotaTree::kNoParent; v = setup.tree.parent(v)) {
    parts.push_back(&setup.cohort_names[static_cast<size_t>(v - num_cqs)]);
  }
  std::string path;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) path += "/" + **it;
  return path;
}

FrUsage QuotaToReserve(const QuotaTree& tree, int32_t cq, const Assignment& a) {
  // scheduler.go quotaResourcesToReserve: a preemptor without victims holds only what its
  // own queue could still give it (its nominal headroom, or up to its borrowing limit when
  // the assignment borrows), not its whole request: the rest stays open to the cohort.
  if (a.mode != Assignment::Mode::kPreempt) return a.usage;
  FrUsage reserve;
  reserve.reserve(a.usage.size());
  for (const auto& [fr, v] : a.usage) {
    const int64_t used = tree.Usage(cq, fr);
    int64_t amount = 0;
    if (a.borrow_level > 0) {
      const std::optional<int64_t> limit = tree.BorrowingLimit(cq, fr);
      // Clamped at 0 (upstream is not): after a quota shrink the headroom can be negative,
      // and a negative hold would give quota away.
      amount = limit ? std::max<int64_t>(0, std::min(v, tree.Nominal(cq, fr) + *limit - used)) : v;
    } else {
      amount = std::max<int64_t>(0, std::min(v, tree.Nominal(cq, fr) - used));
    }
    reserve.emplace_back(fr, amount);
  }
  return reserve;
}

model::Admission AdmissionScheduler::BuildAdmission(const Entry& e) const {
  return ToAdmission(state_.cq(state_.info(e.wl).cq).name, e.assignment);
}

void AdmissionScheduler::Requeue(int32_t wl, bool park) {
  const int32_t q = state_.info(wl).cq;
  const bool strict = state_.cq_spec(q).queueing_strategy == model::QueueingStrategy::kStrictFifo;
  // StrictFIFO keeps its head in the heap (it blocks the queue); BestEffortFIFO parks it so
  // the next workload becomes head, until quota frees in the cohort.
  if (park && !strict) {
    parked_by_[std::to_string(q) + '#' + state_.info(wl).equivalence] = wl;
    queues_[static_cast<size_t>(q)].Park(wl);
    queued_[static_cast<size_t>(wl)] = true;
  } else {
    queues_[static_cast<size_t>(q)].Push(wl);
    queued_[static_cast<size_t>(wl)] = true;
  }
}

bool AdmissionScheduler::Process(Entry& e, int32_t cycle) {
  WorkloadDecision& d = decisions_[static_cast<size_t>(e.wl)];
  const WorkloadInfo& info = state_.info(e.wl);
  const int32_t q = info.cq;
  const bool strict = state_.cq_spec(q).queueing_strategy == model::QueueingStrategy::kStrictFifo;
  // A victim requeued in this run keeps its eviction as the story to tell unless it gets
  // quota again; its later attempts still show in attempts/candidates.
  struct Restore {
    WorkloadDecision& d;
    std::optional<WorkloadDecision> evicted;
    ~Restore() {
      if (evicted && d.outcome != WorkloadOutcome::kAdmitted &&
          d.outcome != WorkloadOutcome::kQuotaReserved) {
        // Kueue's scheduler writes this attempt's reason into QuotaReserved=False.
        Eviction& e = d.eviction.Ensure();
        e.retry_reason = std::move(d.reason);
        e.retry_message = std::move(d.message);
        d.outcome = WorkloadOutcome::kPreempted;
        d.reason = std::move(evicted->reason);
        d.message = std::move(evicted->message);
        d.cycle = evicted->cycle;
      }
    }
  } restore{d, d.outcome == WorkloadOutcome::kPreempted ? std::optional<WorkloadDecision>(d)
                                                        : std::nullopt};
  d.cycle = cycle;
  d.attempts = e.assignment.attempts;
  d.candidates = e.preemption.candidates;
  d.outcome = WorkloadOutcome::kPending;
  const Assignment& a = e.assignment;
  if (a.mode == Assignment::Mode::kNoFit) {
    d.reason = a.reason;
    d.message = a.message;
    Requeue(e.wl, true);
    return !strict;
  }
  // Preempt mode without victims (scheduler.go reserveCapacityForUnreclaimablePreempt): hold
  // the quota it could get by preemption for the rest of the cycle, so lower-ordered
  // workloads cannot take it (unless reclaim=Any frees it anyway).
  auto wait_without_victims = [&]() {
    d.reason = "WaitingForQuota";
    d.message = a.message;
    if (state_.cq_spec(q).preemption.reclaim_within_cohort != model::PreemptionPolicy::kAny) {
      FrUsage reserve = QuotaToReserve(state_.tree(), q, a);
      state_.AddUsage(q, reserve);
      cycle_reservations_.emplace_back(q, std::move(reserve));
    }
    Requeue(e.wl, true);
    return !strict;
  };
  if (a.mode == Assignment::Mode::kPreempt) {
    if (e.preemption.targets.empty()) return wait_without_victims();
    const bool overlaps = std::any_of(
        e.preemption.targets.begin(), e.preemption.targets.end(),
        [&](const PreemptionTarget& t) { return !state_.held(t.workload).has_value(); });
    if (overlaps) {
      // RecomputeAssignmentUponPreemptionTargetsOverlap: earlier entries of this cycle already
      // evicted some of its targets (they are gone from the tree and the admitted sets), so
      // search again. If their removal alone makes room it is a DeferredFit: it waits for
      // those evictions holding the quota.
      if (QuotaFits(q, a.usage)) {
        state_.AddUsage(q, a.usage);
        cycle_reservations_.emplace_back(q, a.usage);
        d.reason = "WaitingForPreemptedWorkloads";
        d.message =
            "Workload has overlapping preemption targets with another workload, but will fit "
            "after these preemptions complete";
        queues_[static_cast<size_t>(q)].PushSticky(e.wl);
        queued_[static_cast<size_t>(e.wl)] = true;
        return true;
      }
      e.preemption = preemptor_.GetTargets(info, q, a.usage, a.contested, options_.explain);
      d.candidates = e.preemption.candidates;
      if (e.preemption.targets.empty()) return wait_without_victims();
      // The new search can still name a workload another entry already evicts.
      if (std::any_of(e.preemption.targets.begin(), e.preemption.targets.end(),
                      [&](const PreemptionTarget& t) { return !state_.held(t.workload); })) {
        d.reason = "WaitingForQuota";
        d.message = "Workload has overlapping preemption targets with another workload";
        Requeue(e.wl, false);
        return false;
      }
    }
    for (const auto& t : e.preemption.targets) {
      const HeldQuota& h = *state_.held(t.workload);
      state_.RemoveUsage(h.cq, h.usage);
    }
    const bool fits = QuotaFits(q, a.usage);
    for (const auto& t : e.preemption.targets) {
      const HeldQuota& h = *state_.held(t.workload);
      state_.AddUsage(h.cq, h.usage);
    }
    if (!fits) {
      d.reason = "WaitingForQuota";
      d.message = "Workload no longer fits after processing another workload";
      Requeue(e.wl, false);
      return false;
    }
    const model::Workload& preemptor = state_.workload(e.wl);
    const std::string preemptor_path = CqPath(q);
    for (const auto& t : e.preemption.targets) {
      const std::string preemptee_path = CqPath(state_.held(t.workload)->cq);
      state_.Release(t.workload);
      cycle_victims_.push_back(t.workload);
      WorkloadDecision& v = decisions_[static_cast<size_t>(t.workload)];
      v.outcome = WorkloadOutcome::kPreempted;
      v.cycle = cycle;
      v.admission.reset();
      v.preempted_by = e.wl;
      Eviction& eviction = v.eviction.Ensure();
      eviction.preemption_reason = t.reason;
      eviction.reason = "Preempted";
      v.reason = "Preempted";
      v.message = "Preempted to accommodate a workload (UID: " + Or(preemptor.meta.uid, "UNKNOWN") +
                  ", JobUID: " + JobUid(preemptor) + ") due to " + PreemptionText(t.reason) +
                  "; preemptor path: " + preemptor_path + "; preemptee path: " + preemptee_path;
      eviction.message = v.message;
      eviction.retry_reason.clear();
      eviction.retry_message.clear();
      d.victims.push_back(t.workload);
    }
    state_.AddUsage(q, a.usage);
    cycle_reservations_.emplace_back(q, a.usage);
    d.reason = "WaitingForPreemptedWorkloads";
    // Kueue appends the preemption to the assignment's message (markPreemptionOutcome).
    d.message = a.message + ". Pending the preemption of " +
                std::to_string(e.preemption.targets.size()) + " workload(s)";
    queues_[static_cast<size_t>(q)].PushSticky(e.wl);
    queued_[static_cast<size_t>(e.wl)] = true;
    return true;
  }
  // Fit: the cohort re-check against what earlier entries of this cycle took.
  if (!QuotaFits(q, a.usage)) {
    d.reason = "WaitingForQuota";
    d.message = "Workload no longer fits after processing another workload";
    Requeue(e.wl, false);
    return false;
  }
  // TAS: place again on what earlier entries of this cycle took.
  if (!assigner_.PlaceTopology(info, e.assignment)) {
    d.reason = "WaitingForQuota";
    d.message = "Workload no longer fits after processing another workload";
    Requeue(e.wl, false);
    return false;
  }
  model::Admission admission = BuildAdmission(e);
  if (oracle_ != nullptr) {
    std::string why;
    if (!oracle_->TryPlace(e.wl, admission, &why)) {
      d.reason = "TopologyPlacementFailed";
      d.message = "couldn't place the workload's pods: " + why;
      Requeue(e.wl, true);
      return !strict;
    }
  }
  const std::vector<model::CheckState> checks = CheckStates(e.wl, q, admission);
  const bool all_ready = std::all_of(checks.begin(), checks.end(), [](model::CheckState s) {
    return s == model::CheckState::kReady;
  });
  HeldQuota held;
  held.cq = q;
  held.usage = a.usage;
  held.admission = admission;
  held.reserved_at = options_.now;
  held.sequence = state_.NextSequence();
  state_.Hold(e.wl, std::move(held));
  // AFS entry penalty: the LocalQueue's usage grows at once, so its other workloads move back
  // in this queue before the next cycle picks a head.
  if (afs_ != nullptr && afs_->Enabled(q)) {
    queues_[static_cast<size_t>(q)].UsageChanged(afs_->AddEntryPenalty(e.wl, admission));
  }
  d.outcome = all_ready ? WorkloadOutcome::kAdmitted : WorkloadOutcome::kQuotaReserved;
  d.admission = std::move(admission);
  log_.push_back({e.wl, true});
  d.reason.clear();
  d.message.clear();
  return true;
}

bool AdmissionScheduler::ProcessCycle(std::vector<Entry>& entries, int32_t cycle) {
  bool progress = false;
  if (fair_order_ != nullptr) {
    // Fair sharing: each pick reads the tree as the entries processed before it left it.
    std::vector<FairSharingIterator::Nominee> nominees;
    nominees.reserve(entries.size());
    for (const Entry& e : entries) {
      nominees.push_back({e.wl, state_.info(e.wl).cq, e.assignment.usage});
    }
    fair_order_->Reset(std::move(nominees));
    while (!fair_order_->Empty()) {
      Entry& e = entries[fair_order_->Pop()];
      const bool changed = Process(e, cycle);
      progress = changed || progress;
      if (!changed && e.assignment.mode != Assignment::Mode::kPreempt) continue;
      fair_order_->UsageChanged(state_.info(e.wl).cq);
      for (const auto& t : e.preemption.targets) fair_order_->UsageChanged(state_.info(t.workload).cq);
    }
    return progress;
  }
  // Classical order: lower borrowing level, higher priority, older, then UID and index.
  std::sort(entries.begin(), entries.end(), [this](const Entry& a, const Entry& b) {
    if (a.assignment.borrow_level != b.assignment.borrow_level) {
      return a.assignment.borrow_level < b.assignment.borrow_level;
    }
    const WorkloadInfo& ia = state_.info(a.wl);
    const WorkloadInfo& ib = state_.info(b.wl);
    if (ia.priority != ib.priority) return ia.priority > ib.priority;
    if (ia.queue_timestamp != ib.queue_timestamp) return ia.queue_timestamp < ib.queue_timestamp;
    const std::string& ua = state_.workload(a.wl).meta.uid;
    const std::string& ub = state_.workload(b.wl).meta.uid;
    if (ua != ub) return ua < ub;
    return a.wl < b.wl;
  });
  for (Entry& e : entries) progress = Process(e, cycle) || progress;
  return progress;
}

ClusterQueueState AdmissionScheduler::CqState(int32_t q) const {
  const ClusterQueueInfo& cq = state_.cq(q);
  ClusterQueueState s;
  s.name = cq.name;
  s.active = cq.active;
  s.reason = cq.reason;
  s.message = cq.message;
  if (fair_sharing_ != nullptr) s.weighted_share = fair_sharing_->Share(state_.tree(), q).Rounded();
  const auto& catalog = snapshot_.resources;
  for (const auto& group : cq.groups) {
    for (const auto& flavor : group.flavors) {
      for (size_t r = 0; r < flavor.frs.size(); ++r) {
        const int32_t fr = flavor.frs[r];
        const int64_t used = state_.tree().Usage(q, fr);
        s.usage.push_back({flavor.name, catalog.Name(group.resources[r]), used,
                           std::max<int64_t>(0, used - state_.tree().SubtreeQuota(q, fr))});
      }
    }
  }
  return s;
}

int32_t AdmissionScheduler::RunCycles(int64_t max_cycles) {
  int32_t cycle = 0;
  std::vector<Entry> entries;
  while (cycle < max_cycles) {
    entries.clear();
    for (size_t q = 0; q < queues_.size(); ++q) {
      std::optional<int32_t> wl = queues_[q].Pop();
      // A workload Finished while queued (cancelled) is dropped when it surfaces.
      while (wl && finished_[static_cast<size_t>(*wl)]) {
        queued_[static_cast<size_t>(*wl)] = false;
        wl = queues_[q].Pop();
      }
      if (wl) {
        queued_[static_cast<size_t>(*wl)] = false;
        entries.push_back(Nominate(*wl));
      }
    }
    if (entries.empty()) break;
    ++cycle;
    cycle_victims_.clear();
    cycle_reservations_.clear();
    const bool progress = ProcessCycle(entries, cycle);
    for (const auto& [q, usage] : cycle_reservations_) state_.RemoveUsage(q, usage);
    // Victims are evicted now: their quota is free for the next cycle, they are pending
    // again, and every parked workload of their cohort tree gets another chance.
    std::set<int32_t> freed_roots;
    for (int32_t v : cycle_victims_) {
      if (oracle_ != nullptr) oracle_->Release(v);
      log_.push_back({v, false});
      const int32_t q = state_.info(v).cq;
      // Requeued through its LocalQueue as Kueue's queue manager does: a missing or stopped
      // LocalQueue (or none named) leaves it evicted and unqueued, and a LocalQueue that now
      // points elsewhere queues it there.
      QueueResolution queue = ResolveQueue(state_.setup(), snapshot_, state_.workload(v));
      if (queue.ok()) {
        state_.info(v).cq = queue.cq;
        queues_[static_cast<size_t>(queue.cq)].Push(v);
        queued_[static_cast<size_t>(v)] = true;
      } else {
        // Not queued, so no scheduler attempt follows; Kueue's workload controller writes
        // the queue blocker into QuotaReserved=False instead (workload_controller.go
        // syncQuotaReservedFalseCondition / getQueueBlocker).
        WorkloadDecision& vd = decisions_[static_cast<size_t>(v)];
        Eviction& eviction = vd.eviction.Ensure();
        eviction.retry_reason = queue.reason;
        eviction.retry_message = queue.message;
      }
      if (!freed_roots.insert(state_.tree().Root(q)).second) continue;
      for (int32_t member : state_.cq(q).same_tree)
        queues_[static_cast<size_t>(member)].Reactivate();
    }
    if (!progress) break;
  }
  return cycle;
}

AdmissionResult AdmissionScheduler::Run() {
  Classify(false);
  const int64_t num_workloads = static_cast<int64_t>(snapshot_.kueue_workloads.size());
  const int64_t num_cqs = static_cast<int64_t>(queues_.size());
  const int64_t max_cycles =
      options_.max_cycles > 0 ? options_.max_cycles : 4 * (num_workloads + num_cqs) + 64;
  AdmissionResult result;
  result.cycles = RunCycles(max_cycles);
  // Workloads parked with an equivalent one never became head themselves: they wait for the
  // same reason, so they carry its message (Kueue leaves them without a new condition).
  for (size_t i = 0; i < decisions_.size(); ++i) {
    WorkloadDecision& d = decisions_[i];
    const int32_t q = state_.info(static_cast<int32_t>(i)).cq;
    if (!in_cluster_[i] || d.outcome != WorkloadOutcome::kPending || !d.reason.empty() || q < 0) {
      continue;
    }
    auto it =
        parked_by_.find(std::to_string(q) + '#' + state_.info(static_cast<int32_t>(i)).equivalence);
    if (it == parked_by_.end()) continue;
    const WorkloadDecision& rep = decisions_[static_cast<size_t>(it->second)];
    if (rep.outcome != WorkloadOutcome::kPending) continue;
    d.reason = rep.reason;
    d.message = rep.message;
    d.cycle = rep.cycle;
  }
  for (size_t i = 0; i < decisions_.size(); ++i) {
    if (in_cluster_[i]) result.decisions.push_back(std::move(decisions_[i]));
  }
  for (size_t q = 0; q < queues_.size(); ++q) {
    result.cluster_queues.push_back(CqState(static_cast<int32_t>(q)));
  }
  // Status counts in one pass over the decisions (pending, reserving, admitted).
  for (const WorkloadDecision& d : result.decisions) {
    const int32_t q = state_.info(d.workload).cq;
    if (q < 0) continue;
    ClusterQueueState& s = result.cluster_queues[static_cast<size_t>(q)];
    // A preempted workload is requeued by Kueue: it waits like any pending one.
    if (!state_.held(d.workload) && (d.outcome == WorkloadOutcome::kPending ||
                                     d.outcome == WorkloadOutcome::kPreempted)) {
      ++s.pending;
    }
    if (!state_.held(d.workload)) continue;
    ++s.reserving;
    if (d.outcome == WorkloadOutcome::kAdmitted || d.outcome == WorkloadOutcome::kAlreadyAdmitted) {
      ++s.admitted;
    }
  }
  return result;
}

void AdmissionScheduler::Start() { Classify(true); }

void AdmissionScheduler::Submit(int32_t wl, std::optional<core::Timestamp> queue_order_time) {
  const size_t i = static_cast<size_t>(wl);
  BERTH_CHECK(!state_.held(wl).has_value(), "Submit: the workload already holds quota");
  in_cluster_[i] = true;
  finished_[i] = false;
  // Finished while still queued: it is still in its queue (dropped only when it surfaces),
  // so it simply stays there, with its place and decision as they were.
  if (queued_[i]) return;
  state_.info(wl) = BuildWorkloadInfo(state_.workload(wl), wl);
  if (queue_order_time) state_.info(wl).queue_timestamp = *queue_order_time;
  decisions_[i] = WorkloadDecision{};
  decisions_[i].workload = wl;
  ClassifyPending(wl, decisions_[i]);
}

void AdmissionScheduler::Finish(int32_t wl) {
  finished_[static_cast<size_t>(wl)] = true;
  if (!state_.held(wl)) return;
  const int32_t q = state_.info(wl).cq;
  state_.Release(wl);
  if (oracle_ != nullptr) oracle_->Release(wl);
  for (int32_t member : state_.cq(q).same_tree) queues_[static_cast<size_t>(member)].Reactivate();
}

void AdmissionScheduler::ReactivateAll() {
  for (PendingQueue& q : queues_) q.Reactivate();
}

AdmissionScheduler::Changes AdmissionScheduler::Schedule(core::Timestamp now) {
  options_.now = now;
  log_.clear();
  // As Run's bound, over the workloads taking part now (queued or holding quota): a
  // preemption cycle (victims readmitted by reclaim, preempting again) cannot run away.
  int64_t active = 0;
  for (size_t q = 0; q < queues_.size(); ++q) {
    active += static_cast<int64_t>(queues_[q].size() + state_.admitted(static_cast<int32_t>(q)).size());
  }
  const int64_t max_cycles = options_.max_cycles > 0
                                 ? options_.max_cycles
                                 : 4 * (active + static_cast<int64_t>(queues_.size())) + 64;
  Changes changes;
  changes.cycles = RunCycles(max_cycles);
  changes.changes = std::move(log_);
  log_.clear();
  return changes;
}

}  // namespace berth::queueing
