#include "engine/plan.h"

#include <algorithm>
#include <set>
#include <utility>

#include "engine/cluster_cycle.h"
#include "engine/cluster_part.h"

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
// the FitError message.
void WriteDecision(const model::PodDecision& decision, model::Snapshot& planned) {
  if (decision.skipped) return;
  model::Pod& pod = planned.pods[static_cast<size_t>(decision.pod.v)];
  if (decision.node) {
    pod.node_name = planned.node(*decision.node).meta.name;
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

// Why a pod is deleted: the preempted workload it belongs to.
std::string DeletionReason(const model::Snapshot& snapshot, model::PodIndex pod,
                           const ClusterCycleResult& cycle) {
  if (!cycle.admission) return "deleted";
  for (const auto& d : cycle.admission->decisions) {
    const model::Workload& w = snapshot.kueue_workloads[static_cast<size_t>(d.workload)];
    for (const auto& pods : w.pods) {
      if (std::find(pods.begin(), pods.end(), pod.v) == pods.end()) continue;
      std::string reason = "workload " + (w.meta.namespace_.empty() ? "default" : w.meta.namespace_) +
                           "/" + w.meta.name + " was evicted";
      if (!d.preemption_reason.empty()) reason += " (" + d.preemption_reason + ")";
      return reason;
    }
  }
  return "deleted";
}

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

// Appends `from`'s entries to `to`, each distinct (message, location, severity) once: every
// cluster's allocator sees the same DeviceClasses, so their problems would repeat.
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
  return options;
}

const char* PhaseName(model::PodPhase phase) {
  switch (phase) {
    case model::PodPhase::kPending:
      return "Pending";
    case model::PodPhase::kRunning:
      return "Running";
    case model::PodPhase::kSucceeded:
      return "Succeeded";
    case model::PodPhase::kFailed:
      return "Failed";
    case model::PodPhase::kUnknown:
      return "Unknown";
  }
  return "Unknown";
}

// Why a pod is not in the scheduling queue, for ExplainPod's error.
core::Error NotQueued(const model::Pod& pod, const model::SchedulerConfig& config) {
  std::string key = PodKey(pod);
  if (pod.IsTerminal()) {
    return core::FailedPrecondition("pod " + key + " has finished (phase " + PhaseName(pod.phase) +
                                    "); only pending pods are scheduled");
  }
  if (pod.IsBound()) {
    return core::FailedPrecondition("pod " + key + " is already bound to node " + pod.node_name +
                                    "; only pending pods are scheduled");
  }
  if (config.FindProfile(pod.scheduler_name) == nullptr) {
    return core::FailedPrecondition("pod " + key + " asks for schedulerName \"" +
                                    pod.scheduler_name +
                                    "\", which no scheduler profile serves; it is left alone");
  }
  return core::FailedPrecondition("pod " + key + " is not in the scheduling queue");
}

// A pod of a Kueue Workload is placed with its workload, all at once, when Kueue admits it.
core::Error NotQueuedBehindKueue(const model::Snapshot& snapshot, model::PodIndex pod) {
  for (const model::Workload& w : snapshot.kueue_workloads) {
    for (const auto& pods : w.pods) {
      if (std::find(pods.begin(), pods.end(), pod.v) == pods.end()) continue;
      return core::FailedPrecondition(
          "pod " + PodKey(snapshot.pod(pod)) + " belongs to Kueue workload " +
          (w.meta.namespace_.empty() ? "default" : w.meta.namespace_) + "/" + w.meta.name +
          " (queue " + w.queue_name + "); its pods are placed together when Kueue admits it: run "
          "`berth explain workload/" + w.meta.name + "`");
    }
  }
  return core::FailedPrecondition("pod " + PodKey(snapshot.pod(pod)) + " belongs to a Kueue workload");
}

}  // namespace

std::string PodKey(const model::Pod& pod) {
  std::string key = pod.meta.namespace_.empty() ? "default" : pod.meta.namespace_;
  key += '/';
  key += pod.meta.name;
  return key;
}

model::SchedulerConfig EffectiveSchedulerConfig(const model::Snapshot& snapshot,
                                                const PlanOptions& options) {
  model::SchedulerConfig config = snapshot.scheduler_config.value_or(model::SchedulerConfig{});
  if (options.scoring) {
    for (auto& profile : config.profiles) {
      profile.fit_strategy.type = *options.scoring;
      // Upstream validation requires a shape for RequestedToCapacityRatio; a flag cannot
      // carry one, so use the documented bin-packing shape.
      if (*options.scoring == model::ScoringStrategyType::kRequestedToCapacityRatio &&
          profile.fit_strategy.shape.empty()) {
        profile.fit_strategy.shape = {{0, 0}, {100, 10}};
      }
    }
  }
  return config;
}

core::Timestamp PlanTime(const model::Snapshot& snapshot, const PlanOptions& options) {
  if (options.now) return *options.now;
  core::Timestamp latest;
  for (const auto& w : snapshot.kueue_workloads) latest = std::max(latest, w.meta.creation_timestamp);
  for (const auto& p : snapshot.pods) latest = std::max(latest, p.meta.creation_timestamp);
  for (const auto& w : snapshot.workloads) latest = std::max(latest, w.meta.creation_timestamp);
  return latest;
}

Plan RunPlan(const model::Snapshot& snapshot, const PlanOptions& options) {
  Plan plan;
  plan.planned = snapshot;
  const model::SchedulerConfig config = EffectiveSchedulerConfig(snapshot, options);
  const core::Timestamp now = PlanTime(snapshot, options);
  std::set<int32_t> changed;
  for (const ClusterPart& part : SplitByCluster(snapshot)) {
    core::Diagnostics diags;
    binding::Scheduler scheduler(part.snapshot(), config, PartOptions(part, &diags));
    ClusterCycleResult cycle = RunClusterCycle(snapshot, part, scheduler, now, diags);
    // Kueue's job integration writes the flavors' nodeSelector and tolerations into the pod
    // template when it unsuspends the job, so the pods carry them.
    for (const ClusterCycleResult::Injection& i : cycle.injections) {
      model::Pod& pod = plan.planned.pods[static_cast<size_t>(i.pod.v)];
      pod.node_selector = i.node_selector;
      pod.tolerations = i.tolerations;
    }
    for (model::PodDecision& decision : cycle.pod_decisions) {
      WriteDecision(decision, plan.planned);
      plan.pod_decisions.push_back(std::move(decision));
    }
    for (const binding::ClaimBinding& binding : scheduler.ClaimBindings()) {
      changed.insert(WriteClaimBinding(part, binding, plan.planned));
    }
    // Deleted pods (preempted workloads) leave their claims' reservedFor, and a claim no pod
    // reserves any more is deallocated, as the resource claim controller does.
    for (model::PodIndex pod : cycle.deleted_pods) {
      plan.deleted_pods.push_back({part.ToWhole(pod), DeletionReason(snapshot, part.ToWhole(pod), cycle)});
      for (int32_t local_claim : ClaimsOf(part, pod)) {
        const int32_t whole = part.ToWholeClaim(devices::ClaimIndex{local_claim});
        const model::ResourceClaim status = scheduler.ClaimStatus(devices::ClaimIndex{local_claim});
        model::ResourceClaim& claim = plan.planned.resource_claims[static_cast<size_t>(whole)];
        claim.allocation = status.allocation;
        claim.reserved_for = status.reserved_for;
        changed.insert(whole);
      }
    }
    if (cycle.admission) {
      queueing::ApplyDecisions(*cycle.admission, now, &plan.planned);
      plan.admissions.push_back({part.name, std::move(*cycle.admission)});
    }
    MergeDiagnostics(diags, plan.diagnostics);
  }
  plan.changed_claims.assign(changed.begin(), changed.end());
  for (size_t i = 0; i < plan.planned.kueue_workloads.size(); ++i) {
    plan.workloads.push_back(static_cast<int32_t>(i));
  }
  return plan;
}

core::Result<model::PodIndex> FindPod(const model::Snapshot& snapshot,
                                      const std::string& pod_name) {
  const bool qualified = pod_name.find('/') != std::string::npos;
  std::vector<model::PodIndex> matches;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const model::Pod& pod = snapshot.pods[i];
    if (qualified ? PodKey(pod) == pod_name : pod.meta.name == pod_name) {
      matches.push_back(model::PodIndex{static_cast<int32_t>(i)});
    }
  }
  if (matches.empty()) return core::NotFound("pod \"" + pod_name + "\" not found in the input");
  if (matches.size() > 1) {
    std::string candidates;
    for (model::PodIndex i : matches) {
      const model::Pod& pod = snapshot.pod(i);
      if (!candidates.empty()) candidates += ", ";
      candidates += PodKey(pod);
      if (pod.cluster != "default") candidates += " (cluster " + pod.cluster + ")";
    }
    return core::InvalidArgument("pod name \"" + pod_name + "\" is ambiguous: " + candidates +
                                 "; name it as namespace/name");
  }
  return matches.front();
}

core::Result<Explanation> ExplainPod(const model::Snapshot& snapshot, const std::string& pod_name,
                                     const PlanOptions& options) {
  BERTH_ASSIGN_OR_RETURN(model::PodIndex target, FindPod(snapshot, pod_name));
  const model::SchedulerConfig config = EffectiveSchedulerConfig(snapshot, options);
  for (const ClusterPart& part : SplitByCluster(snapshot)) {
    std::optional<model::PodIndex> local = part.ToLocal(target);
    if (!local) continue;
    core::Diagnostics diags;
    binding::Scheduler scheduler(part.snapshot(), config, PartOptions(part, &diags));
    const std::vector<model::PodIndex> queue = scheduler.QueueOrder();
    auto it = std::find(queue.begin(), queue.end(), *local);
    if (it == queue.end()) return NotQueued(snapshot.pod(target), config);
    if (KueuePodMask(snapshot, part)[static_cast<size_t>(target.v)]) {
      return NotQueuedBehindKueue(snapshot, target);
    }
    // Replay the cycle up to the pod so that it meets the nodes as the cycle leaves them.
    bool reached = false;
    (void)RunClusterCycle(snapshot, part, scheduler, PlanTime(snapshot, options), diags, *local,
                          &reached);
    // RunClusterCycle reaches every queued pod that is not a Kueue pod.
    BERTH_CHECK(reached, "a queued pod the cluster cycle never reached");
    Explanation explanation;
    explanation.pod = scheduler.Explain(*local);
    explanation.pod.pod = target;
    for (auto& verdict : explanation.pod.nodes) verdict.node = part.ToWhole(verdict.node);
    explanation.pod.decision = ToWhole(part, std::move(explanation.pod.decision));
    explanation.queue_position = static_cast<int32_t>(it - queue.begin()) + 1;
    explanation.queue_length = static_cast<int32_t>(queue.size());
    MergeDiagnostics(diags, explanation.diagnostics);
    return explanation;
  }
  // FindPod returned an index of `snapshot`, and the parts cover every pod.
  BERTH_CHECK(false, "pod found in the snapshot but in no cluster part");
  return core::Internal("unreachable");
}

}  // namespace berth::engine
