#include "engine/binding_oracle.h"

#include <algorithm>
#include <utility>

#include "engine/admitted_pods.h"
#include "engine/gang_binding.h"
#include "engine/plan.h"
#include "engine/replacement_pods.h"

namespace berth::engine {

BindingOracle::BindingOracle(const model::Snapshot& whole, const ClusterPart& part,
                             binding::Scheduler& scheduler, core::Timestamp now)
    : whole_(whole), part_(part), scheduler_(scheduler), now_(now) {}

std::optional<model::PodIndex> BindingOracle::Replacement(const model::Workload& w,
                                                          model::PodIndex deleted,
                                                          const AdmittedPod& admitted) {
  const model::Pod& old = part_.snapshot().pod(deleted);
  // TODO: replacements of pods with ResourceClaims (template claims made anew). (#13)
  if (!old.resource_claims.empty()) return std::nullopt;
  auto it = replacements_.find(deleted.v);
  const std::string name =
      it != replacements_.end() ? overrides_.at(it->second.v).meta.name : [&] {
        if (names_.empty()) {
          for (const model::Pod& p : part_.snapshot().pods) names_.insert(PodKey(p));
        }
        return ReplacementPodName(old.meta.namespace_, old.meta.name, names_);
      }();
  model::Pod spec = ReplacementPod(old, w.pod_sets[admitted.pod_set], name, now_);
  AddAdmission(admitted.added_node_selector, admitted.added_tolerations, &spec);
  model::PodIndex slot;
  if (it != replacements_.end()) {
    // Preempted again and re-admitted: the pod created last time is the one (it was never
    // printed: Release dropped its decisions), now with this admission's constraints.
    slot = it->second;
    scheduler_.OverridePod(slot, spec);
  } else {
    names_.insert(PodKey(spec));
    slot = scheduler_.AddPod(spec);
    replacements_[deleted.v] = slot;
    created_.insert(slot.v);
  }
  overrides_[slot.v] = std::move(spec);
  return slot;
}

model::PodDecision BindingOracle::Logged(model::PodDecision decision) const {
  if (!IsCreated(decision.pod)) return ToWhole(part_, std::move(decision));
  if (decision.node) decision.node = part_.ToWhole(*decision.node);
  return decision;
}

bool BindingOracle::Create(int32_t workload, model::PodIndex local, model::Pod* spec) {
  auto known = created_answer_.find(local.v);
  if (known != created_answer_.end()) return known->second;
  std::string refusal;
  if (!whole_.limit_ranges.empty() || !whole_.resource_quotas.empty()) {
    if (!creation_) creation_.emplace(whole_);
    refusal = creation_->Create(spec, /*defaults_only=*/false);
  }
  const bool created = refusal.empty();
  if (!created) refusals_.push_back({workload, part_.ToWhole(local), std::move(refusal)});
  created_answer_.emplace(local.v, created);
  return created;
}

void BindingOracle::Override(int32_t workload, const model::Admission& admission,
                             std::vector<model::PodIndex>* pending, bool creating) {
  const model::Workload& w = whole_.kueue_workloads[static_cast<size_t>(workload)];
  const auto& mine = bound_[workload];
  for (AdmittedPod& admitted : AdmittedPods(whole_, w, admission)) {
    std::optional<model::PodIndex> local = part_.ToLocal(admitted.pod);
    if (!local) continue;
    const model::Pod& pod = part_.snapshot().pod(*local);
    // Terminal, or refused by the API server (pod_admission.h): never to be scheduled.
    if (pod.IsTerminal() || !pod.admission_refused.empty()) continue;
    if (pod.IsBound()) {
      // Still running, or deleted by this plan's preemption: then a new pod takes its place.
      if (unbound_input_.count(local->v) == 0) continue;
      auto made = replacements_.find(local->v);
      if (made != replacements_.end() &&
          std::find(mine.begin(), mine.end(), made->second) != mine.end()) {
        continue;  // its replacement is bound already
      }
      if (std::optional<model::PodIndex> slot = Replacement(w, *local, admitted)) {
        pending->push_back(*slot);
      }
      continue;
    }
    if (std::find(mine.begin(), mine.end(), *local) != mine.end()) continue;
    if (creating && IsCreatedPod(pod) && !Create(workload, *local, &admitted.spec)) continue;
    scheduler_.OverridePod(*local, admitted.spec);
    overrides_[local->v] = std::move(admitted.spec);
    pending->push_back(*local);
  }
}

std::vector<model::PodIndex> BindingOracle::PrepareAdmitted(int32_t workload,
                                                         const model::Admission& admission) {
  std::vector<model::PodIndex> pending;
  Override(workload, admission, &pending, /*creating=*/false);
  return pending;
}

void BindingOracle::ScheduleAdmitted(int32_t workload, model::PodIndex pod,
                                     const ScheduleFn& schedule) {
  model::PodDecision decision = schedule(pod);
  if (decision.node) bound_[workload].push_back(pod);
  const model::Pod& spec = overrides_.at(pod.v);
  log_.push_back({workload, Logged(std::move(decision)), true, spec.node_selector,
                  spec.tolerations, std::nullopt});
}

bool BindingOracle::TryPlace(int32_t workload, const model::Admission& admission,
                             std::string* why) {
  std::vector<model::PodIndex> pending;
  Override(workload, admission, &pending, /*creating=*/true);
  // A Workload given without its job has no pods here, or the API server refused every pod:
  // its quota is all Kueue checks.
  if (pending.empty()) return true;
  GangVerdict gang = BindGang(scheduler_, pending);
  if (gang.placed) {
    for (model::PodDecision& d : gang.decisions) {
      if (d.node) bound_[workload].push_back(d.pod);
      const model::Pod& spec = overrides_.at(d.pod.v);
      std::optional<model::Pod> created;
      if (IsCreated(d.pod)) created = spec;
      log_.push_back({workload, Logged(std::move(d)), false, spec.node_selector,
                      spec.tolerations, std::move(created)});
    }
    return true;
  }
  // Name the first pod that could not bind on its own (the others were undone or left
  // untried: Coscheduling's rejection), with kube-scheduler's message for it.
  if (why != nullptr) {
    *why = std::to_string(gang.failed) + " of " + std::to_string(pending.size()) +
           " pods cannot be bound";
    if (gang.first_failure) {
      const model::PodDecision& first = gang.decisions[*gang.first_failure];
      // From the specs tried, not the part's snapshot: a replacement pod (replacement_pods.h)
      // lives only in the scheduler, its index past the snapshot's pods.
      const model::Pod& pod = overrides_.at(first.pod.v);
      *why += "; pod " + pod.meta.name + ": " + first.message;
    }
  }
  return false;
}

void BindingOracle::Release(int32_t workload) {
  const model::Workload& w = whole_.kueue_workloads[static_cast<size_t>(workload)];
  // Pods bound in the input, and pods bound during this plan.
  for (const auto& pods : w.pods) {
    for (int32_t p : pods) {
      std::optional<model::PodIndex> local = part_.ToLocal(model::PodIndex{p});
      if (!local) continue;
      const model::Pod& pod = part_.snapshot().pod(*local);
      if (pod.IsBound() && !pod.IsTerminal() && preempted_.count(local->v) == 0 &&
          unbound_input_.insert(local->v).second) {
        scheduler_.Unbind(*local);
      }
    }
  }
  for (model::PodIndex pod : bound_[workload]) scheduler_.Unbind(pod);
  bound_.erase(workload);
  // Its pods are deleted: what was decided for them is no longer printed.
  std::erase_if(log_, [&](const Entry& e) { return e.workload == workload; });
  released_.insert(workload);
}

}  // namespace berth::engine
