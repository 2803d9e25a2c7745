// ClusterCycle: one member cluster's share of RunPlan, in the order things happen in a live
// cluster: (1) pods of Workloads admitted in the input run (their jobs are unsuspended), (2)
// every other pending pod is scheduled in kube-scheduler's queue order, pod groups
// (coscheduling, Volcano) all or nothing, (3) Kueue admits pending Workloads cycle by cycle,
// each admission checked by binding the workload's pods at once (BindingOracle), and
// preempted workloads' pods are unbound. Jobs that stay queued keep no pods. Internal to
// engine; called by RunPlan and ExplainPod.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "binding/scheduler.h"
#include "core/diagnostics.h"
#include "core/labels.h"
#include "core/taint.h"
#include "core/time.h"
#include "engine/cluster_part.h"
#include "model/decision.h"
#include "queueing/admission.h"

namespace berth::engine {
class FleetDispatcher;
}  // namespace berth::engine

namespace berth::engine {

struct ClusterCycleResult {
  // Decisions in the order made, indices into the whole snapshot; pods of workloads that
  // were preempted in this plan are left out (deleted).
  std::vector<model::PodDecision> pod_decisions;
  std::optional<queueing::AdmissionResult> admission;  // set when the cluster has Workloads
  // The nodeSelector and tolerations Kueue injected into admitted workloads' pods (whole
  // indices), for the pods in pod_decisions.
  struct Injection {
    model::PodIndex pod;
    core::Labels node_selector;
    std::vector<core::Toleration> tolerations;
  };
  std::vector<Injection> injections;
  // Pods the cycle creates: a re-admitted workload's job creates new pods in place of those
  // its eviction deleted (replacement_pods.h), in the order they were decided. The decision's
  // node is a whole index; its pod index is given when ApplyCycle appends the pod to the plan.
  struct CreatedPod {
    int32_t workload = -1;  // whole index into kueue_workloads
    model::Pod pod;
    model::PodDecision decision;
  };
  std::vector<CreatedPod> created_pods;
  // Pods bound in the input whose workload was preempted: deleted (local indices).
  std::vector<model::PodIndex> deleted_pods;
  // With a cycle count: pods bound in the input whose workload was evicted in the last
  // cycle (local indices, ascending). Their deletion has only begun: still bound, still
  // holding their node and claims, printed terminating (terminating_pods.h).
  std::vector<model::PodIndex> terminating_pods;
  // DefaultPreemption (kube-scheduler's PostFilter) for pending pods of step (2), whole
  // indices. In a settled plan the victims were unbound (deleted) and the preemptor bound;
  // after one cycle (cycles == 1) the victims are still there with DisruptionTarget, being
  // deleted, and the preemptor waits nominated to the node.
  std::vector<model::PodPreemption> preemptions;
  // Pods of workloads Kueue admitted in this cycle that the API server refused to create
  // (whole indices, with `pods "NAME" is forbidden: ...`): never scheduled, printed
  // NotCreated; each was warned about on its workload.
  std::vector<std::pair<model::PodIndex, std::string>> refused_pods;
};

// Runs the cycle on `scheduler` (built on part.snapshot()). When `stop_before` is set, stops
// right before that pod (local index) would be scheduled and returns what was decided so
// far; *reached says whether it got there (explain replays the cycle this way). With
// `fleet` (the hub of a fleet), workloads whose ClusterQueue has a fleet admission check are
// dispatched to member clusters instead of run here: holders whose check is not Ready yet
// first, then every new admission. `cycles` > 0 runs exactly that many cycles (PlanOptions::
// cycles; docs/cycles.md): Kueue stops after cycle `cycles`, and the pods of workloads it
// evicted in that last cycle are terminating instead of deleted; 0 runs to the settled state.
ClusterCycleResult RunClusterCycle(const model::Snapshot& whole, const ClusterPart& part,
                                   binding::Scheduler& scheduler, core::Timestamp now,
                                   core::Diagnostics& diags,
                                   std::optional<model::PodIndex> stop_before = std::nullopt,
                                   bool* reached = nullptr, FleetDispatcher* fleet = nullptr,
                                   int32_t cycles = 0);

// The pods (whole indices) that belong to Kueue Workloads of the part's cluster.
std::vector<bool> KueuePodMask(const model::Snapshot& whole, const ClusterPart& part);

// Whether the part's pending pod `local` comes nominated in the input (status.nominatedNodeName,
// from an earlier cycle) so that kube-scheduler's nominator holds its node for the pods of
// at most its priority: not refused at creation, not left to Kueue (`kueue`, KueuePodMask).
bool IsInputNominee(const ClusterPart& part, model::PodIndex local, const std::vector<bool>& kueue);

}  // namespace berth::engine
