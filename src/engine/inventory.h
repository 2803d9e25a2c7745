// Inventory: every node's GPUs after one planning pass, for `berth inventory`: what the
// device plugin advertises (gpu/gpu_inventory.h) and which pods hold which GPU, MIG
// instance, replica or fraction (gpu/gpu_occupancy.h), pods the plan placed included.
// Reads only the plan (its planned snapshot), so the input can be handed to RunPlan.
// Pure; thread-compatible.
#pragma once

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

struct Inventory {
  std::vector<ClusterInventory> clusters;  // clusters with GPU nodes, by name
};

// The inventory of plan.planned, the input with the plan applied. Pods reach their node's
// devices in the order binding saw them: pods bound in the input (planned pods bound to a
// node that no decision of the plan bound them to, in snapshot order, terminal ones and those
// the plan deleted left out), then the plan's binds in scheduling order. Linear in pods plus nodes times their
// devices.
Inventory BuildInventory(const Plan& plan);

}  // namespace berth::engine
