#include "engine/fleet_measure.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "model/data_objects.h"

namespace berth::engine {
namespace {

// Fluid's label does not separate namespace from name ("fluid.io/s-team-a-corpus"), so
// every split is recorded; a dataset matches when its own namespace and name form the key.
void AddFluidDataset(std::string_view rest, std::set<std::string, std::less<>>& out) {
  for (size_t dash = rest.find('-'); dash != std::string_view::npos;
       dash = rest.find('-', dash + 1)) {
    if (dash == 0 || dash + 1 >= rest.size()) continue;
    std::string id = "dataset/";
    id += rest.substr(0, dash);
    id += '/';
    id += rest.substr(dash + 1);
    out.insert(std::move(id));
  }
}

void AddCachedArtifacts(const model::Node& node, std::set<std::string, std::less<>>& out) {
  for (const auto& [key, value] : node.meta.labels) {
    std::string_view k = key;
    if (k.starts_with(model::kModelCacheLabelPrefix) && value == "true") {
      out.insert("model/" + std::string(k.substr(std::string_view(model::kModelCacheLabelPrefix).size())));
    } else if (k.starts_with(model::kFluidDatasetLabelPrefix) && value == "true") {
      AddFluidDataset(k.substr(std::string_view(model::kFluidDatasetLabelPrefix).size()), out);
    }
  }
}

const model::DeviceAttribute* Attribute(const model::Device& device, const std::string& driver,
                                        const std::string& name) {
  auto it = device.attributes.find(name);
  if (it == device.attributes.end()) it = device.attributes.find(driver + "/" + name);
  return it == device.attributes.end() ? nullptr : &it->second;
}

// DRA GPUs: every whole-GPU device of NVIDIA's DRA driver (type "gpu" or untyped; MIG
// devices are partitions of GPUs already counted) that no claim holds, by productName.
void AddDraGpus(const model::Snapshot& planned,
                std::map<std::string, ClusterMeasure, std::less<>>& out) {
  if (planned.resource_slices.empty()) return;
  std::set<std::string> allocated;  // cluster/driver/pool/device
  for (const model::ResourceClaim& claim : planned.resource_claims) {
    if (!claim.allocation) continue;
    for (const auto& r : claim.allocation->results) {
      allocated.insert(claim.cluster + "/" + r.driver + "/" + r.pool + "/" + r.device);
    }
  }
  for (const model::ResourceSlice& slice : planned.resource_slices) {
    if (slice.driver != gpu::kDraGpuDriver) continue;
    for (const model::Device& device : slice.devices) {
      const model::DeviceAttribute* type = Attribute(device, slice.driver, "type");
      if (type != nullptr && type->string_value != "gpu") continue;
      const model::DeviceAttribute* product = Attribute(device, slice.driver, "productName");
      ClusterMeasure& m = out[slice.cluster];
      ++m.capacity.total_gpus;
      if (allocated.count(slice.cluster + "/" + slice.driver + "/" + slice.pool_name + "/" +
                          device.name) != 0) {
        continue;
      }
      ++m.capacity.free_gpus;
      ++m.capacity.free_gpus_by_product[product != nullptr ? product->string_value : ""];
    }
  }
}

}  // namespace

std::map<std::string, ClusterMeasure, std::less<>> MeasureClusters(
    const model::Snapshot& input, const model::Snapshot& planned,
    const std::vector<MemberBinding>& members) {
  std::map<std::string, ClusterMeasure, std::less<>> out;
  for (const model::Node& node : input.nodes) {
    AddCachedArtifacts(node, out[node.cluster].capacity.cached_artifacts);
  }
  model::ResourceId gpu{};
  const bool has_gpu = planned.resources.Find(gpu::kResourceGpu, &gpu);
  for (const MemberBinding& member : members) {
    const ClusterPart& part = *member.part;
    for (int32_t n = 0; n < part.num_nodes(); ++n) {
      const model::Node& node = part.node(model::NodeIndex{n});
      if (node.unschedulable) continue;
      // The scheduler's own rows: what its binds and unbinds left free, no pod re-read.
      const model::ResourceVector free = member.scheduler->NodeFree(model::NodeIndex{n});
      ClusterMeasure& m = out[node.cluster];
      m.free.Add(free);
      if (!has_gpu) continue;
      const int64_t total = node.allocatable.Get(gpu);
      if (total <= 0) continue;
      const int64_t left = std::max<int64_t>(0, free.Get(gpu));
      auto product = node.meta.labels.find(gpu::kLabelGpuProduct);
      const std::string& name = product == node.meta.labels.end() ? "" : product->second;
      m.capacity.free_gpus_by_product[name] += left;
      m.capacity.free_gpus += left;
      m.capacity.total_gpus += total;
    }
  }
  AddDraGpus(planned, out);
  for (auto& [name, m] : out) {
    for (size_t id = 0; id < m.free.size(); ++id) {
      const model::ResourceId r{static_cast<uint16_t>(id)};
      const int64_t v = m.free.Get(r);
      m.capacity.free_milli[planned.resources.Name(r)] = r == model::kCpu ? v : v * 1000;
    }
  }
  return out;
}

}  // namespace berth::engine
