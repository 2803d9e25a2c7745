// GPU occupancy: which pod holds which GPU, MIG instance, time-slicing replica or GPU
// fraction on one node. The kubelet's choice among free devices is not observable in the
// objects berth reads, so pods are assigned as the NVIDIA device plugin prefers, replayed
// in the order they reached the node: devices without replicas first-fit by (GPU index,
// placement start); replicated devices (time-slicing, MPS) by the plugin's "distributed"
// policy (fewest replicas in use, then fewest taken by this request, then lowest index);
// fractions through a FractionLedger exactly as binding accounted them. Called by
// `berth inventory` (through engine). Pure functions and values; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpu/fraction_ledger.h"
#include "gpu/fraction_request.h"
#include "gpu/gpu_inventory.h"
#include "model/pod.h"
#include "model/resources.h"

namespace berth::gpu {

// What one pod asks of a node's NVIDIA devices.
struct PodGpuDemand {
  model::PodIndex pod;
  // NVIDIA extended resources (IsNvidiaGpuResource) with the pod's effective request
  // (kube's rule: max of the app containers plus sidecars and of each init container, plus
  // overhead), by name.
  std::vector<std::pair<std::string, int64_t>> resources;
  std::optional<FractionRequest> fraction;  // valid gpu-fraction / gpu-memory annotations

  bool empty() const { return resources.empty() && !fraction.has_value(); }
};

// The demand of `pod` (whose index is `index`). Malformed fraction annotations count as no
// fraction (binding rejects such pods, so none is bound).
PodGpuDemand GpuDemandOf(const model::Pod& pod, model::PodIndex index,
                         const model::ResourceCatalog& catalog);

// A pod's hold on one device.
struct DeviceHolder {
  model::PodIndex pod;  // pod.v == -1: the GPU is reserved for fractional pods (KAI)
  int32_t replicas = 1;
};

struct DeviceOccupancy {
  int32_t used = 0;  // replicas held
  std::vector<DeviceHolder> holders;
};

// A pod that holds node resources but got no device: more requested than the node's
// devices hold (inconsistent input), a fraction that fits no GPU, or a request the device
// plugin refuses at admission (failRequestsGreaterThanOne).
struct UnassignedDemand {
  model::PodIndex pod;
  std::string resource;  // or "gpu-fraction"
  int64_t amount = 0;
  std::string reason;
};

struct NodeOccupancy {
  std::vector<DeviceOccupancy> devices;  // parallel to NodeGpuInventory::devices
  FractionLedger fractions{0, false};    // shared GPUs carry their physical index
  std::vector<UnassignedDemand> unassigned;
};

// Assigns `demands`, in the order given (pods bound before the plan first, then the plan's
// binds in scheduling order), to the devices of `inventory`. Deterministic; linear in
// devices times requested units.
NodeOccupancy AssignGpus(const NodeGpuInventory& inventory, std::span<const PodGpuDemand> demands);

}  // namespace berth::gpu
