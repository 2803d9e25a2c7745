// Plan invariants (issue 14, item 3): what every plan must satisfy whatever its input, checked
// after the fact from the plan alone, so a bug in any stage shows as a named violation
// instead of a wrong line in the output. Called by the CLI when checks are on (debug builds,
// BERTH_CHECK_INVARIANTS=1) and by the property and unit tests. Pure; thread-compatible.
#pragma once

#include <string>
#include <vector>

#include "engine/plan.h"

namespace berth::engine {
class ClusterSim;
}  // namespace berth::engine

namespace berth::engine {

// One broken invariant: which rule, the object it shows on, and the numbers.
struct InvariantViolation {
  // node-capacity, node-pods, node-missing, device-once, device-capacity, device-counters,
  // gpu-devices, gpu-fraction, quota, cohort-quota, admitted-pods, pod-status,
  // workload-status.
  std::string invariant;
  std::string object;   // "Node default/gpu-1", "ClusterQueue default/team-a", ...
  std::string message;  // the numbers: "nvidia.com/gpu requested 9 > allocatable 8 (...)"

  // "invariant <invariant> violated: <object>: <message>"
  std::string ToString() const;
  bool operator==(const InvariantViolation&) const = default;
};

// Checks `plan` (its planned snapshot, decisions and admission results):
//  - node-capacity / node-pods: on every node a pod was bound to by this plan, the bound,
//    non-terminal, not deleted pods (those bound in the input included) request no more than
//    the node's allocatable of each resource NodeResourcesFit checks, GPU-fraction
//    reservations counted as whole nvidia.com/gpu, and no more pods than allocatable pods;
//    node-missing: a pod the plan bound names an existing node of its cluster;
//  - device-once / device-capacity / device-counters: no DRA device is allocated to two
//    claims (unless it allows multiple allocations: then the consumed capacity stays within
//    the device's; admin access exempt), and the devices allocated from a pool consume no
//    more of its shared counters than the pool has; checked where a claim the plan changed
//    takes part;
//  - gpu-devices / gpu-fraction: every device-plugin GPU device (whole, MIG, replica) holds
//    at most its replicas, every shared GPU at most 1000 milli-GPU and its memory, and every
//    pod the plan bound got the devices it asks for (but a request the device plugin refuses
//    with failRequestsGreaterThanOne: kube-scheduler binds it, the kubelet rejects it);
//  - quota / cohort-quota: where the plan admitted a workload, each ClusterQueue's usage per
//    flavor and resource stays within nominal (no cohort) or nominal + borrowingLimit, and
//    each cohort tree's usage above its queues' guaranteed (non-lendable) quota stays within
//    what the tree can lend;
//  - admitted-pods: every Workload admitted (Admitted=True, not evicted, not dispatched to a
//    worker cluster) with pods has, per admitted pod set, `count` pods bound or with the
//    reason they wait (PodScheduled=False and a message), replacement pods included; not
//    checked in a cluster without nodes (queues planned on quota alone);
//  - pod-status / workload-status: the printed statuses agree with the decisions explain
//    reads (the last decision per pod: spec.nodeName and PodScheduled; each admission
//    decision: status.admission and its ClusterQueue).
// Violations come in that order, each rule's in snapshot order. Linear in pods, nodes,
// devices, claims' results and workloads' pod-set assignments (plus the GPU occupancy replay
// of engine/inventory.h on GPU nodes).
std::vector<InvariantViolation> CheckPlanInvariants(const Plan& plan);

// berth simulate's check after each step (a batch of events and the Kueue cycles they
// cause): on the cluster's nodes, no resource of the simulated kube-scheduler is requested
// beyond allocatable (node-capacity; a node the fleet already overcommitted on a resource is
// left out for it), and the admissions Kueue holds keep every ClusterQueue and cohort within
// quota (quota, cohort-quota, as for a plan). Borrows the ClusterSim, which must outlive it.
// Construction reads every node once; Check is linear in the nodes times the resources plus
// the quota holders' pod-set assignments (ClusterSim::QuotaHolders), not in the trace's jobs.
class SimStepChecker {
 public:
  explicit SimStepChecker(const ClusterSim& sim);
  std::vector<InvariantViolation> Check() const;

 private:
  const ClusterSim& sim_;
  std::vector<bool> overcommitted_;  // [node * resources + r]: already so before the run
};

}  // namespace berth::engine
