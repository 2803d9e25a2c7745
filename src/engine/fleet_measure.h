// FleetMeasure: each member cluster's free capacity and cached artifacts after its own
// cycle, measured from the planned snapshot (its Nodes and the pods bound there, the cycle's
// bindings included; device-plugin GPUs from nvidia.com/gpu, DRA GPUs from ResourceSlices of
// gpu.nvidia.com less the devices claims hold), for berth's capacity prioritizers
// (placement::FleetCapacity) and fleet dispatch's quick per-cluster check. Pure; internal to
// engine.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>

#include "model/decision.h"
#include "model/resources.h"
#include "model/snapshot.h"
#include "placement/fleet_capacity.h"

namespace berth::engine {

// The node label naming a node's GPU product (NVIDIA GPU feature discovery).
inline constexpr const char* kGpuProductLabel = "nvidia.com/gpu.product";
inline constexpr const char* kGpuResource = "nvidia.com/gpu";
// NVIDIA's DRA driver: its whole-GPU devices count as GPUs too.
inline constexpr const char* kDraGpuDriver = "gpu.nvidia.com";
// Node labels saying an artifact is cached there: berth's own, and Fluid's dataset label
// (fluid.io/s-<namespace>-<dataset>).
inline constexpr const char* kModelCacheLabelPrefix = "models.cache.berth.dev/";
inline constexpr const char* kFluidDatasetLabelPrefix = "fluid.io/s-";

struct ClusterMeasure {
  placement::ClusterCapacity capacity;
  // Schedulable nodes' allocatable minus the requests of the pods bound there, summed over
  // the cluster, in ResourceVector units.
  model::ResourceVector free;
};

// By cluster name, for every cluster with Nodes. `deleted`: pods (whole indices) the cycle
// deleted, which hold nothing any more. O(nodes + pods).
std::map<std::string, ClusterMeasure, std::less<>> MeasureClusters(
    const model::Snapshot& planned, const std::set<int32_t>& deleted);

}  // namespace berth::engine
