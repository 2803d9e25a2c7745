// FleetMeasure: each member cluster's free capacity and cached artifacts after its own
// cycle, for berth's capacity prioritizers (placement::FleetCapacity) and fleet dispatch's
// quick per-cluster check. Free capacity is read from each member's binding::Scheduler
// (Scheduler::NodeFree: the input's bound pods and the cycle's bindings and deletions as
// binding accounts them), never summed again from pods; device-plugin GPUs from
// nvidia.com/gpu, DRA GPUs from the planned snapshot's ResourceSlices of gpu.nvidia.com less
// the devices its claims hold; cached artifacts from node labels. Reads only; internal to
// engine.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "engine/cluster_part.h"
#include "gpu/gpu_inventory.h"
#include "model/decision.h"
#include "model/resources.h"
#include "model/snapshot.h"
#include "placement/fleet_capacity.h"

namespace berth::engine {


struct ClusterMeasure {
  placement::ClusterCapacity capacity;
  // Schedulable nodes' allocatable minus the requests of the pods bound there, summed over
  // the cluster, in ResourceVector units (Scheduler::NodeFree).
  model::ResourceVector free;
};

// A member cluster after its cycle: its part and the scheduler that ran it.
struct MemberBinding {
  const ClusterPart* part = nullptr;
  const binding::Scheduler* scheduler = nullptr;
};

// By cluster name, for every cluster with Nodes in `input` (read from there: no stage writes
// nodes, and a fleet's `planned` gets them only after the cycle); free capacity and GPU counts
// for the `members` (a cluster with nodes but no scheduler, such as the hub before its own
// cycle, gets only its cached artifacts); DRA GPUs from `planned`'s claims as the cycles
// left them. O(nodes x resources + slices + claims).
std::map<std::string, ClusterMeasure, std::less<>> MeasureClusters(
    const model::Snapshot& input, const model::Snapshot& planned,
    const std::vector<MemberBinding>& members);

}  // namespace berth::engine
