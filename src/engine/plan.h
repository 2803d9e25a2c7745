// RunPlan: one scheduling cycle over a snapshot (DESIGN.md data flow). For a single cluster
// this is the binding stage over every pending pod; later stages (queueing, placement)
// plug in here. Pure: the input is not modified; the result carries a copy with decisions
// written where Kubernetes components write them. Called by the CLI (plan, explain, demo);
// stateless and thread-compatible (distinct calls may run on distinct threads).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "core/diagnostics.h"
#include "core/result.h"
#include "core/time.h"
#include "model/decision.h"
#include "model/snapshot.h"
#include "engine/federated_learning_run.h"
#include "engine/fleet_dispatcher.h"
#include "engine/placement_stage.h"
#include "queueing/admission.h"

namespace berth::engine {

// The largest --cycles a plan accepts (docs/limits.md): far beyond any settled plan of the
// inputs berth reads (RunAdmission's own bound is 4 x (workloads + ClusterQueues) + 64).
inline constexpr int32_t kMaxPlanCycles = 1000000;

struct PlanOptions {
  // Overrides the NodeResourcesFit scoring strategy of every profile (the CLI's --scoring).
  // RequestedToCapacityRatio without a shape in the configuration gets the bin-packing shape
  // {0%: 0, 100%: 10} (the example of the upstream documentation).
  std::optional<model::ScoringStrategyType> scoring;
  // The time the cycle runs at (the CLI's --now): Kueue's condition times. Unset: the
  // latest creationTimestamp in the input, so that output never depends on the wall clock.
  std::optional<core::Timestamp> now;
  // The CLI's --cycles (docs/cycles.md): run exactly this many Kueue scheduling cycles and
  // kube-scheduler passes per member cluster and write what the controllers wrote after
  // them: workloads evicted in the last cycle keep their pods, terminating; preemptors wait.
  // Unset: the settled state (cycles repeat until nothing changes). 1..kMaxPlanCycles.
  std::optional<int32_t> cycles;
};

struct Plan {
  // PlanOptions::cycles when given, else 0 (the settled state): printers add which cycle
  // decided what (queueing::WorkloadDecision::cycle) only when it is set.
  int32_t cycles = 0;
  // Pods with spec.nodeName and PodScheduled conditions written; ResourceClaims with the
  // allocation made for them and the pods bound with them added to reserved_for.
  model::Snapshot planned;
  std::vector<model::PodDecision> pod_decisions;  // in scheduling order
  // The ResourceClaims whose status the cycle changed (allocated, or a pod added to
  // reserved_for), as indices into `planned.resource_claims`, ascending: what the plan
  // prints after the pods.
  std::vector<int32_t> changed_claims;
  // Kueue Workloads to print after the claims, as indices into `planned.kueue_workloads`,
  // ascending: every Workload given and every one created for a queued job, with
  // status.admission and conditions as Kueue's controllers leave them.
  std::vector<int32_t> workloads;
  // Pods bound in the input that the cycle deletes (their workload was preempted), in
  // order: not printed as objects; tables and explain list them.
  std::vector<model::PodDeletion> deleted_pods;
  // kube-scheduler's DefaultPreemption, in the order it ran: who preempted whom, where and
  // why that node (victims of a completed one are in deleted_pods).
  std::vector<model::PodPreemption> preemptions;
  // Pods the cycle creates, appended to planned.pods (their decisions are in pod_decisions):
  // a workload preempted and re-admitted in this plan gets new pods in place of the deleted
  // ones, named by engine/replacement_pods.h's rule, with the new flavor's injection.
  struct CreatedPod {
    int32_t pod = -1;       // index into planned.pods
    int32_t workload = -1;  // index into planned.kueue_workloads
  };
  std::vector<CreatedPod> created_pods;
  // What Kueue admission decided, per member cluster that has Workloads (for tables and
  // explain).
  struct ClusterAdmission {
    std::string cluster;
    queueing::AdmissionResult result;
  };
  std::vector<ClusterAdmission> admissions;

  // The fleet (DESIGN.md "Fleet wiring"), when the input has ManagedClusters: every
  // Placement decided (status and PlacementDecisions written into `planned`), the hub
  // workloads given to member clusters (status.clusterName written) or still looking for
  // one, and the ManifestWorks that deliver them.
  std::vector<PlacementRun> placements;
  std::map<int32_t, Dispatch> dispatches;  // by hub workload index
  // Indices into planned.placements (decided), planned.placement_decisions (updated or
  // created) and planned.manifest_works (planned), in print order.
  std::vector<int32_t> placement_items;
  std::vector<int32_t> placement_decision_items;
  std::vector<int32_t> manifest_work_items;
  // Objects of the input the cycle deletes (stale PlacementDecisions and ManifestWorks).
  std::vector<model::ObjectDeletion> deleted_objects;
  // FederatedLearnings (engine/federated_learning.h): the ones decided, as indices into
  // planned.federated_learnings in print order, and what was decided for each (the hub's
  // gauges read these).
  std::vector<int32_t> federated_learning_items;
  std::vector<FederatedLearningRun> federated_learnings;
  // Problems the device allocator found in the DRA objects (a selector that does not
  // compile, an unknown DeviceClass, an invalid pool), each once: those objects were left
  // out and everything else was planned. Errors make the CLI exit 1.
  core::Diagnostics diagnostics;
};

// The time a plan runs at: options.now, else the latest creationTimestamp of the input.
core::Timestamp PlanTime(const model::Snapshot& snapshot, const PlanOptions& options);

// Runs the cycle. Each member cluster (Pod::cluster, Node::cluster) is scheduled on its own,
// clusters in name order; pods see only their own cluster's nodes, claims and devices.
// Decisions index into `snapshot` (and so into Plan::planned). Bound pods get spec.nodeName
// and PodScheduled=True, and their ResourceClaims the devices allocated on that node and
// the pod in reserved_for; unschedulable pods PodScheduled=False, reason Unschedulable,
// with kube-scheduler's message; skipped pods (another scheduler's) are left unchanged.
// Cost: one binding::Scheduler pass, plus one copy of the snapshot.
Plan RunPlan(const model::Snapshot& snapshot, const PlanOptions& options);

// The same plan, taking the input over: Plan::planned is `snapshot` itself with the decisions
// written into it, so the plan holds one snapshot instead of two (the CLI's plan command,
// which does not read its input again). Decisions index into Plan::planned. Costs no copy for
// an input of one cluster; several member clusters copy as the overload above, and a fleet
// copies every object but the nodes (the plan takes the input's nodes over at the end) and
// its Kueue Workloads only once dispatch is done.
Plan RunPlan(model::Snapshot&& snapshot, const PlanOptions& options);

// A node as the explained pod meets it: the numbers behind its verdict.
struct NodeAtTurn {
  // The node's class for this pod: nodes with the same allocatable, cordon, taints and
  // values of the labels the pod's scheduling reads (selector, affinity, spread and
  // pod-affinity topology keys) and of nvidia.com/gpu.product share one; they differ only in
  // what is bound on them. Numbered from 0 in the order of `Explanation::nodes`.
  int32_t node_class = -1;
  // Allocatable minus the requests of the pods bound there (binding::Scheduler::NodeFree),
  // in ResourceVector units; negative when overcommitted.
  model::ResourceVector free;
  // The pod asks for an NVIDIA GPU resource (gpu::IsNvidiaGpuResource) the node advertises
  // but has too little of free.
  bool gpus_taken = false;
  // The pods bound there that request NVIDIA GPU resources, in snapshot order (those bound
  // in the input), then in the order the cycle bound them; `gpus` sums their GPU resources.
  // Then the pods nominated there that hold its room for this pod (kube-scheduler's
  // nominator: this cycle's nominations, and the input's of at least this pod's priority).
  struct GpuHolder {
    model::PodIndex pod;  // index into the snapshot passed to ExplainPod
    int64_t gpus = 0;
    bool nominated = false;  // status.nominatedNodeName, not bound
  };
  std::vector<GpuHolder> gpu_holders;
};

// One pod's explanation at the state it meets in the cycle.
struct Explanation {
  binding::PodExplanation pod;    // indices refer to the snapshot passed to ExplainPod
  std::vector<NodeAtTurn> nodes;  // one per pod.nodes entry, in the same order
  int32_t queue_position = 0;     // 1-based position in its cluster's scheduling queue
  int32_t queue_length = 0;       // pending pods in that queue
  // kube-scheduler's DefaultPreemption for the pod when it fits no node: the node it would
  // be nominated to, the victims there and the rule that chose the node (whole indices);
  // unset when preemption finds nothing (then `preemption_message` says why, as the pod's
  // message ends: "preemption: ...").
  std::optional<model::PodPreemption> preemption;
  std::string preemption_message;
  core::Diagnostics diagnostics;  // as Plan::diagnostics, for the pod's cluster
};

// "namespace/name", with "default" for an empty namespace: the key FindPod matches and the
// name explain and demo print.
std::string PodKey(const model::Pod& pod);

// Finds a pod by "namespace/name", or by "name" when exactly one pod has it. Pods with an
// empty namespace match "default/name". NotFound when none does; InvalidArgument when
// "name" is ambiguous (the message lists the candidates).
core::Result<model::PodIndex> FindPod(const model::Snapshot& snapshot, const std::string& pod_name);

// The per-node explanation for one pod, at the state it meets in the cycle (after every pod
// ahead of it in the queue was placed), with each node's class, free capacity and GPU
// holders at that state (Explanation::nodes). Errors: those of FindPod, and FailedPrecondition
// when the pod is not in the scheduling queue (already bound, terminal, or left to another
// scheduler); the message says which. Linear in nodes times the pods ahead of it.
core::Result<Explanation> ExplainPod(const model::Snapshot& snapshot, const std::string& pod_name,
                                     const PlanOptions& options);

// The scheduler configuration the cycle uses: the snapshot's KubeSchedulerConfiguration or
// kube-scheduler's defaults, with PlanOptions::scoring applied.
model::SchedulerConfig EffectiveSchedulerConfig(const model::Snapshot& snapshot,
                                                const PlanOptions& options);

}  // namespace berth::engine
