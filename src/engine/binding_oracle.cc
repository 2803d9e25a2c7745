#include "engine/binding_oracle.h"

#include <algorithm>
#include <utility>

#include "engine/admitted_pods.h"
#include "engine/gang_binding.h"

namespace berth::engine {

BindingOracle::BindingOracle(const model::Snapshot& whole, const ClusterPart& part,
                             binding::Scheduler& scheduler)
    : whole_(whole), part_(part), scheduler_(scheduler) {}

void BindingOracle::Override(int32_t workload, const model::Admission& admission,
                             std::vector<model::PodIndex>* pending) {
  const model::Workload& w = whole_.kueue_workloads[static_cast<size_t>(workload)];
  const auto& mine = bound_[workload];
  for (AdmittedPod& admitted : AdmittedPods(whole_, w, admission)) {
    std::optional<model::PodIndex> local = part_.ToLocal(admitted.pod);
    if (!local) continue;
    const model::Pod& pod = part_.snapshot().pod(*local);
    if (pod.IsBound() || pod.IsTerminal()) continue;
    if (std::find(mine.begin(), mine.end(), *local) != mine.end()) continue;
    scheduler_.OverridePod(*local, admitted.spec);
    overrides_[local->v] = std::move(admitted.spec);
    pending->push_back(*local);
  }
}

void BindingOracle::PlaceAdmitted(int32_t workload, const model::Admission& admission) {
  std::vector<model::PodIndex> pending;
  Override(workload, admission, &pending);
  for (model::PodIndex pod : pending) {
    model::PodDecision decision = scheduler_.ScheduleOne(pod);
    if (decision.node) bound_[workload].push_back(pod);
    const model::Pod& spec = overrides_.at(pod.v);
    log_.push_back({workload, ToWhole(part_, std::move(decision)), true, spec.node_selector,
                    spec.tolerations});
  }
}

bool BindingOracle::TryPlace(int32_t workload, const model::Admission& admission,
                             std::string* why) {
  std::vector<model::PodIndex> pending;
  Override(workload, admission, &pending);
  // A Workload given without its job has no pods here: its quota is all there is to check.
  if (pending.empty()) return true;
  GangVerdict gang = BindGang(scheduler_, pending);
  if (gang.placed) {
    for (model::PodDecision& d : gang.decisions) {
      if (d.node) bound_[workload].push_back(d.pod);
      const model::Pod& spec = overrides_.at(d.pod.v);
      log_.push_back({workload, ToWhole(part_, std::move(d)), false, spec.node_selector,
                      spec.tolerations});
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
      const model::Pod& pod = part_.snapshot().pod(first.pod);
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
      if (pod.IsBound() && !pod.IsTerminal() && unbound_input_.insert(local->v).second) {
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
