// The simulated kubelet of every node of a member cluster, plus the node IPAM controller's
// part the kubelet depends on:
// - nodes: a podCIDR (10.244.N.0/24, the lowest N free) when the node has none, addresses
//   when it reports none, and the kubelet's conditions (Ready True KubeletReady, no pressure)
//   on every node that is not down (node_faults.h);
// - pods bound to a node (spec.nodeName) that is not down: a Pending pod starts (Running,
//   startTime, conditions PodReadyToStartContainers/Initialized/ContainersReady/Ready/
//   PodScheduled, containers running, a podIP from the node's CIDR); a running pod ends after
//   its duration (PlanPodRun) as Succeeded (exit code 0, reason Completed) or Failed (reason
//   Error), or, when its restartPolicy restarts it in place, cycles through runs and
//   CrashLoopBackOff waits with a growing restartCount, as the kubelet's back-off (10 s
//   doubling to 5 min) spaces them. A pod being deleted is left alone.
// Every status is a function of the pod, its start time and the round's time, so a second
// run of the same round writes nothing. Pure functions over a MemberState.
#pragma once

#include <cstdint>
#include <optional>

#include "server/member/controller_options.h"
#include "server/member/member_state.h"

namespace berth::server::member {

// How a pod runs once started.
struct PodRunPlan {
  std::optional<int64_t> run_ns;  // how long each run lasts; nullopt: until deleted
  int exit_code = 0;              // how each run ends
  bool crashloop = false;         // exits at once, never ready (berth.dev/simulated-failure)
};

// The plan of `pod`: its simulated-duration annotation, or the cluster's default
// distribution (sampled from the pod's uid and the seed) when the pod's restartPolicy is not
// Always; its simulated-exit-code; its simulated-failure. An annotation that does not parse is
// reported on `state` (InvalidSimulatedDuration, InvalidSimulatedExitCode,
// InvalidSimulatedFailure) and the pod runs until deleted.
PodRunPlan PlanPodRun(MemberState& state, const Json& pod, const ControllerOptions& options);

void RunKubelet(MemberState& state, const ControllerOptions& options);

}  // namespace berth::server::member
