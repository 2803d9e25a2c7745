// BindingOracle: the engine's answer to queueing's question "can this admitted workload's
// pods run now?" (queueing::PlacementOracle), given with the binding stage of one member
// cluster: the workload's pods, with its flavors and topology assignment injected, are
// bound all or nothing (BindGang, gang_binding.h). Also places the pods of
// workloads admitted in the input, and unbinds the pods of preempted ones. A pod bound in the
// input that a preemption deleted is not scheduled again when its workload is re-admitted:
// the job creates a new pod in its place (replacement_pods.h), which the scheduler takes as
// a guest (Scheduler::AddPod). Keeps, per
// workload, the decisions made for its pods, in the order they were made. Borrows the
// snapshot, part and scheduler; used from one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "core/labels.h"
#include "core/taint.h"
#include "core/time.h"
#include "engine/admitted_pods.h"
#include "engine/cluster_part.h"
#include "engine/pod_admission.h"
#include "model/decision.h"
#include "model/snapshot.h"
#include "queueing/placement_oracle.h"

namespace berth::engine {

class BindingOracle : public queueing::PlacementOracle {
 public:
  // `now`: when pods created in place of deleted ones are created.
  BindingOracle(const model::Snapshot& whole, const ClusterPart& part,
                binding::Scheduler& scheduler, core::Timestamp now);

  // kube-scheduler's cycle for one pending pod (local index), DefaultPreemption included
  // (cluster_cycle.cc); the decision in local indices.
  using ScheduleFn = std::function<model::PodDecision(model::PodIndex)>;

  // The not-yet-bound pods (local indices) of a workload that holds `admission` in the
  // input, with its flavors injected: each is to be scheduled at its turn in kube-scheduler's
  // queue (ScheduleAdmitted), as any pod once the job runs (no gang: the workload was
  // admitted before this plan), so a pod that fits nowhere may preempt.
  std::vector<model::PodIndex> PrepareAdmitted(int32_t workload, const model::Admission& admission);
  // One pod PrepareAdmitted returned, scheduled with `schedule`; its decision is logged.
  void ScheduleAdmitted(int32_t workload, model::PodIndex pod, const ScheduleFn& schedule);

  bool TryPlace(int32_t workload, const model::Admission& admission, std::string* why) override;
  void Release(int32_t workload) override;

  struct Entry {
    int32_t workload = -1;
    // Indices into the whole snapshot; for a created pod, only the node (the pod is not in
    // the snapshot: see `created`).
    model::PodDecision decision;
    bool from_input = false;      // ScheduleAdmitted (the workload was admitted in the input)
    // The pod's nodeSelector and tolerations as Kueue injects them (flavors, topology).
    core::Labels node_selector;
    std::vector<core::Toleration> tolerations;
    // Set for a pod created in place of a deleted one: the pod, as scheduled.
    std::optional<model::Pod> created;
  };
  // A pod of a workload Kueue admitted in this plan that the API server refused to create
  // (ResourceQuota, LimitRange: CreatedPodAdmission): never scheduled; the workload runs
  // with the pods that were created.
  struct Refusal {
    int32_t workload = -1;
    model::PodIndex pod;  // whole index
    std::string message;  // `pods "NAME" is forbidden: ...`
  };
  const std::vector<Refusal>& refusals() const { return refusals_; }

  // Every decision made for a workload's pods, in order, except for pods since deleted
  // (their workload was released).
  const std::vector<Entry>& Decisions() const { return log_; }
  // Workloads whose pods were unbound at some point (preempted): their pods were deleted.
  const std::set<int32_t>& released() const { return released_; }
  // Pods bound in the input that Release() unbound (local indices), ascending.
  const std::set<int32_t>& unbound_input_pods() const { return unbound_input_; }
  // A pod (local index) kube-scheduler's DefaultPreemption unbound as a victim: Release
  // must not unbind it again, and a pod of the input is not listed as unbound by Kueue.
  void NoteUnbound(model::PodIndex local) {
    preempted_.insert(local.v);
    for (auto& [workload, pods] : bound_) std::erase(pods, local);
  }

 private:
  // Gives the scheduler the admitted specs of the workload's pods it has not bound yet and
  // appends them (local indices) to `pending`.
  // With `creating` (an admission in this plan), the job controller creates each pod the
  // snapshot holds from the workload's template: a pod the API server refuses is recorded
  // (refusals()) and left out of `pending`.
  void Override(int32_t workload, const model::Admission& admission,
                std::vector<model::PodIndex>* pending, bool creating);
  // Whether the pod (local) may be created now; records the refusal otherwise. A pod is
  // created once: a re-admission after a preemption keeps the first answer.
  bool Create(int32_t workload, model::PodIndex local, model::Pod* spec);
  // The guest slot (local index) of the pod created in place of `deleted` (a pod bound in the
  // input that Release unbound), given the admitted spec; made on first use, its spec
  // replaced on a later admission. nullopt for a pod with ResourceClaims (AddPod takes none).
  std::optional<model::PodIndex> Replacement(const model::Workload& w, model::PodIndex deleted,
                                             const AdmittedPod& admitted);
  // The decision as logged: whole indices, or for a created pod the node's only.
  model::PodDecision Logged(model::PodDecision decision) const;
  bool IsCreated(model::PodIndex local) const { return created_.count(local.v) != 0; }

  const model::Snapshot& whole_;
  const ClusterPart& part_;
  binding::Scheduler& scheduler_;
  std::vector<Entry> log_;
  std::map<int32_t, std::vector<model::PodIndex>> bound_;  // workload -> local pods bound here
  std::map<int32_t, model::Pod> overrides_;  // local pod -> the spec it was scheduled with
  std::set<int32_t> released_;
  std::set<int32_t> unbound_input_;  // local pods bound in the input and unbound here
  std::set<int32_t> preempted_;      // local pods DefaultPreemption unbound (NoteUnbound)
  core::Timestamp now_;
  std::map<int32_t, model::PodIndex> replacements_;  // deleted local pod -> its guest slot
  std::set<int32_t> created_;                         // the guest slots
  std::set<std::string> names_;  // "namespace/name" of the cluster's pods, once needed
  // The API server's admission of the pods created here, built at the first creation in a
  // snapshot with LimitRanges or ResourceQuotas (their usage as AdmitCreatedPods left it).
  std::optional<CreatedPodAdmission> creation_;
  std::map<int32_t, bool> created_answer_;  // local pod -> created (refusals_ says why not)
  std::vector<Refusal> refusals_;
};

}  // namespace berth::engine
