// FleetCapacity: what the engine knows of each member cluster's free capacity and caches,
// computed from the cluster's own Nodes, Pods and devices when they are given
// (`--cluster NAME=PATH`) after that cluster's own cycle, else left out (scorers then fall
// back to ManagedCluster status). Read by berth's capacity and locality prioritizers
// (ResourceAllocatableGPU, DataLocality); plain data.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>

namespace berth::placement {

struct ClusterCapacity {
  // Schedulable nodes' allocatable minus what bound pods request, per resource name
  // ("cpu", "memory", "nvidia.com/gpu"), in milli-units.
  std::map<std::string, int64_t, std::less<>> free_milli;
  // Whole GPUs no pod or claim holds, per GPU product (the node's nvidia.com/gpu.product
  // label, or a DRA device's productName attribute); "" counts GPUs of unknown product.
  std::map<std::string, int64_t, std::less<>> free_gpus_by_product;
  int64_t free_gpus = 0;  // sum of free_gpus_by_product
  int64_t total_gpus = 0;
  // Artifacts cached in the cluster: "model/<name>" and "dataset/<namespace>/<name>"
  // (Fluid's fluid.io/s-<ns>-<name> node labels, berth's cache labels on nodes).
  std::set<std::string, std::less<>> cached_artifacts;
};

// By ManagedCluster name.
using FleetCapacity = std::map<std::string, ClusterCapacity, std::less<>>;

}  // namespace berth::placement
