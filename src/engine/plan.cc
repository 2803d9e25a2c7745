#include "engine/plan.h"

#include <algorithm>
#include <set>
#include <utility>

#include "engine/admitted_pods.h"
#include "engine/cluster_cycle.h"
#include "engine/cluster_part.h"
#include "engine/cycle_writes.h"
#include "engine/eviction_completion.h"
#include "engine/nodes_at_turn.h"
#include "engine/pod_admission.h"
#include "engine/pod_groups.h"
#include "engine/remote_status.h"
#include "engine/fleet_cycle.h"

namespace berth::engine {

namespace {

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

bool OfWorkloadHoldingAdmission(const model::Snapshot& snapshot, const ClusterPart& part,
                                model::PodIndex pod) {
  for (int32_t index : part.kueue_workloads) {
    const model::Workload& w = snapshot.kueue_workloads[static_cast<size_t>(index)];
    for (const auto& pods : w.pods) {
      if (std::find(pods.begin(), pods.end(), pod.v) != pods.end()) return HoldsAdmission(w);
    }
  }
  return false;
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

namespace {

// The cycle of every cluster, decisions written into plan.planned, which holds a copy of
// `snapshot` or (one cluster, no fleet) is `snapshot` itself. Aliasing is safe there: each
// cluster's cycle decides from the input before ApplyCycle writes, and what ApplyCycle reads
// after its writes (pod names, claim references, Workloads' pods) are fields it never writes.
void PlanClusters(const model::Snapshot& snapshot, const PlanOptions& options,
                  std::vector<ClusterPart>& parts, Plan& plan) {
  const model::SchedulerConfig config = EffectiveSchedulerConfig(snapshot, options);
  const core::Timestamp now = PlanTime(snapshot, options);
  std::set<int32_t> changed;
  const int32_t cycles = options.cycles.value_or(0);
  plan.cycles = cycles;
  if (IsFleet(snapshot)) {
    RunFleet(snapshot, parts, config, now, plan, changed, cycles);
  } else {
    for (const ClusterPart& part : parts) {
      core::Diagnostics diags;
      binding::Scheduler scheduler(part.snapshot(), config, PartOptions(part, &diags));
      ClusterCycleResult cycle = RunClusterCycle(snapshot, part, scheduler, now, diags,
                                                 std::nullopt, nullptr, nullptr, cycles);
      ApplyCycle(snapshot, part, scheduler, cycle, now, diags, plan, changed);
    }
  }
  plan.changed_claims.assign(changed.begin(), changed.end());
  for (size_t i = 0; i < plan.planned.kueue_workloads.size(); ++i) {
    plan.workloads.push_back(static_cast<int32_t>(i));
  }
}

// The fleet paths of RunPlan. The member clusters' cycles and the hub read the input after
// earlier cycles wrote their decisions, so the input stays apart from the plan; but the
// planned snapshot starts with every object but the nodes and the Kueue Workloads (the two
// largest vectors of a fleet: 100,000 of each in the fleet bench). Nodes are never written
// (the writers read node names from the input), so the plan gets them once the cycle is
// done; RunFleet copies the Workloads in once dispatch is done and the member clusters'
// schedulers are gone, so that they are not held at the same time.
Plan PlanFleet(const model::Snapshot& input, model::Snapshot&& planned, const PlanOptions& options) {
  Plan plan;
  plan.planned = std::move(planned);
  std::vector<ClusterPart> parts = SplitByCluster(input);
  PlanClusters(input, options, parts, plan);
  return plan;
}

Plan PlanFleetTakingInput(model::Snapshot input, const PlanOptions& options) {
  std::vector<model::Node> nodes = std::move(input.nodes);
  std::vector<model::Workload> workloads = std::move(input.kueue_workloads);
  input.nodes.clear();
  input.kueue_workloads.clear();
  model::Snapshot planned = input;
  input.nodes = std::move(nodes);
  input.kueue_workloads = std::move(workloads);
  Plan plan = PlanFleet(input, std::move(planned), options);
  plan.planned.nodes = std::move(input.nodes);
  return plan;
}

Plan PlanFleetCopying(const model::Snapshot& input, const PlanOptions& options) {
  model::Snapshot planned = input;
  planned.nodes = {};
  planned.kueue_workloads = {};
  Plan plan = PlanFleet(input, std::move(planned), options);
  plan.planned.nodes = input.nodes;
  return plan;
}

}  // namespace

Plan RunPlan(const model::Snapshot& snapshot, const PlanOptions& options) {
  if (HasEvictionsToComplete(snapshot) || NeedsPodAdmission(snapshot)) {
    return RunPlan(model::Snapshot(snapshot), options);
  }
  if (IsFleet(snapshot)) return PlanFleetCopying(snapshot, options);
  Plan plan;
  plan.planned = snapshot;
  std::vector<ClusterPart> parts = SplitByCluster(snapshot);
  PlanClusters(snapshot, options, parts, plan);
  return plan;
}

Plan RunPlan(model::Snapshot&& snapshot, const PlanOptions& options) {
  // The job reconciler's step before any cycle: evictions whose pods are gone are finished.
  CompleteEvictions(snapshot, PlanTime(snapshot, options));
  // MultiKueue's step: dispatched workloads whose job finished on its worker, or whose worker
  // is lost, before the hub's Kueue looks at its queues.
  ReflectRemoteStatus(snapshot, PlanTime(snapshot, options));
  // The API server's step: pods berth creates from workloads pass LimitRanger and
  // ResourceQuota admission before any scheduler sees them (pod_admission.h).
  core::Diagnostics admission_diags;
  AdmitCreatedPods(snapshot, admission_diags);
  if (IsFleet(snapshot)) {
    Plan plan = PlanFleetTakingInput(std::move(snapshot), options);
    MergeDiagnostics(admission_diags, plan.diagnostics);
    return plan;
  }
  Plan plan;
  MergeDiagnostics(admission_diags, plan.diagnostics);
  plan.planned = std::move(snapshot);
  const model::Snapshot& input = plan.planned;
  std::vector<ClusterPart> parts = SplitByCluster(input);
  if (parts.size() > 1 || IsFleet(input)) {
    // Several clusters' cycles read the whole input after earlier clusters' writes: keep
    // the input apart from the plan, as the copying overload does.
    const model::Snapshot whole = std::move(plan.planned);
    plan.planned = whole;
    parts = SplitByCluster(whole);
    PlanClusters(whole, options, parts, plan);
    return plan;
  }
  PlanClusters(input, options, parts, plan);
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

namespace {

core::Result<Explanation> ExplainAdmittedPod(const model::Snapshot& snapshot,
                                             const std::string& pod_name,
                                             const PlanOptions& options) {
  BERTH_ASSIGN_OR_RETURN(model::PodIndex target, FindPod(snapshot, pod_name));
  if (const model::Pod& pod = snapshot.pod(target); !pod.admission_refused.empty()) {
    // Never created: its controller got the API server's refusal (pod_admission.h).
    return core::FailedPrecondition("pod " + PodKey(pod) + " was not created: Error creating: " +
                                    pod.admission_refused);
  }
  const model::SchedulerConfig config = EffectiveSchedulerConfig(snapshot, options);
  for (const ClusterPart& part : SplitByCluster(snapshot)) {
    std::optional<model::PodIndex> local = part.ToLocal(target);
    if (!local) continue;
    core::Diagnostics diags;
    binding::Scheduler scheduler(part.snapshot(), config, PartOptions(part, &diags));
    const std::vector<model::PodIndex> queue = scheduler.QueueOrder();
    auto it = std::find(queue.begin(), queue.end(), *local);
    if (it == queue.end()) return NotQueued(snapshot.pod(target), config);
    // A pod of a workload admitted in the input waits in kube-scheduler's queue like any
    // pod and is explained at its turn; the others wait for Kueue.
    if (KueuePodMask(snapshot, part)[static_cast<size_t>(target.v)] &&
        !OfWorkloadHoldingAdmission(snapshot, part, target)) {
      return NotQueuedBehindKueue(snapshot, target);
    }
    // Replay the cycle up to the pod so that it meets the nodes as the cycle leaves them.
    bool reached = false;
    const ClusterCycleResult so_far =
        RunClusterCycle(snapshot, part, scheduler, PlanTime(snapshot, options), diags, *local,
                        &reached, nullptr, options.cycles.value_or(0));
    // RunClusterCycle reaches every queued pod not waiting for Kueue's admission.
    BERTH_CHECK(reached, "a queued pod the cluster cycle never reached");
    Explanation explanation;
    explanation.pod = scheduler.Explain(*local);
    explanation.nodes = NodesAtTurn(part, scheduler, *local, so_far, explanation.pod.nodes);
    // A nominated pod is tried on its nominated node first (ScheduleOnNominated).
    const model::Pod& explained = part.snapshot().pod(*local);
    if (explanation.pod.decision.node && !explained.nominated_node_name.empty()) {
      for (const auto& verdict : explanation.pod.nodes) {
        if (verdict.feasible &&
            part.node(verdict.node).meta.name == explained.nominated_node_name) {
          explanation.pod.decision.node = verdict.node;
          explanation.pod.decision.nominated_node = verdict.node;
        }
      }
    }
    if (!explanation.pod.decision.node && !explanation.pod.decision.skipped) {
      binding::PreemptionOutcome outcome = scheduler.Preempt(*local);
      if (outcome.node) {
        model::PodPreemption p;
        p.preemptor = target;
        p.node = part.ToWhole(*outcome.node);
        for (model::PodIndex v : outcome.victims) p.victims.push_back(part.ToWhole(v));
        p.pdb_violations = outcome.pdb_violations;
        p.candidates = outcome.candidates;
        p.criterion = outcome.criterion;
        p.completed = options.cycles.value_or(0) != 1;
        // A settled plan deletes the victims and binds the pod there (as the plan does).
        explanation.pod.decision.nominated_node = outcome.node;
        explanation.pod.decision.victims = outcome.victims;
        if (p.completed) explanation.pod.decision.node = outcome.node;
        explanation.preemption = std::move(p);
      } else if (!outcome.message.empty()) {
        explanation.preemption_message = outcome.message;
        explanation.pod.decision.message += " " + outcome.message;
      }
    }
    explanation.pod.pod = target;
    for (auto& verdict : explanation.pod.nodes) verdict.node = part.ToWhole(verdict.node);
    explanation.pod.decision = ToWhole(part, std::move(explanation.pod.decision));
    // A gang member is decided with its gang: when the gang binds fewer than its minimum (or
    // its group does not exist) the pod's own attempt above is undone, so the decision is the
    // plan's for it. Only gang members pay for the second run of the cycle.
    if (PodGroupOf(part.snapshot(), part.snapshot().pod(*local)).has_value()) {
      core::Diagnostics gang_diags;
      binding::Scheduler gang_run(part.snapshot(), config, PartOptions(part, &gang_diags));
      const ClusterCycleResult full =
          RunClusterCycle(snapshot, part, gang_run, PlanTime(snapshot, options), gang_diags,
                          std::nullopt, nullptr, nullptr, options.cycles.value_or(0));
      for (const model::PodDecision& d : full.pod_decisions) {
        if (d.pod == target && !d.node.has_value()) {
          explanation.pod.decision = d;
          break;
        }
      }
    }
    explanation.queue_position = static_cast<int32_t>(it - queue.begin()) + 1;
    explanation.queue_length = static_cast<int32_t>(queue.size());
    MergeDiagnostics(diags, explanation.diagnostics);
    return explanation;
  }
  // FindPod returned an index of `snapshot`, and the parts cover every pod.
  BERTH_CHECK(false, "pod found in the snapshot but in no cluster part");
  return core::Internal("unreachable");
}

}  // namespace

core::Result<Explanation> ExplainPod(const model::Snapshot& snapshot, const std::string& pod_name,
                                     const PlanOptions& options) {
  if (!NeedsPodAdmission(snapshot)) return ExplainAdmittedPod(snapshot, pod_name, options);
  // The pod meets the nodes as the plan does: after the admission of the pods berth creates.
  model::Snapshot admitted = snapshot;
  core::Diagnostics ignored;  // the plan reports them
  AdmitCreatedPods(admitted, ignored);
  return ExplainAdmittedPod(admitted, pod_name, options);
}

}  // namespace berth::engine
