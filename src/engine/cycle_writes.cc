#include "engine/cycle_writes.h"

#include <algorithm>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "binding/framework/preemption.h"
#include "engine/terminating_pods.h"

namespace berth::engine {
namespace {

// Sets (or replaces) a pod condition, as the kubelet and scheduler patch status.conditions.
void SetCondition(model::Pod& pod, model::PodCondition condition) {
  for (auto& existing : pod.conditions) {
    if (existing.type == condition.type) {
      existing = std::move(condition);
      return;
    }
  }
  pod.conditions.push_back(std::move(condition));
}

// Writes a decision where kube-scheduler writes it: the binding sets spec.nodeName and
// PodScheduled=True; a failed attempt sets PodScheduled=False with reason Unschedulable and
// the FitError message. The node's name is read from the input: a fleet's planned snapshot
// gets its nodes, which no stage writes, only once the cycle is done.
void WriteDecision(const model::PodDecision& decision, const model::Snapshot& snapshot,
                   model::Snapshot& planned) {
  if (decision.skipped) return;
  model::Pod& pod = planned.pods[static_cast<size_t>(decision.pod.v)];
  if (decision.node) {
    pod.node_name = snapshot.node(*decision.node).meta.name;
    SetCondition(pod, {"PodScheduled", "True", "", ""});
  } else {
    SetCondition(pod, {"PodScheduled", "False", "Unschedulable", decision.message});
  }
}

// Writes what DynamicResources' PreBind writes: the allocation of a claim the bind
// allocated, and the pod in status.reservedFor. Returns the claim's index in `planned`.
int32_t WriteClaimBinding(const ClusterPart& part, const binding::ClaimBinding& binding,
                          model::Snapshot& planned) {
  const int32_t index = part.ToWholeClaim(binding.claim);
  model::ResourceClaim& claim = planned.resource_claims[static_cast<size_t>(index)];
  if (binding.allocated) claim.allocation = binding.allocation;
  const std::string& pod = planned.pod(part.ToWhole(binding.pod)).meta.name;
  if (std::find(claim.reserved_for.begin(), claim.reserved_for.end(), pod) ==
      claim.reserved_for.end()) {
    claim.reserved_for.push_back(pod);
  }
  return index;
}

// Writes what VolumeBinding's PreBind and the PV controller leave after a bind: a claim
// given a volume is Bound to it (spec.volumeName; the volume's claimRef), a claim left to
// its provisioner carries the node (annotation volume.kubernetes.io/selected-node). The
// bindings name objects of the part's snapshot; they are found in `planned` by cluster,
// namespace and name (a part may hold copies).
void WriteVolumeBindings(const ClusterPart& part,
                         const std::vector<binding::PlannedVolumeBinding>& bindings,
                         model::Snapshot& planned) {
  if (bindings.empty()) return;
  std::unordered_map<std::string, size_t> claims;
  for (size_t i = 0; i < planned.persistent_volume_claims.size(); ++i) {
    const model::PersistentVolumeClaim& c = planned.persistent_volume_claims[i];
    claims.emplace(c.cluster + "/" + c.meta.namespace_ + "/" + c.meta.name, i);
  }
  std::unordered_map<std::string, size_t> volumes;
  for (size_t i = 0; i < planned.persistent_volumes.size(); ++i) {
    const model::PersistentVolume& v = planned.persistent_volumes[i];
    volumes.emplace(v.cluster + "/" + v.meta.name, i);
  }
  const model::Snapshot& local = part.snapshot();
  for (const binding::PlannedVolumeBinding& b : bindings) {
    const model::PersistentVolumeClaim& from =
        local.persistent_volume_claims[static_cast<size_t>(b.claim)];
    auto c = claims.find(from.cluster + "/" + from.meta.namespace_ + "/" + from.meta.name);
    if (c == claims.end()) continue;
    model::PersistentVolumeClaim& claim = planned.persistent_volume_claims[c->second];
    claim.planned = true;
    if (b.volume < 0) {
      claim.selected_node = b.node;
      continue;
    }
    const model::PersistentVolume& pv = local.persistent_volumes[static_cast<size_t>(b.volume)];
    claim.volume_name = pv.meta.name;
    claim.phase = "Bound";
    auto v = volumes.find(pv.cluster + "/" + pv.meta.name);
    if (v == volumes.end()) continue;
    model::PersistentVolume& volume = planned.persistent_volumes[v->second];
    volume.planned = true;
    volume.claim_namespace = claim.meta.namespace_;
    volume.claim_name = claim.meta.name;
    volume.claim_uid = claim.meta.uid;
    volume.phase = "Bound";
  }
}

// The decision of the workload each pod belongs to, for the pods this cycle deletes or leaves
// terminating. Built once per cycle, and only when it has such pods: looking every pod up
// by scanning all decisions and their pods was O(workloads x pods) per pod.
class PodWorkloads {
 public:
  PodWorkloads() = default;
  PodWorkloads(const model::Snapshot& snapshot, const ClusterCycleResult& cycle) {
    if (!cycle.admission) return;
    for (const queueing::WorkloadDecision& d : cycle.admission->decisions) {
      const model::Workload& w = snapshot.kueue_workloads[static_cast<size_t>(d.workload)];
      for (const auto& pods : w.pods) {
        // emplace keeps the first decision naming a pod, as the scan it replaces did.
        for (int32_t pod : pods) by_pod_.emplace(pod, &d);
      }
    }
  }

  // Why a pod is deleted: the preempted workload it belongs to.
  std::string DeletionReason(const model::Snapshot& snapshot, model::PodIndex pod) const {
    const queueing::WorkloadDecision* d = Find(pod);
    if (d == nullptr) return "deleted";
    const model::Workload& w = snapshot.kueue_workloads[static_cast<size_t>(d->workload)];
    std::string reason = "workload " + (w.meta.namespace_.empty() ? "default" : w.meta.namespace_) +
                         "/" + w.meta.name + " was evicted";
    const std::string& preemption = d->eviction.ValueOrEmpty().preemption_reason;
    if (!preemption.empty()) reason += " (" + preemption + ")";
    return reason;
  }

  // The Evicted message of the workload a pod belongs to (Kueue's message for its stop).
  std::string EvictionMessage(model::PodIndex pod) const {
    const queueing::WorkloadDecision* d = Find(pod);
    return d == nullptr ? "" : d->message;
  }

 private:
  const queueing::WorkloadDecision* Find(model::PodIndex pod) const {
    auto it = by_pod_.find(pod.v);
    return it == by_pod_.end() ? nullptr : it->second;
  }

  std::unordered_map<int32_t, const queueing::WorkloadDecision*> by_pod_;
};

// The claims (local indices) a pod of the part references by name or template.
std::vector<int32_t> ClaimsOf(const ClusterPart& part, model::PodIndex pod) {
  std::vector<int32_t> out;
  const model::Snapshot& s = part.snapshot();
  const model::Pod& p = s.pod(pod);
  for (const auto& ref : p.resource_claims) {
    for (size_t i = 0; i < s.resource_claims.size(); ++i) {
      const model::ResourceClaim& c = s.resource_claims[i];
      if (c.meta.name == ref.claim_name && c.meta.namespace_ == p.meta.namespace_) {
        out.push_back(static_cast<int32_t>(i));
      }
    }
  }
  return out;
}

// Why DefaultPreemption deleted (or is deleting) a pod.
std::string PreemptionReason(const model::Snapshot& snapshot, const model::Pod& preemptor,
                             model::NodeIndex node) {
  std::string out = "preempted by pod ";
  out += preemptor.meta.namespace_.empty() ? "default" : preemptor.meta.namespace_;
  out += "/";
  out += preemptor.meta.name;
  out += " (priority ";
  out += std::to_string(preemptor.priority);
  out += ") on node ";
  out += snapshot.node(node).meta.name;
  out += " (DefaultPreemption)";
  return out;
}

}  // namespace

void MergeDiagnostics(const core::Diagnostics& from, core::Diagnostics& to) {
  for (const core::Diagnostic& d : from.entries()) {
    bool seen = false;
    for (const core::Diagnostic& e : to.entries()) {
      if (e.severity == d.severity && e.error.message() == d.error.message() &&
          e.error.location() == d.error.location()) {
        seen = true;
        break;
      }
    }
    if (seen) continue;
    if (d.severity == core::Severity::kError) {
      to.Report(d.error);
    } else {
      to.Warn(d.error);
    }
  }
}

binding::SchedulerOptions PartOptions(const ClusterPart& part, core::Diagnostics* diags) {
  binding::SchedulerOptions options;
  options.cluster = part.cluster;
  options.diagnostics = diags;
  if (part.borrows_nodes) {
    options.node_source = &part.whole->nodes;
    options.node_indices = part.nodes;
  }
  return options;
}

void ApplyCycle(const model::Snapshot& snapshot, const ClusterPart& part,
                binding::Scheduler& scheduler, ClusterCycleResult& cycle, core::Timestamp now,
                core::Diagnostics& diags, Plan& plan, std::set<int32_t>& changed,
                bool write_admission) {
  // Kueue's job integration writes the flavors' nodeSelector and tolerations into the pod
  // template when it unsuspends the job, so the pods carry them.
  for (const ClusterCycleResult::Injection& i : cycle.injections) {
    model::Pod& pod = plan.planned.pods[static_cast<size_t>(i.pod.v)];
    pod.node_selector = i.node_selector;
    pod.tolerations = i.tolerations;
  }
  // DefaultPreemption's victims: deleted in a settled plan (a victim this plan had bound
  // loses that decision), else still there after the decisions, being deleted, with
  // DisruptionTarget.
  std::set<int32_t> preempted;
  for (const model::PodPreemption& p : cycle.preemptions) {
    if (!p.completed) continue;
    const model::Pod& preemptor = snapshot.pod(p.preemptor);
    for (model::PodIndex victim : p.victims) {
      preempted.insert(victim.v);
      plan.deleted_pods.push_back({victim, PreemptionReason(snapshot, preemptor, p.node)});
    }
  }
  // Refused at creation (after Kueue's admission in this cycle): listed NotCreated.
  for (const auto& [pod, message] : cycle.refused_pods) {
    plan.planned.pods[static_cast<size_t>(pod.v)].admission_refused = message;
  }
  for (model::PodDecision& decision : cycle.pod_decisions) {
    if (preempted.count(decision.pod.v) != 0) continue;
    WriteDecision(decision, snapshot, plan.planned);
    plan.pod_decisions.push_back(std::move(decision));
  }
  // After one cycle a victim may have been chosen twice (it is still on its node, being
  // deleted, when the next preemptor looks): printed once.
  std::set<int32_t> disrupted;
  for (const model::PodPreemption& p : cycle.preemptions) {
    plan.preemptions.push_back(p);
    if (p.completed) continue;
    const model::Pod& preemptor = snapshot.pod(p.preemptor);
    plan.planned.pods[static_cast<size_t>(p.preemptor.v)].nominated_node_name =
        snapshot.node(p.node).meta.name;
    for (model::PodIndex victim : p.victims) {
      if (!disrupted.insert(victim.v).second) continue;
      model::Pod& v = plan.planned.pods[static_cast<size_t>(victim.v)];
      v.deletion_timestamp = now;
      SetCondition(v,
                   {"DisruptionTarget", "True", std::string(binding::kReasonPreemptionByScheduler),
                    binding::DisruptionTargetMessage(preemptor.scheduler_name)});
      model::PodDecision decision;
      decision.pod = victim;
      decision.node = p.node;  // the victims are on the node they are preempted from
      decision.message = PreemptionReason(snapshot, preemptor, p.node);
      plan.pod_decisions.push_back(std::move(decision));
    }
  }
  for (const binding::ClaimBinding& binding : scheduler.ClaimBindings()) {
    changed.insert(WriteClaimBinding(part, binding, plan.planned));
  }
  WriteVolumeBindings(part, scheduler.VolumeBindings(), plan.planned);
  // Deleted pods (preempted workloads) leave their claims' reservedFor, and a claim no pod
  // reserves any more is deallocated, as the resource claim controller does.
  const bool evicting = !cycle.deleted_pods.empty() || !cycle.terminating_pods.empty();
  const PodWorkloads pod_workloads =
      evicting ? PodWorkloads(snapshot, cycle) : PodWorkloads();
  for (model::PodIndex pod : cycle.deleted_pods) {
    const model::PodIndex whole = part.ToWhole(pod);
    plan.deleted_pods.push_back({whole, pod_workloads.DeletionReason(snapshot, whole)});
    for (int32_t local_claim : ClaimsOf(part, pod)) {
      const int32_t whole = part.ToWholeClaim(devices::ClaimIndex{local_claim});
      const model::ResourceClaim status = scheduler.ClaimStatus(devices::ClaimIndex{local_claim});
      model::ResourceClaim& claim = plan.planned.resource_claims[static_cast<size_t>(whole)];
      claim.allocation = status.allocation;
      claim.reserved_for = status.reserved_for;
      changed.insert(whole);
    }
  }
  // Pods of workloads evicted in the last of N cycles: still bound, terminating.
  for (model::PodIndex pod : cycle.terminating_pods) {
    const model::PodIndex whole = part.ToWhole(pod);
    plan.pod_decisions.push_back(MarkTerminating(snapshot, plan.planned, whole, now,
                                                 pod_workloads.EvictionMessage(whole),
                                                 pod_workloads.DeletionReason(snapshot, whole)));
  }
  // Pods created in place of deleted ones (re-admitted workloads) join the plan's pods. Last,
  // because the plan may be the input itself (RunPlan(Snapshot&&)): nothing above holds a
  // reference into its pods across this append.
  for (ClusterCycleResult::CreatedPod& created : cycle.created_pods) {
    const auto index = static_cast<int32_t>(plan.planned.pods.size());
    plan.planned.pods.push_back(std::move(created.pod));
    created.decision.pod = model::PodIndex{index};
    WriteDecision(created.decision, snapshot, plan.planned);
    plan.created_pods.push_back({index, created.workload});
    plan.pod_decisions.push_back(std::move(created.decision));
  }
  cycle.created_pods.clear();
  if (cycle.admission && write_admission) {
    ApplyAdmission(part.name, std::move(*cycle.admission), now, plan);
    cycle.admission.reset();
  }
  MergeDiagnostics(diags, plan.diagnostics);
}

void ApplyAdmission(const std::string& cluster, queueing::AdmissionResult&& result,
                    core::Timestamp now, Plan& plan) {
  queueing::ApplyDecisions(result, now, &plan.planned);
  plan.admissions.push_back({cluster, std::move(result)});
}

}  // namespace berth::engine
