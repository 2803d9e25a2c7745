// Inventory: every node's GPUs after one planning pass, for `berth inventory`: what the
// device plugin advertises (gpu/gpu_inventory.h) and which pods hold which GPU, MIG
// instance, replica or fraction (gpu/gpu_occupancy.h), pods the plan placed included.
// Reads only the plan (its planned snapshot), so the input can be handed to RunPlan.
// Pure; thread-compatible.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/plan.h"
#include "gpu/gpu_inventory.h"
#include "gpu/gpu_occupancy.h"
#include "model/snapshot.h"

namespace berth::engine {

struct NodeInventory {
  model::NodeIndex node;
  gpu::NodeGpuInventory gpus;
  gpu::NodeOccupancy occupancy;  // pod indices refer to plan.planned (= the input's)
};

struct ClusterInventory {
  std::string name;
  std::vector<NodeInventory> nodes;  // nodes with GPUs, by name
};

// Where a pod on a node's devices comes from.
enum class PodSource {
  kRunning,     // bound in the input
  kPlanned,     // bound by this plan
  kDispatched,  // a hub workload's pod the plan dispatched to this member cluster
};

struct Inventory {
  std::vector<ClusterInventory> clusters;  // clusters with GPU nodes, by name
  // Pods not running already, by index into plan.planned; every other holder is kRunning.
  std::map<int32_t, PodSource> sources;

  PodSource SourceOf(model::PodIndex pod) const {
    auto it = sources.find(pod.v);
    return it == sources.end() ? PodSource::kRunning : it->second;
  }
};

// The inventory of plan.planned, the input with the plan applied. Pods reach their node's
// devices in the order binding saw them: pods bound in the input (planned pods bound to a
// node that no decision of the plan bound them to, in snapshot order, terminal ones and those
// the plan deleted left out), then the plan's binds in scheduling order, then in a fleet the
// pods of hub workloads dispatched to a member cluster, on the nodes the dispatch bound them
// to (Plan::dispatches, the fitting attempt's pods; what `explain workload` prints), as
// the hub's pod of that name. Linear in pods plus nodes times their devices.
Inventory BuildInventory(const Plan& plan);

}  // namespace berth::engine
