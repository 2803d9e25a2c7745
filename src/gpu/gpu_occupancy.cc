#include "gpu/gpu_occupancy.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "model/pod_requests.h"

namespace berth::gpu {

namespace {

bool Shareable(const GpuDevice& d) {
  return d.mig_instance < 0 && d.resource == kResourceGpu && d.replicas == 1;
}

}  // namespace

PodGpuDemand GpuDemandOf(const model::Pod& pod, model::PodIndex index,
                         const model::ResourceCatalog& catalog) {
  PodGpuDemand out;
  out.pod = index;
  int64_t whole_gpus = 0;
  // model's one pod-requests rule (upstream resource.PodRequests: requests only, overhead in).
  std::vector<int64_t> requests(catalog.size());
  model::PodRequestsInto(pod, {}, requests);
  for (size_t i = 0; i < catalog.size(); ++i) {
    model::ResourceId id{static_cast<uint16_t>(i)};
    const std::string& name = catalog.Name(id);
    if (!IsNvidiaGpuResource(name)) continue;
    int64_t amount = requests[i];
    if (amount <= 0) continue;
    if (name == kResourceGpu) whole_gpus = amount;
    out.resources.emplace_back(name, amount);
  }
  std::sort(out.resources.begin(), out.resources.end());
  if (HasFractionAnnotations(pod.meta.annotations)) {
    auto parsed = ParseFractionRequest(pod.meta.annotations, whole_gpus);
    if (parsed.has_value()) out.fraction = parsed.value();
  }
  return out;
}

NodeOccupancy AssignGpus(const NodeGpuInventory& inventory, std::span<const PodGpuDemand> demands) {
  NodeOccupancy occ;
  const std::vector<GpuDevice>& devices = inventory.devices;
  occ.devices.resize(devices.size());
  occ.fractions = FractionLedger(inventory.GpuMemoryMib(), inventory.FractionShareable());
  std::vector<size_t> candidates;
  std::vector<int32_t> picked;
  for (const PodGpuDemand& demand : demands) {
    for (const auto& [resource, amount] : demand.resources) {
      candidates.clear();
      int64_t free = 0;
      bool replicated = false;
      for (size_t d = 0; d < devices.size(); ++d) {
        if (devices[d].resource != resource) continue;
        candidates.push_back(d);
        free += devices[d].replicas - occ.devices[d].used;
        replicated = replicated || devices[d].replicas > 1;
      }
      if (candidates.empty()) {
        occ.unassigned.push_back(UnassignedDemand{
            demand.pod, resource, amount, "the node advertises no " + resource + " device"});
        continue;
      }
      if (replicated && inventory.sharing.fail_requests_greater_than_one && amount > 1) {
        occ.unassigned.push_back(UnassignedDemand{
            demand.pod, resource, amount,
            "failRequestsGreaterThanOne: the device plugin refuses more than 1 shared replica; "
            "the pod fails admission (UnexpectedAdmissionError)"});
        continue;
      }
      if (free < amount) {
        occ.unassigned.push_back(UnassignedDemand{
            demand.pod, resource, amount,
            "only " + std::to_string(free) + " " + resource + " free on the node's devices"});
        continue;
      }
      picked.assign(devices.size(), 0);
      for (int64_t k = 0; k < amount; ++k) {
        // Without replicas every candidate has used 0 or 1 and picked 0, so this is the
        // first free device in (GPU, start) order; with replicas it is the plugin's
        // distributed policy.
        size_t best = devices.size();
        for (size_t d : candidates) {
          if (occ.devices[d].used >= devices[d].replicas) continue;
          if (best == devices.size() || std::tie(occ.devices[d].used, picked[d]) <
                                            std::tie(occ.devices[best].used, picked[best])) {
            best = d;
          }
        }
        ++occ.devices[best].used;
        ++picked[best];
      }
      for (size_t d : candidates) {
        if (picked[d] > 0) occ.devices[d].holders.push_back(DeviceHolder{demand.pod, picked[d]});
      }
    }
    if (!demand.fraction.has_value()) continue;
    const FractionRequest& f = *demand.fraction;
    int64_t free_whole = 0;
    for (size_t d = 0; d < devices.size(); ++d) {
      free_whole += Shareable(devices[d]) && occ.devices[d].used == 0 ? 1 : 0;
    }
    std::optional<std::vector<int32_t>> choice = occ.fractions.Choose(f, free_whole);
    if (!choice.has_value()) {
      occ.unassigned.push_back(UnassignedDemand{demand.pod, std::string(kGpuFractionAnnotation), 0,
                                                "no GPU can hold " + f.ToString()});
      continue;
    }
    size_t before = occ.fractions.shared().size();
    occ.fractions.Apply(f, *choice, demand.pod);
    for (size_t slot = before; slot < occ.fractions.shared().size(); ++slot) {
      // A newly reserved GPU: the lowest free whole GPU, held by KAI's reservation.
      for (size_t d = 0; d < devices.size(); ++d) {
        if (!Shareable(devices[d]) || occ.devices[d].used != 0) continue;
        occ.devices[d].used = 1;
        occ.devices[d].holders.push_back(DeviceHolder{model::PodIndex{-1}, 1});
        occ.fractions.SetPhysicalIndex(slot, devices[d].gpu);
        break;
      }
    }
  }
  return occ;
}

}  // namespace berth::gpu
